export { createExtractionEngine, type ExtractionEngine } from './engine.js';
export { extractionRoutes as routes } from './extraction.routes.js';
// The tidy rows, for the study's dataset (modules/dataset), which keeps them as Parquet.
export { type HeartRateColumns, heartRatePageColumns } from './heart-rate-page.js';
// The Google Health data types the research types read (for the webhook subscriber's configs).
export { googleDataTypes } from './plan.js';
export { type CallPages, type Cell, COLUMNS, tidyRows } from './tidy.js';
