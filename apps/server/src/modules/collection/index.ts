export type { CollectResult } from './collect.js';
export {
  COLLECTED_TYPES,
  type CollectDaysInput,
  type Collection,
  createCollection,
} from './collection.js';
export { sweepDays } from './days.js';
// How a type's days are fetched (a day at a time, or ranges for a backfill), for the bench.
export { type FetchUnit, fetchUnits, unitCalls } from './units.js';
