import {
  boolean,
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { participants } from './participants.js';
import { studies, studyMembers } from './studies.js';

/**
 * A member's own choice of the study's daily adherence digest. No row: the role's default (the
 * owner gets it, collaborators do not). Tied to the membership, so a member removed and added
 * again starts from the default.
 */
export const digestPreferences = pgTable(
  'digest_preferences',
  {
    studyId: uuid('study_id').notNull(),
    userId: uuid('user_id').notNull(),
    enabled: boolean('enabled').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.studyId, t.userId] }),
    foreignKey({
      columns: [t.studyId, t.userId],
      foreignColumns: [studyMembers.studyId, studyMembers.userId],
      name: 'digest_preferences_member_fk',
    }).onDelete('cascade'),
  ],
);

/**
 * One row per study and UTC day the digest was composed: the key makes the day's digest happen
 * once however often the job runs, and `composed_at` bounds the next one's "since the last
 * digest".
 */
export const adherenceDigests = pgTable(
  'adherence_digests',
  {
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    composedAt: timestamp('composed_at', { withTimezone: true }).notNull(),
    /** Members the mail went to; 0 when there was nothing to report or nobody opted in. */
    recipientCount: integer('recipient_count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.studyId, t.day] })],
);

/**
 * What the last digest already told about a participant, so the next one reports only what is
 * new: set when a digest lists them, cleared once they are no longer at risk (or no longer need
 * reauthorization), so a later episode is news again.
 */
export const digestParticipantState = pgTable('digest_participant_state', {
  participantId: text('participant_id')
    .primaryKey()
    .references(() => participants.id, { onDelete: 'cascade' }),
  studyId: uuid('study_id')
    .notNull()
    .references(() => studies.id, { onDelete: 'cascade' }),
  atRiskReportedAt: timestamp('at_risk_reported_at', { withTimezone: true }),
  reauthorizationReportedAt: timestamp('reauthorization_reported_at', { withTimezone: true }),
});

export const REMINDER_KINDS = ['sync', 'reauthorize'] as const;
export const REMINDER_CHANNELS = ['email', 'sms'] as const;

/**
 * Every reminder sent to a participant. `stop_token_hash` is the SHA-256 of the random token in
 * the reminder's stop link: the link names no one, and the table alone cannot rebuild it.
 */
export const reminderLog = pgTable(
  'reminder_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    participantId: text('participant_id')
      .notNull()
      .references(() => participants.id, { onDelete: 'cascade' }),
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: REMINDER_KINDS }).notNull(),
    channel: text('channel', { enum: REMINDER_CHANNELS }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    stopTokenHash: text('stop_token_hash').notNull().unique('reminder_log_stop_token_key'),
  },
  (t) => [index('reminder_log_participant_sent_idx').on(t.participantId, t.sentAt)],
);

/** A participant who followed a stop link: no reminder goes to them again. */
export const reminderStops = pgTable('reminder_stops', {
  participantId: text('participant_id')
    .primaryKey()
    .references(() => participants.id, { onDelete: 'cascade' }),
  studyId: uuid('study_id')
    .notNull()
    .references(() => studies.id, { onDelete: 'cascade' }),
  stoppedAt: timestamp('stopped_at', { withTimezone: true }).notNull(),
});
