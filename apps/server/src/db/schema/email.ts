import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.js';
import { outboundMessages } from './platform.js';
import { studies } from './studies.js';

export const EMAIL_MESSAGE_KINDS = [
  'invitation',
  'participant_contact',
  'collaborator_invitation',
  'collaborator_contact',
  'adherence_digest',
  'sync_reminder',
  'reauthorization_reminder',
] as const;

/** One mailing from the study screen; its kind is stored at send. */
export const emailMessages = pgTable(
  'email_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: EMAIL_MESSAGE_KINDS }).notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    recipientCount: integer('recipient_count').notNull(),
    sentBy: uuid('sent_by').references(() => users.id, { onDelete: 'set null' }),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    // Delivery counts of the recipients by their outbound row's status, kept by triggers
    // (migration 0007) so the history never groups recipients per request.
    queuedCount: integer('queued_count').notNull().default(0),
    sentCount: integer('sent_count').notNull().default(0),
    failedCount: integer('failed_count').notNull().default(0),
  },
  (t) => [index('email_messages_study_sent_idx').on(t.studyId, t.sentAt)],
);

/** One address of a mailing; its delivery status is the outbound message's status. */
export const emailRecipients = pgTable(
  'email_recipients',
  {
    messageId: uuid('message_id')
      .notNull()
      .references(() => emailMessages.id, { onDelete: 'cascade' }),
    address: text('address').notNull(),
    outboundMessageId: uuid('outbound_message_id').references(() => outboundMessages.id, {
      onDelete: 'set null',
    }),
  },
  (t) => [
    primaryKey({ columns: [t.messageId, t.address] }),
    index('email_recipients_outbound_idx').on(t.outboundMessageId),
  ],
);
