import type { FastifyInstance } from 'fastify';

/** What a collection of a test's own takes from the app besides its parts: the database and the notification work rows. */
export const collectionBase = (app: FastifyInstance) => ({
  db: app.platform.db,
  work: {
    pending: app.healthNotifications.pendingWork,
    finish: app.healthNotifications.finishWork,
    connectionsWithPendingWork: app.healthNotifications.connectionsWithPendingWork,
  },
});
