import { type DataType, EXPORT_STATUSES, type ExportFormat } from '@research/contracts';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.js';
import { studies } from './studies.js';

/**
 * An analysis-ready export of the study dataset: its parameters, its progress and, once completed,
 * its files under `exports/{id}/` in the study bucket (export_files).
 */
export const exports = pgTable(
  'exports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    /** Who started it as the list shows it (a member's name, or an access token's). */
    createdByLabel: text('created_by_label').notNull(),
    name: text('name').notNull(),
    participantIds: jsonb('participant_ids').$type<string[]>().notNull(),
    dataTypes: jsonb('data_types').$type<DataType[]>().notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    formats: jsonb('formats').$type<ExportFormat[]>().notNull(),
    minuteGrid: boolean('minute_grid').notNull(),
    includeRaw: boolean('include_raw').notNull(),
    status: text('status', { enum: EXPORT_STATUSES }).notNull().default('queued'),
    progressDone: integer('progress_done').notNull().default(0),
    progressTotal: integer('progress_total').notNull().default(0),
    missingPartitions: integer('missing_partitions').notNull().default(0),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('exports_study_created_idx').on(t.studyId, t.createdAt)],
);

/** A file of a completed export, as stored in the study bucket. */
export const exportFiles = pgTable(
  'export_files',
  {
    exportId: uuid('export_id')
      .notNull()
      .references(() => exports.id, { onDelete: 'cascade' }),
    /** Path inside the export (and the ZIP), e.g. `parquet/activity_summary.parquet`. */
    path: text('path').notNull(),
    key: text('key').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    /** Data rows of a table's file; null for the other files. */
    rows: integer('rows'),
  },
  (t) => [primaryKey({ columns: [t.exportId, t.path] })],
);

export type ExportRow = typeof exports.$inferSelect;
export type ExportFileRow = typeof exportFiles.$inferSelect;
