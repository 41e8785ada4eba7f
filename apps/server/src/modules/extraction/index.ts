export { createExtractionEngine, type ExtractionEngine } from './engine.js';
export { extractionRoutes as routes } from './extraction.routes.js';
