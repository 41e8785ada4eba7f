export { createDataset, type Dataset, type WritePartitionInput } from './dataset.js';
export { type DayCell, type DayRow, dayCell } from './day-cells.js';
export type { DayStrip } from './day-months.js';
export { civilDateIn } from './day-state.js';
export { latestCollectedDays } from './latest-days.js';
export type { LedgerRow, PartitionSelector } from './ledger.js';
export type { RawPage } from './partition-rows.js';
export { rawPagesOf, type StoredRawPage } from './raw-pages.js';
export { createRunReader } from './run-reader.js';
