export {
  createDataset,
  type Dataset,
  type PartitionWrite,
  type WritePartitionInput,
} from './dataset.js';
export { type DayCell, type DayRow, dayCell } from './day-cells.js';
export type { DayStrip } from './day-months.js';
export { civilDateIn } from './day-state.js';
export { type FailedFetch, failedFetchesBetween } from './failed-fetches.js';
export { currentFormat, partitionFormat } from './formats.js';
export { latestCollectedDays } from './latest-days.js';
export type { LedgerRow, PartitionSelector } from './ledger.js';
export { TIME_ORDER_KEY } from './parquet.js';
export type { RawPage } from './partition-rows.js';
export { rawPagesOf, type StoredRawPage } from './raw-pages.js';
export { createRunReader } from './run-reader.js';
