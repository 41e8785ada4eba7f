export { createDataset, type Dataset, type WritePartitionInput } from './dataset.js';
export { civilDateIn } from './day-state.js';
export { type FailedFetch, failedFetchesBetween } from './failed-fetches.js';
export { latestCollectedDays } from './latest-days.js';
export type { LedgerRow, PartitionSelector } from './ledger.js';
export type { RawPage } from './partition-rows.js';
export { rawPagesOf, type StoredRawPage } from './raw-pages.js';
export { createRunReader } from './run-reader.js';
