// Analysis-ready exports of the study dataset: the service (app.ts makes it), the build a
// benchmark can run synchronously, and the routes.
export { type BuildDeps, buildExport, exportPrefix } from './build-export.js';
export { type ExportColumn, exportColumns } from './export-columns.js';
export { exportsRoutes as routes } from './exports.routes.js';
export { createExportsService, type ExportsDeps, type ExportsService } from './exports.service.js';
