export { healthNotificationsRoutes as routes } from './health-notifications.routes.js';
export {
  createHealthNotifications,
  type HealthNotificationsService,
  type WorkRow,
} from './health-notifications.service.js';
export { subscribedDataTypes } from './subscriber-status.js';

import type { HealthNotificationsService } from './health-notifications.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    healthNotifications: HealthNotificationsService;
  }
}
