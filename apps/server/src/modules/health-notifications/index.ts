export { healthNotificationsRoutes as routes } from './health-notifications.routes.js';
export {
  createHealthNotifications,
  type HealthNotificationsService,
  type WorkRow,
} from './health-notifications.service.js';
export type { PendingWork } from './notifications.repository.js';
export { subscribedDataTypes } from './subscriber-status.js';

import type { HealthNotificationsService } from './health-notifications.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    healthNotifications: HealthNotificationsService;
  }
}
