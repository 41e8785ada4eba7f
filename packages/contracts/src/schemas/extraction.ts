/**
 * Data extraction (see docs/product.md#extraction and docs/architecture.md#the-extraction-engine).
 * A start creates one run with one job per participant; jobs run on the server
 * (pg-boss) and write into the study bucket under `extractions/{runId}/`.
 */

import { z } from 'zod';
import {
  DATA_TYPES,
  type DataType,
  EXTRACTION_MAX_PARTICIPANTS,
  EXTRACTION_MAX_RANGE_DAYS,
} from '../constants.js';
import { EXTRACTION_SERVER_MESSAGES } from '../texts/extraction.js';
import { EXTRACTION_MESSAGES } from '../texts/messages.js';
import { dataTypeSchema, isoDateSchema, participantIdSchema, textSchema } from './common.js';
import { component } from './component.js';
import { successSchema } from './errors.js';
import { GOOGLE_HEALTH_SCOPE_PREFIX } from './wearables.js';

const AF = `${GOOGLE_HEALTH_SCOPE_PREFIX}activity_and_fitness.readonly`;
const HM = `${GOOGLE_HEALTH_SCOPE_PREFIX}health_metrics_and_measurements.readonly`;
const SLEEP = `${GOOGLE_HEALTH_SCOPE_PREFIX}sleep.readonly`;
const PROFILE = `${GOOGLE_HEALTH_SCOPE_PREFIX}profile.readonly`;

/**
 * The Google Health scopes each research type needs: a participant whose grant
 * lacks one of them cannot give that type, and the type is skipped for them (not failed).
 */
export const DATA_TYPE_SCOPES: Record<DataType, readonly string[]> = {
  profile: [PROFILE],
  activity_summary: [AF],
  activity_steps_timeseries: [AF],
  activity_calories_timeseries: [AF],
  activity_distance_timeseries: [AF],
  activity_steps_intraday: [AF],
  activity_calories_intraday: [AF],
  heartrate_summary: [HM, AF],
  heartrate_timeseries: [HM],
  heartrate_intraday_1sec: [HM],
  heartrate_intraday_1min: [HM],
  sleep_log: [SLEEP],
};

/** Types that cover the 7 days ending on the chosen date in single-date mode. */
export const TIME_SERIES_DATA_TYPES: readonly DataType[] = [
  'activity_steps_timeseries',
  'activity_calories_timeseries',
  'activity_distance_timeseries',
  'heartrate_timeseries',
];

export const EXTRACTION_RUN_STATUSES = ['running', 'completed', 'failed'] as const;
export const EXTRACTION_JOB_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
/**
 * A job as the API shows it: `stalled` is a running job whose worker stopped renewing its lease
 * (it died or lost the database); the job is handed to another worker, and `error` says so.
 */
export const EXTRACTION_JOB_VIEW_STATUSES = [...EXTRACTION_JOB_STATUSES, 'stalled'] as const;
export const EXTRACTION_STALLED_REASON =
  'A worker stopped while working on this run; it is being resumed.';
export const EXTRACTION_TASK_STATUSES = [
  'pending',
  'running',
  'completed',
  'failed',
  'skipped',
] as const;

export const extractionDateRangeSchema = z
  .object({
    startDate: isoDateSchema,
    endDate: isoDateSchema,
    mode: z.enum(['single', 'range']).optional(),
  })
  .refine((r) => r.endDate >= r.startDate, {
    message: EXTRACTION_SERVER_MESSAGES.endBeforeStart,
    path: ['endDate'],
  })
  .refine(
    (r) =>
      (Date.parse(r.endDate) - Date.parse(r.startDate)) / 86_400_000 < EXTRACTION_MAX_RANGE_DAYS,
    { message: EXTRACTION_SERVER_MESSAGES.rangeTooLong, path: ['endDate'] },
  );
export type ExtractionDateRange = z.infer<typeof extractionDateRangeSchema>;

const extractionNameSchema = textSchema
  .trim()
  .min(1, EXTRACTION_SERVER_MESSAGES.nameRequired)
  .max(200);

/**
 * `POST /api/data-extraction/extract-participant-data`. The extraction panel once sent one request
 * per participant (`participantId`); a request may also name several (`participantIds`), which then
 * share one run.
 */
