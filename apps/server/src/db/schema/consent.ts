import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.js';
import { studies } from './studies.js';

/**
 * A study's consent form: one draft (number null) and the published versions, numbered from 1.
 * A published version is never changed, so the signatures that name it stay readable.
 */
export const consentVersions = pgTable(
  'consent_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    /** Null while a draft. */
    number: integer('number'),
    kind: text('kind', { enum: ['markdown', 'pdf'] }).notNull(),
    markdown: text('markdown'),
    /** An uploaded PDF form: its key in the study bucket and its file name. */
    pdfObjectKey: text('pdf_object_key'),
    pdfName: text('pdf_name'),
    statements: jsonb('statements').$type<string[]>().notNull(),
    /** SHA-256 (hex) of the Markdown as UTF-8 or of the PDF's bytes. */
    sha256: text('sha256').notNull(),
    /** Participants who signed an earlier version must sign this one. */
    reconsentRequired: boolean('reconsent_required').notNull().default(false),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('consent_versions_study_number_key').on(t.studyId, t.number),
    uniqueIndex('consent_versions_study_draft_key').on(t.studyId).where(sql`number is null`),
  ],
);

/** One participant's signature of one version, with the signed-record PDF in the study bucket. */
export const consentSignatures = pgTable(
  'consent_signatures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    /** The participant's id ('P' + 16 hex); kept after the participant is deleted. */
    participantId: text('participant_id').notNull(),
    versionId: uuid('version_id')
      .notNull()
      .references(() => consentVersions.id),
    versionNumber: integer('version_number').notNull(),
    /** The version's SHA-256 as signed. */
    sha256: text('sha256').notNull(),
    fullName: text('full_name').notNull(),
    statements: jsonb('statements').$type<string[]>().notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip'),
    recordObjectKey: text('record_object_key').notNull(),
    /** SHA-256 of the signed-record PDF. */
    recordSha256: text('record_sha256').notNull(),
  },
  (t) => [
    index('consent_signatures_participant_idx').on(t.participantId, t.versionNumber),
    index('consent_signatures_study_idx').on(t.studyId, t.signedAt),
  ],
);

/** A participant's withdrawal: nothing is collected after it. One per participant. */
export const consentWithdrawals = pgTable(
  'consent_withdrawals',
  {
    participantId: text('participant_id').primaryKey(),
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }).notNull().defaultNow(),
    /** 'participant' from their link page, or 'researcher' on their behalf. */
    recordedBy: text('recorded_by', { enum: ['participant', 'researcher'] }).notNull(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** What the study's setting did to the data collected so far. */
    dataAction: text('data_action', { enum: ['keep', 'delete'] }).notNull(),
    /**
     * When the grant was revoked and the setting's data action done (a job after the withdrawal
     * commits); null until then, so a failure midway is finished by the job's next try.
     */
    carriedOutAt: timestamp('carried_out_at', { withTimezone: true }),
  },
  (t) => [index('consent_withdrawals_study_idx').on(t.studyId)],
);
