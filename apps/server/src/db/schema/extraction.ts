import {
  EXTRACTION_JOB_STATUSES,
  EXTRACTION_RUN_STATUSES,
  EXTRACTION_TASK_STATUSES,
} from '@research/contracts';
import { sql } from 'drizzle-orm';
import {
  bigint,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.js';
import { participants } from './participants.js';
import { studies } from './studies.js';

export interface ExtractionRunParams {
  dataTypes: string[];
  dateRange: { startDate: string; endDate: string; mode: 'single' | 'range' };
  participantIds: string[];
}

/** One start of an extraction: one request, one run, under `extractions/{id}/`. */
export const extractionRuns = pgTable(
  'extraction_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    params: jsonb('params').$type<ExtractionRunParams>().notNull(),
    status: text('status', { enum: EXTRACTION_RUN_STATUSES }).notNull().default('running'),
    callsPlanned: integer('calls_planned').notNull().default(0),
    /** Object keys of the finished run's CSVs, manifest and dictionary. */
    files: text('files').array().notNull().default(sql`'{}'::text[]`),
    /** Set while one worker writes the run's files: a claim, so they are written once. */
    finalizingUntil: timestamp('finalizing_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('extraction_runs_study_created_idx').on(t.studyId, t.createdAt)],
);

/** One participant of a run: pending → running → completed | failed. */
export const extractionJobs = pgTable(
  'extraction_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    runId: uuid('run_id')
      .notNull()
      .references(() => extractionRuns.id, { onDelete: 'cascade' }),
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    participantId: text('participant_id')
      .notNull()
      .references(() => participants.id, { onDelete: 'cascade' }),
    status: text('status', { enum: EXTRACTION_JOB_STATUSES }).notNull().default('pending'),
    callsPlanned: integer('calls_planned').notNull().default(0),
    callsDone: integer('calls_done').notNull().default(0),
    error: text('error'),
    /**
     * The lease of the copy working on the job: taking it increments the generation, and every
     * write of that copy is conditioned on it, so a copy whose lease passed on writes nothing.
     */
    leaseGeneration: integer('lease_generation').notNull().default(0),
    /** Renewed while the holder works; null when no copy holds it. Past: the holder stopped. */
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('extraction_jobs_run_participant_key').on(t.runId, t.participantId),
    index('extraction_jobs_study_created_idx').on(t.studyId, t.createdAt),
  ],
);

/** Participant × data type × date window: the unit of progress, resumed after a crash. */
export const extractionTasks = pgTable(
  'extraction_tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    jobId: uuid('job_id')
      .notNull()
      .references(() => extractionJobs.id, { onDelete: 'cascade' }),
    runId: uuid('run_id')
      .notNull()
      .references(() => extractionRuns.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    dataType: text('data_type').notNull(),
    windowStart: date('window_start', { mode: 'string' }).notNull(),
    windowEnd: date('window_end', { mode: 'string' }).notNull(),
    status: text('status', { enum: EXTRACTION_TASK_STATUSES }).notNull().default('pending'),
    callsPlanned: integer('calls_planned').notNull().default(0),
    callsDone: integer('calls_done').notNull().default(0),
    rows: integer('rows').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    /** Raw JSON objects written, in call order. */
    outputKeys: text('output_keys').array().notNull().default(sql`'{}'::text[]`),
    /** The exact requests made (method, path, body, fetched-at), for the manifest. */
    requests: jsonb('requests').$type<unknown[]>().notNull().default(sql`'[]'::jsonb`),
    skipReason: text('skip_reason'),
    error: text('error'),
    /** The tidy rows of the completed task, written by the copy that held the job's lease. */
    partKey: text('part_key'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('extraction_tasks_job_seq_key').on(t.jobId, t.seq),
    index('extraction_tasks_run_idx').on(t.runId),
  ],
);

/**
 * Calls counted per quota key (`user:{healthUserId}`, `project`) and one-minute window, shared by
 * every worker process through the database: an atomic upsert takes a slot or finds none left.
 */
export const extractionQuotaWindows = pgTable(
  'extraction_quota_windows',
  {
    key: text('key').notNull(),
    windowStart: bigint('window_start', { mode: 'number' }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);
