import { sql } from 'drizzle-orm';
import {
  bigint,
  date,
  index,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.js';

/**
 * A researcher's request for access. A user has at most one live (not archived) application;
 * resetting a rejected one archives it so the person can apply again.
 */
export const researcherApplications = pgTable(
  'researcher_applications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    dateOfBirth: date('date_of_birth', { mode: 'string' }).notNull(),
    phoneNumber: text('phone_number').notNull(),
    institution: text('institution').notNull(),
    position: text('position').notNull(),
    department: text('department'),
    researchArea: text('research_area'),
    description: text('description'),
    status: text('status', { enum: ['pending', 'approved', 'rejected'] })
      .notNull()
      .default('pending'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewedBy: uuid('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewNotes: text('review_notes'),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
  },
  (t) => [
    // The database itself keeps "one live application per user", even under concurrent submits.
    uniqueIndex('researcher_applications_live_key').on(t.userId).where(sql`archived_at is null`),
    index('researcher_applications_status_idx').on(t.status, t.archivedAt, t.submittedAt),
  ],
);

/** Files attached to an application; the bytes live in the object store. */
export const applicationDocuments = pgTable(
  'application_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => researcherApplications.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    storageKey: text('storage_key').notNull(),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('application_documents_application_idx').on(t.applicationId)],
);
