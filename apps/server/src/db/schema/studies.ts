import {
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.js';

export interface StudySettingsColumn {
  allowSelfEnrollment: boolean;
  requireVerification: boolean;
  dataRetentionDays: number;
  /** Data a participant deletes in their Google account: removed from the dataset (true) or kept, marked. */
  removeDataDeletedAtSource: boolean;
  /** Adherence: hours of heart-rate data that make a valid day. */
  validDayMinHours: number;
  /** Adherence: days without a device sync that put a connected participant at risk. */
  riskNoSyncDays: number;
  /** Days without a sync before a participant is reminded; null: never. */
  reminderNoSyncDays: number | null;
  /** Participants sign the consent form before anything is collected (off for older studies). */
  consentRequired: boolean;
  /** A participant's withdrawal keeps or deletes the data collected so far. */
  withdrawalData: 'keep' | 'delete';
}

export const studies = pgTable(
  'studies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description'),
    duration: text('duration'),
    /** Unique for ever (deleted studies keep theirs), so an old invitation never opens another study. */
    studyCode: text('study_code').notNull(),
    status: text('status').notNull().default('active'),
    /** Encrypted: the owner can read it back and mail it to collaborators. */
    passwordEncrypted: text('password_encrypted'),
    settings: jsonb('settings').$type<StudySettingsColumn>().notNull(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Soft delete: hidden everywhere, data kept for the retention period. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('studies_study_code_key').on(t.studyCode),
    index('studies_owner_idx').on(t.ownerId, t.deletedAt, t.createdAt),
  ],
);

export const studyMembers = pgTable(
  'study_members',
  {
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['main', 'collab'] }).notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.studyId, t.userId] }),
    index('study_members_user_idx').on(t.userId, t.role),
  ],
);

/** Collaborators named by e-mail; those without an approved account join later with the code. */
export const collaboratorInvitations = pgTable(
  'collaborator_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('collaborator_invitations_study_email_key').on(t.studyId, t.email)],
);
