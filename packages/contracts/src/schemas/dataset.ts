import { z } from 'zod';
import { dataTypeSchema, isoDateSchema, participantIdSchema } from './common.js';

/**
 * The study's dataset: what continuous collection has gathered, one partition per participant,
 * data type and civil day. These are the states a partition's ledger row can be in.
 */
export const DATASET_PARTITION_STATES = [
  /** The day is over, the device synced past it, and its data is stored. */
  'complete',
  /** Some data is stored, but the day is not over or the device has not synced past it. */
  'partial',
  /** The day is over and there is no data (the device was not worn). */
  'empty',
  /** The last fetch failed; `reason` says why. */
  'failed',
  /** The participant did not grant the scope the type needs. */
  'scope_missing',
  /** The participant revoked access; no more data will come. */
  'revoked',
  /** The participant deleted the data at Google. */
  'deleted_at_source',
] as const;
export type DatasetPartitionState = (typeof DATASET_PARTITION_STATES)[number];

/** The states set from outside a fetch (markPartitions), each with its reason. */
export const DATASET_MARKED_STATES = [
  'failed',
  'scope_missing',
  'revoked',
  'deleted_at_source',
] as const satisfies readonly DatasetPartitionState[];
export type DatasetMarkedState = (typeof DATASET_MARKED_STATES)[number];

/** What made the platform fetch a partition: a provider notification, a periodic sweep, a run. */
export const datasetTriggerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('notification'), id: z.string().min(1).max(200) }),
  z.object({ kind: z.literal('sweep'), id: z.string().min(1).max(200).optional() }),
  z.object({ kind: z.literal('run'), id: z.uuid() }),
]);
export type DatasetTrigger = z.infer<typeof datasetTriggerSchema>;

/** One partition: a participant's data of one type on one civil day, in their time zone. */
export const datasetPartitionKeySchema = z.object({
  studyId: z.uuid(),
  participantId: participantIdSchema,
  type: dataTypeSchema,
  date: isoDateSchema,
});
export type DatasetPartitionKey = z.infer<typeof datasetPartitionKeySchema>;

/**
 * A participant's latest day with collected data, as the Participants tab shows it: the day's
 * figures from the ledger (null where no type gave one). `partial`: the day is not over, or the
 * device has not synced past it, so the figures may still grow.
 */
export const collectedDaySchema = z.object({
  date: isoDateSchema,
  partial: z.boolean(),
  steps: z.number().int().nullable(),
  wearMinutes: z.number().int().nullable(),
  restingHeartRateBpm: z.number().nullable(),
  sleepMinutes: z.number().int().nullable(),
});
export type CollectedDay = z.infer<typeof collectedDaySchema>;
