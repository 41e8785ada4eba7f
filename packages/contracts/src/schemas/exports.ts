/**
 * Analysis-ready exports: a selection of the study dataset (participants × types × participants'
 * local days) written as Parquet and/or CSV under `exports/{id}/` in the study bucket, with a
 * data dictionary, a manifest and a README, and offered as one ZIP.
 */

import { z } from 'zod';
import {
  DATA_TYPES,
  EXPORT_FORMATS,
  EXPORT_STATUSES,
  EXTRACTION_MAX_PARTICIPANTS,
} from '../constants.js';
import { EXPORT_SERVER_MESSAGES } from '../texts/exports.js';
import { dataTypeSchema, participantIdSchema, textSchema } from './common.js';
import { successSchema } from './errors.js';
import { extractionDateRangeSchema } from './extraction.js';

export const exportFormatSchema = z.enum(EXPORT_FORMATS);

/** `POST /api/studies/:id/exports`. */
export const startExportBodySchema = z.object({
  /** Shown in the list; the server names it after its range when left out. */
  name: textSchema.trim().max(200).optional(),
  participantIds: z
    .array(participantIdSchema)
    .min(1, EXPORT_SERVER_MESSAGES.selectParticipant)
    .max(EXTRACTION_MAX_PARTICIPANTS),
  dataTypes: z
    .array(dataTypeSchema)
    .min(1, EXPORT_SERVER_MESSAGES.selectDataType)
    .max(DATA_TYPES.length),
  /** Participants' own local (civil) days, both ends included. */
  dateRange: extractionDateRangeSchema,
  formats: z
    .array(exportFormatSchema)
    .min(1, EXPORT_SERVER_MESSAGES.selectFormat)
    .max(EXPORT_FORMATS.length),
  /** Intraday minute tables as a full grid of the day's minutes, zeros filled, with a worn flag. */
  minuteGrid: z.boolean().default(true),
  /** The raw pages as received from Google, beside the tidy files. */
  includeRaw: z.boolean().default(false),
});
export type StartExportBody = z.input<typeof startExportBodySchema>;

export const exportIdParamsSchema = z.object({ exportId: z.uuid() });

export const exportFileSchema = z.object({
  /** Path inside the export, e.g. `parquet/heartrate_intraday_1min.parquet`. */
  path: z.string(),
  /** Object key in the study bucket, for the storage download call. */
  key: z.string(),
  bytes: z.number().int().nonnegative(),
  sha256: z.string(),
  /** Data rows (files of tables); null for the dictionary, manifest, README and raw pages. */
  rows: z.number().int().nonnegative().nullable(),
});
export type ExportFile = z.infer<typeof exportFileSchema>;

export const exportSummarySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  status: z.enum(EXPORT_STATUSES),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  /** Who started it: a member's name, or the name of the access token that did. */
  createdBy: z.string(),
  participantCount: z.number().int().nonnegative(),
  dataTypes: z.array(dataTypeSchema),
  dateRange: z.object({ startDate: z.string(), endDate: z.string() }),
  formats: z.array(exportFormatSchema),
  minuteGrid: z.boolean(),
  includeRaw: z.boolean(),
  /** Partitions (participant × type × day) read so far, of all the export needs. */
  progress: z.object({
    done: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
    percent: z.number().min(0).max(100),
  }),
  /** Partitions with no data the export could use (failed, revoked, scope missing, removed). */
  missingPartitions: z.number().int().nonnegative(),
  bucket: z.string(),
  /** `exports/{id}/` in the study bucket. */
  prefix: z.string(),
  bytes: z.number().int().nonnegative(),
  error: z.string().nullable(),
});
export type ExportSummary = z.infer<typeof exportSummarySchema>;

export const startExportResponseSchema = successSchema({ export: exportSummarySchema });
export const listExportsResponseSchema = successSchema({ exports: z.array(exportSummarySchema) });
export const getExportResponseSchema = successSchema({
  export: exportSummarySchema,
  /** Empty until the export is completed. */
  files: z.array(exportFileSchema),
});
