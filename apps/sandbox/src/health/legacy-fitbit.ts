import type { FastifyInstance, FastifyReply } from 'fastify';

/** The Fitbit Web API and Fitbit OAuth were switched off on 2 Nov 2026: every path is gone. */
const GONE = {
  errors: [
    {
      errorType: 'gone',
      message:
        'The Fitbit Web API was turned off on 2 November 2026. Use the Google Health API (health.googleapis.com).',
    },
  ],
  success: false,
};

function gone(_request: unknown, reply: FastifyReply) {
  return reply.code(410).header('Cache-Control', 'no-store').send(GONE);
}

export function registerLegacyFitbit(app: FastifyInstance): void {
  for (const path of ['/oauth2/authorize', '/oauth2/token', '/oauth2/revoke', '/1/*', '/1.2/*']) {
    app.all(path, gone);
  }
}
