import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { studies } from './studies.js';

/**
 * Who is proving what in a study: one row per (study, e-mail), created at the first enrolment or
 * pending check. `participant_id` is the participant's id ('P' + 16 hex): the enrolled
 * participant's, or the one reserved for a rostered person who enrols later, so the id a
 * participant sees never changes. The verification times live here (not on the participant), so
 * a person verified while still pending keeps them when enrolled.
 */
export const participantVerifications = pgTable(
  'participant_verifications',
  {
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    /** Lower-cased. */
    email: text('email').notNull(),
    participantId: text('participant_id')
      .notNull()
      .unique('participant_verifications_participant_key'),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    phoneVerifiedAt: timestamp('phone_verified_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.studyId, t.email] })],
);

export const VERIFICATION_CHANNELS = ['email', 'phone'] as const;

/**
 * One code sent to a participant (enrolled or still pending: `participant_id` names the
 * verification subject). Only an HMAC of the code is stored; `destination_hash` (SHA-256 of the
 * address or number) throttles sending per destination without storing it.
 */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    participantId: text('participant_id')
      .notNull()
      .references(() => participantVerifications.participantId, { onDelete: 'cascade' }),
    channel: text('channel', { enum: VERIFICATION_CHANNELS }).notNull(),
    destinationHash: text('destination_hash').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    resendAfter: timestamp('resend_after', { withTimezone: true }).notNull(),
    /** Set when the code was accepted, replaced by a newer one, or ended by wrong attempts. */
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    index('verification_codes_subject_idx').on(t.participantId, t.channel, t.createdAt),
    index('verification_codes_destination_idx').on(t.destinationHash, t.createdAt),
  ],
);

/**
 * A participant's short-lived session (participants have no account). Only the SHA-256 of the
 * opaque token is stored. `verified_at` is null until a code was verified (secure-auth sessions
 * start unverified); only verified sessions may change anything.
 */
export const participantSessions = pgTable(
  'participant_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    participantId: text('participant_id')
      .notNull()
      .references(() => participantVerifications.participantId, { onDelete: 'cascade' }),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('participant_sessions_participant_idx').on(t.participantId),
    index('participant_sessions_expires_idx').on(t.expiresAt),
  ],
);
