export { healthRoutes as routes } from './health.routes.js';
