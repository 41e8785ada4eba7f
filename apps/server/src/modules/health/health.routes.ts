import { healthApi } from '@research/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { pingDatabase } from '../../db/client.js';
import { migrationsApplied } from '../../db/migrate.js';
import { route } from '../../http/operation-route.js';

// Probes are polled by machines: never throttled.
const unlimited = { config: { rateLimit: false } } as const;

export const healthRoutes: FastifyPluginAsync = async (app) => {
  route(app, healthApi.liveness, {
    ...unlimited,
    handler: async () => ({ status: 'ok' as const }),
  });

  route(app, healthApi.readiness, {
    ...unlimited,
    handler: async (_request, reply) => {
      const database = await pingDatabase(app.platform.database);
      const migrations = database && (await migrationsApplied(app.platform.database));
      const ready = database && migrations;
      reply.status(ready ? 200 : 503);
      return {
        status: ready ? ('ready' as const) : ('not_ready' as const),
        checks: { database, migrations },
      };
    },
  });
};
