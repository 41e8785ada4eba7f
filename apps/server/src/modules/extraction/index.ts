// What a run reads of the study's dataset (app.ts makes it of modules/dataset's functions).
export type { DatasetReader, StoredDay, StoredDayPage } from './dataset-days.js';
// A ranged call's answer cut into the dataset's one-day pages (continuous collection's backfill).
export { cutToDays, DayCutError, dayOfItem } from './day-cut.js';
export { createExtractionEngine, type ExtractionEngine } from './engine.js';
export { extractionRoutes as routes } from './extraction.routes.js';
// The tidy rows, for the study's dataset (modules/dataset), which keeps them as Parquet.
export { type HeartRateColumns, heartRatePageColumns } from './heart-rate-page.js';
// A zone's UTC offset at an instant: the exports' local times use the same rule as the fetches.
export { zoneOffsetSeconds } from './local-day.js';
// The Google Health data types the research types read (for the webhook subscriber's configs).
// The planner, the provider call and the shared quota, for continuous collection
// (modules/collection), which fetches a participant's days the way a run does.
export {
  addDays,
  callsFor,
  googleDataTypes,
  missingScopes,
  type PlannedCall,
  readsZoneDays,
  researchTypesOf,
  taskWindows,
} from './plan.js';
export { createProviderCall, type ProviderCall } from './provider-call.js';
export {
  type AcquireOptions,
  createDbQuota,
  DailyBudgetSpent,
  type DbQuota,
} from './quota.js';
export { type CallPages, type Cell, COLUMNS, tidyRows } from './tidy.js';
