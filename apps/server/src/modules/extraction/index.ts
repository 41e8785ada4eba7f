export { createExtractionEngine, type ExtractionEngine } from './engine.js';
export { extractionRoutes as routes } from './extraction.routes.js';
// The tidy rows, for the study's dataset (modules/dataset), which keeps them as Parquet.
export { type HeartRateColumns, heartRatePageColumns } from './heart-rate-page.js';
export { type CallPages, type Cell, COLUMNS, tidyRows } from './tidy.js';
