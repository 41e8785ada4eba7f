import { PENDING_STATUSES } from '@research/contracts';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.js';
import { studies } from './studies.js';

// Participants and their pending row point at each other (references are lazy): one file holds
// both, so the schema files import one another without a cycle.

/** Study participants: the people enrolled in a study (the dashboard counts its live rows). */
export const participants = pgTable(
  'participants',
  {
    /** 'P' + 16 hex characters. */
    id: text('id').primaryKey(),
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    phoneNumber: text('phone_number'),
    status: text('status').notNull().default('enrolled'),
    enrolledAt: timestamp('enrolled_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** Free text from the participant's profile form. */
    additionalInfo: text('additional_info'),
    /** Set when the profile form is completed (the participant's informationCompleted). */
    informationCompletedAt: timestamp('information_completed_at', { withTimezone: true }),
    /** First wearable authorization. */
    authorizedAt: timestamp('authorized_at', { withTimezone: true }),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    /** The pending row this participant enrolled from, if any. */
    pendingParticipantId: uuid('pending_participant_id').references(
      (): AnyPgColumn => pendingParticipants.id,
      { onDelete: 'set null' },
    ),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('participants_study_email_key')
      .on(t.studyId, t.email)
      .where(sql`deleted_at is null`),
    index('participants_study_idx').on(t.studyId, t.deletedAt),
    // The participants tab's first page in either direction, and its name sort (0004_seed_001.sql).
    index('participants_study_enrolled_idx')
      .on(t.studyId, t.enrolledAt, t.id)
      .where(sql`deleted_at is null`),
    index('participants_study_name_idx')
      .on(t.studyId, sql`lower(${t.lastName})`, sql`lower(${t.firstName})`, t.id)
      .where(sql`deleted_at is null`),
  ],
);

/**
 * People named for a study before they enrol: added by roster or
 * invited by e-mail. One row per study and address (compared lower-cased). Removing one deletes
 * the row: it holds nothing but contact details, so nothing is kept longer than needed.
 */
export const pendingParticipants = pgTable(
  'pending_participants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    /** Stored lower-cased and trimmed. */
    email: text('email').notNull(),
    phoneNumber: text('phone_number'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    /** 'pre-enrolled' (roster) or 'invited' (mailed); the enrolment issue may add more. */
    status: text('status', { enum: PENDING_STATUSES }).notNull().default('pre-enrolled'),
    /** Set once the person has enrolled. */
    participantId: text('participant_id').references((): AnyPgColumn => participants.id, {
      onDelete: 'set null',
    }),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    invitedAt: timestamp('invited_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('pending_participants_study_email_key').on(t.studyId, sql`lower(${t.email})`),
    index('pending_participants_study_created_idx').on(t.studyId, t.createdAt),
    // The pending tab's page and count: only rows not yet enrolled (0004_seed_001.sql).
    index('pending_participants_study_waiting_idx')
      .on(t.studyId, t.createdAt, t.id)
      .where(sql`participant_id is null`),
  ],
);

/** Files a participant attached to the profile form, kept in the study bucket. */
export const participantDocuments = pgTable(
  'participant_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    participantId: text('participant_id')
      .notNull()
      .references(() => participants.id, { onDelete: 'cascade' }),
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    mimeType: text('mime_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    /** Key inside the study bucket. */
    objectKey: text('object_key').notNull(),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('participant_documents_participant_idx').on(t.participantId)],
);
