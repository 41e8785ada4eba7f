export { type ApplicationRow, findLiveApplicationOfUser } from './applications.repository.js';
export { applicationsRoutes as routes } from './applications.routes.js';
export {
  type ApplicationsService,
  createApplicationsService,
  DOCUMENTS_BUCKET,
} from './applications.service.js';
