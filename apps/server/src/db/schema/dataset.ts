import { DATA_TYPES, DATASET_PARTITION_STATES, type DatasetTrigger } from '@research/contracts';
import {
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { participants } from './participants.js';
import { studies } from './studies.js';

/** Minutes asleep by stage; `asleep` is sleep without stages (classic logs). */
export interface SleepStages {
  deep: number;
  light: number;
  rem: number;
  awake: number;
  asleep: number;
}

/** A file of a partition as stored in the study bucket. */
export interface DatasetFile {
  key: string;
  bytes: number;
  sha256: string;
}

/**
 * The study dataset's ledger: one row per partition (participant × data type × civil day in the
 * participant's time zone), saying what is stored for it under `dataset/` in the study bucket and
 * why. Its files are listed here, so a reader follows the row, never a listing of the bucket.
 */
export const datasetPartitions = pgTable(
  'dataset_partitions',
  {
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    participantId: text('participant_id')
      .notNull()
      .references(() => participants.id, { onDelete: 'cascade' }),
    dataType: text('data_type', { enum: DATA_TYPES }).notNull(),
    /** The civil day, in `timeZone`. */
    date: date('date', { mode: 'string' }).notNull(),
    /** The participant's IANA time zone the day was cut in. */
    timeZone: text('time_zone').notNull(),
    /** What the files hold, numbered per type (modules/dataset/formats.ts); 1 before formats. */
    format: integer('format').notNull().default(1),
    state: text('state', { enum: DATASET_PARTITION_STATES }).notNull(),
    /** Why the partition is failed, scope_missing, revoked or deleted_at_source. */
    reason: text('reason'),
    /**
     * The files' version: a digest of their contents, so the same pages give the same name and a
     * rewrite with other contents writes beside the old files, never over them. Null: no files.
     */
    version: text('version'),
    rowCount: integer('row_count').notNull().default(0),
    /** The Parquet file of the tidy rows. */
    rowsFile: jsonb('rows_file').$type<DatasetFile>(),
    /** The provider's pages as received, in fetch order. */
    rawFiles: jsonb('raw_files').$type<DatasetFile[]>().notNull().default([]),
    /** The last fetch of the partition (a repeat of the same pages moves only this). */
    fetchedAt: timestamp('fetched_at', { withTimezone: true }),
    trigger: jsonb('trigger').$type<DatasetTrigger>(),
    // The day's figures the dashboards show without opening files; each type fills its own.
    steps: integer('steps'),
    /** Minutes with at least one heart-rate sample (or a one-minute heart-rate value). */
    wearMinutes: integer('wear_minutes'),
    restingHeartRateBpm: real('resting_heart_rate_bpm'),
    sleepMinutes: integer('sleep_minutes'),
    /** sleep_log: the day's minutes by stage (rows written before the column: null). */
    sleepStages: jsonb('sleep_stages').$type<SleepStages>(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // A participant's partitions are the key's prefix; a study's day across participants (the
    // dashboards' figures) is the index.
    primaryKey({ columns: [t.studyId, t.participantId, t.dataType, t.date] }),
    index('dataset_partitions_study_date_idx').on(t.studyId, t.date),
  ],
);

/**
 * The ledger's day cells, a read model the heat map reads: one row per participant and calendar
 * month, one character per day of the month saying the day's state (docs/product.md#adherence:
 * read from the heart-rate partition, else the most telling of the day's others; `-` no row),
 * with the day's wear minutes and steps and the reasons of non-complete days. Kept in step with
 * the ledger in the ledger write's own transaction (`day-months.ts`). 540,000 ledger rows of a
 * study's 500 participants × 90 days are 2,000 rows here: measured, reading the ledger itself
 * for the heat map cost 10–50 × more (README, Adherence).
 */
export const datasetDayMonths = pgTable(
  'dataset_day_months',
  {
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    participantId: text('participant_id')
      .notNull()
      .references(() => participants.id, { onDelete: 'cascade' }),
    /** The month's first day. */
    month: date('month', { mode: 'string' }).notNull(),
    /** The time zone of the month's latest day with a row. */
    timeZone: text('time_zone').notNull(),
    /** 31 characters, one per day of the month (day 1 first); see DAY_STATE_CODES. */
    states: text('states').notNull(),
    /** 31 entries each, null where unknown. */
    wearMinutes: integer('wear_minutes').array().$type<(number | null)[]>().notNull(),
    steps: integer('steps').array().$type<(number | null)[]>().notNull(),
    /** The ledger's reason of a non-complete day, by day of the month ("1"–"31"). */
    reasons: jsonb('reasons').$type<Record<string, string>>().notNull().default({}),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.studyId, t.participantId, t.month] })],
);