export const extractParticipantDataBodySchema = z
  .object({
    participantId: participantIdSchema.optional(),
    participantIds: z.array(participantIdSchema).min(1).max(EXTRACTION_MAX_PARTICIPANTS).optional(),
    dataTypes: z.array(dataTypeSchema).min(1).max(DATA_TYPES.length),
    extractionName: extractionNameSchema,
    dateRange: extractionDateRangeSchema,
  })
  .refine((b) => b.participantId !== undefined || b.participantIds !== undefined, {
    message: EXTRACTION_MESSAGES.selectParticipant,
    path: ['participantIds'],
  });

/**
 * `POST /api/studies/:id/extraction-estimate`: what a selection would cost before it is started,
 * from the server's own plan of the calls and its per-minute quotas.
 */
export const extractionEstimateBodySchema = z.object({
  participantIds: z.array(participantIdSchema).min(1).max(EXTRACTION_MAX_PARTICIPANTS),
  dataTypes: z.array(dataTypeSchema).min(1).max(DATA_TYPES.length),
  dateRange: extractionDateRangeSchema,
});

export const extractionEstimateResponseSchema = successSchema({
  /** The calls the run would plan (the jobs' "0 / N calls"). */
  calls: z.number().int().nonnegative(),
  /** How long the run should take, from its start to its files, as a range in seconds. */
  seconds: z.object({ min: z.number().nonnegative(), max: z.number().nonnegative() }),
});
export type ExtractionEstimateResult = z.infer<typeof extractionEstimateResponseSchema>;

/** `POST /api/fitbit/extract-data`: one participant; the rest defaults (profile, today). */
export const fitbitExtractDataBodySchema = z.object({
  participantId: participantIdSchema,
  dataTypes: z.array(dataTypeSchema).min(1).max(DATA_TYPES.length).optional(),
  extractionName: extractionNameSchema.optional(),
  dateRange: extractionDateRangeSchema.optional(),
});

const extractionJobSchema = component(
  'ExtractionJob',
  z.object({
    id: z.uuid(),
    runId: z.uuid(),
    participantId: z.string(),
    participantName: z.string(),
    extractionName: z.string(),
    dataTypes: z.array(dataTypeSchema),
    dateRange: z.object({
      startDate: z.string(),
      endDate: z.string(),
      mode: z.enum(['single', 'range']),
    }),
    status: z.enum(EXTRACTION_JOB_VIEW_STATUSES),
    /** 0–100, from calls done / planned. */
    progress: z.number().min(0).max(100),
    callsPlanned: z.number().int().nonnegative(),
    callsDone: z.number().int().nonnegative(),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
    error: z.string().nullable(),
    /**
     * Data types skipped for this participant (a scope they did not share). A completed job with
     * any is shown as "completed with gaps": it finished, but its files lack these types.
     */
    skippedDataTypes: z.array(dataTypeSchema),
  }),
);
export type ExtractionJob = z.infer<typeof extractionJobSchema>;

export const extractStartResponseSchema = successSchema({
  runId: z.uuid(),
  bucket: z.string(),
  prefix: z.string(),
  callsPlanned: z.number().int().nonnegative(),
  jobs: z.array(extractionJobSchema),
});

export const extractionJobsResponseSchema = successSchema({
  jobs: z.array(extractionJobSchema),
});

const extractionTaskSchema = z.object({
  dataType: dataTypeSchema,
  windowStart: z.string(),
  windowEnd: z.string(),
  status: z.enum(EXTRACTION_TASK_STATUSES),
  callsPlanned: z.number().int().nonnegative(),
  callsDone: z.number().int().nonnegative(),
  rows: z.number().int().nonnegative(),
  attempts: z.number().int().nonnegative(),
  files: z.array(z.string()),
  skipReason: z.string().nullable(),
  error: z.string().nullable(),
});
export type ExtractionTask = z.infer<typeof extractionTaskSchema>;

export const extractionJobDetailResponseSchema = successSchema({
  job: extractionJobSchema,
  tasks: z.array(extractionTaskSchema),
  /** Files of the whole run (CSV per type, manifest, dictionary) once it is finished. */
  runFiles: z.array(z.string()),
});

export const extractionJobIdParamsSchema = z.object({ jobId: z.uuid() });
