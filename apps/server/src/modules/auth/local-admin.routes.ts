import { authApi } from '@research/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/operation-route.js';

/** The operator's create-master call (`npm run admin`), only where the local admin is open. */
export const localAdminRoutes: FastifyPluginAsync = async (app) => {
  const guard = app.localAdmin;
  if (!guard) return;
  route(app, authApi.localCreateMaster, {
    preHandler: guard,
    handler: async (request) => ({
      success: true as const,
      ...(await app.services.master.createOrPromoteMaster(request.body)),
    }),
  });
};
