import { accessTokensApi } from '@research/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/operation-route.js';
import { RATE_LIMITS } from '../../http/rate-limits.js';
import { currentUser } from '../auth/index.js';
import { requireStudyMember, studyAccessOf } from '../studies/index.js';

/** A member's tokens of a study: create (the secret answered once), list, revoke. */
export const accessTokensRoutes: FastifyPluginAsync = async (app) => {
  const tokens = app.services.accessTokens;
  const member = { preHandler: requireStudyMember };

  route(app, accessTokensApi.createAccessToken, {
    ...member,
    config: RATE_LIMITS.accessTokens,
    handler: async (request, reply) => {
      const created = await tokens.create(
        studyAccessOf(request),
        currentUser(request),
        request.body,
        { ip: request.ip },
      );
      reply.status(201);
      return { success: true as const, ...created };
    },
  });

  route(app, accessTokensApi.listAccessTokens, {
    ...member,
    handler: async (request) => ({
      success: true as const,
      ...(await tokens.list(studyAccessOf(request), currentUser(request), request.query)),
    }),
  });

  route(app, accessTokensApi.revokeAccessToken, {
    ...member,
    config: RATE_LIMITS.accessTokens,
    handler: async (request) => ({
      success: true as const,
      token: await tokens.revoke(
        studyAccessOf(request),
        currentUser(request),
        request.params.tokenId,
        { ip: request.ip },
      ),
    }),
  });
};
