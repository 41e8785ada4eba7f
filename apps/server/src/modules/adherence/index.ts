export { adherenceRoutes as routes } from './adherence.routes.js';
export {
  type AdherenceService,
  createAdherenceService,
} from './adherence.service.js';
