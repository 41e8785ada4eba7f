/**
 * Adherence: who is wearing and syncing, day by day, read from the study dataset's ledger; and a
 * participant's charts. See docs/product.md#adherence.
 */

import { z } from 'zod';
import { isoDateSchema } from './common.js';
import { successSchema } from './errors.js';

/** The longest range the heat map and the charts answer for at once (a study's whole course). */
export const ADHERENCE_MAX_DAYS = 400;
/** The heat map's range when none is asked for. */
export const ADHERENCE_DEFAULT_DAYS = 28;
/** At most this many points of a day's heart rate reach the browser (the server downsamples). */
export const HEART_RATE_CHART_MAX_POINTS = 2000;

/**
 * One participant-day of the heat map. `not_collected`: no ledger row yet (collection has not
 * reached the day); `not_enrolled`: before the participant's enrolment day. The rest are the
 * ledger's states (docs/product.md says which partition a day's state is read from).
 */
export const ADHERENCE_CELL_STATES = [
  'complete',
  'partial',
  'empty',
  'failed',
  'scope_missing',
  'revoked',
  'deleted_at_source',
  'not_collected',
  'not_enrolled',
] as const;
export type AdherenceCellState = (typeof ADHERENCE_CELL_STATES)[number];

export const adherenceQuerySchema = z.object({
  /** First and last civil day shown (inclusive); default the last 28 days to today (UTC). */
  from: isoDateSchema.optional(),
  to: isoDateSchema.optional(),
});
export type AdherenceQuery = z.infer<typeof adherenceQuerySchema>;

/** How a participant's wearable connection stands. */
export const ADHERENCE_CONNECTION_STATES = [
  'connected',
  'needs_reauthorization',
  'not_connected',
] as const;

/**
 * A heat-map row. Per-day values are arrays aligned with the answer's `days` (45,000 cells for
 * 500 × 90 must stay small on the wire); `reasons` holds the ledger's reason of a non-complete
 * day, by index into `days`, only where there is one.
 */
const adherenceRowSchema = z.object({
  /** The participant's internal id (what the participant routes take). */
  id: z.string(),
  /** The study's id for the participant (P001, …). */
  participantId: z.string(),
  name: z.string().nullable(),
  enrolledAt: z.string(),
  connection: z.enum(ADHERENCE_CONNECTION_STATES),
  lastDeviceSyncAt: z.string().nullable(),
  /** As Google's paired devices last reported it; null where it does not. */
  batteryLevel: z.number().int().nullable(),
  /** Whole days since the device last synced; null when it never did. */
  daysWithoutSync: z.number().int().nullable(),
  atRisk: z.boolean(),
  /** Days in the range meeting the study's wear rule, and the days in range since enrolment. */
  validDays: z.number().int(),
  eligibleDays: z.number().int(),
  states: z.array(z.enum(ADHERENCE_CELL_STATES)),
  /** Minutes with heart-rate data, per day; null where unknown. */
  wearMinutes: z.array(z.number().int().nullable()),
  steps: z.array(z.number().int().nullable()),
  reasons: z.record(z.string(), z.string()),
});
export type AdherenceRow = z.infer<typeof adherenceRowSchema>;

export const adherenceResponseSchema = successSchema({
  from: isoDateSchema,
  to: isoDateSchema,
  days: z.array(isoDateSchema),
  rule: z.object({ validDayMinHours: z.number().int(), riskNoSyncDays: z.number().int() }),
  summary: z.object({
    enrolled: z.number().int(),
    connected: z.number().int(),
    atRisk: z.number().int(),
    /** Valid days ÷ eligible days over everyone in the range, 0–100; null with no eligible day. */
    validDayPercent: z.number().nullable(),
  }),
  participants: z.array(adherenceRowSchema),
});
export type AdherenceResponse = z.infer<typeof adherenceResponseSchema>;

export const participantChartsQuerySchema = z.object({
  from: isoDateSchema.optional(),
  to: isoDateSchema.optional(),
});

/** Minutes asleep by stage; null when the night's stages are not known. */
const sleepStagesSchema = z.object({
  deep: z.number().int(),
  light: z.number().int(),
  rem: z.number().int(),
  awake: z.number().int(),
  /** Asleep without stages (classic sleep logs). */
  asleep: z.number().int(),
});

export const participantChartsResponseSchema = successSchema({
  from: isoDateSchema,
  to: isoDateSchema,
  timeZone: z.string(),
  days: z.array(
    z.object({
      date: isoDateSchema,
      state: z.enum(ADHERENCE_CELL_STATES),
      steps: z.number().int().nullable(),
      restingHeartRateBpm: z.number().nullable(),
      wearMinutes: z.number().int().nullable(),
      sleepMinutes: z.number().int().nullable(),
      sleepStages: sleepStagesSchema.nullable(),
    }),
  ),
});
export type ParticipantChartsResponse = z.infer<typeof participantChartsResponseSchema>;

export const heartRateDayQuerySchema = z.object({ date: isoDateSchema });

export const heartRateDayResponseSchema = successSchema({
  date: isoDateSchema,
  /** The participant's time zone the day is cut in (times are shown in it). */
  timeZone: z.string(),
  /** Samples stored for the day, before downsampling. */
  sampleCount: z.number().int(),
  /** 'lttb' when the samples were more than the chart's maximum, else 'none'. */
  downsampling: z.enum(['none', 'lttb']),
  /** Epoch milliseconds (UTC) and beats per minute, oldest first, at most 2,000. */
  times: z.array(z.number()),
  bpm: z.array(z.number()),
});
export type HeartRateDayResponse = z.infer<typeof heartRateDayResponseSchema>;

/** A member's own choice: the daily adherence digest by e-mail (the owner gets it by default). */
export const digestPreferenceSchema = z.object({ enabled: z.boolean() });
export const digestPreferenceResponseSchema = successSchema({ enabled: z.boolean() });

/** Public: the stop link of a participant's reminders. */
export const stopRemindersSchema = z.object({ token: z.string().min(1).max(200) });
