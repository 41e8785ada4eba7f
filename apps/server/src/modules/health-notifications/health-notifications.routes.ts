import { healthNotificationsApi, WEBHOOK_MESSAGES, webhooksApi } from '@research/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../errors.js';
import { route } from '../../http/operation-route.js';
import { RATE_LIMITS, webhookRateLimit } from '../../http/rate-limits.js';
import { requireMaster } from '../auth/index.js';
import { SIGNATURE_HEADERS } from './health-notifications.service.js';

/** A notification is about 1 KB; an array of a hundred stays well below this. */
export const MAX_NOTIFICATION_BODY_BYTES = 256 * 1024;

const headerOf = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value[0] : value;

/** The webhook (in a plugin of its own) and the master's status of the notifications. */
export const healthNotificationsRoutes: FastifyPluginAsync = async (app) => {
  await app.register(webhookRoute);

  route(app, healthNotificationsApi.getNotificationStatus, {
    preHandler: requireMaster,
    config: RATE_LIMITS.notificationStatus,
    handler: async () => ({
      success: true as const,
      notifications: await app.healthNotifications.status(),
    }),
  });
};

/**
 * `POST /webhooks/google-health`. This plugin is encapsulated, so its body parser (raw bytes,
 * whatever the content type: the signature covers the exact bytes) and its hook apply to this
 * route alone.
 */
const webhookRoute: FastifyPluginAsync = async (app) => {
  const notifications = app.healthNotifications;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: MAX_NOTIFICATION_BODY_BYTES },
    (_request, body, done) => done(null, body),
  );

  // The secret is checked before the body is read (after the rate limit, which runs on
  // onRequest): a caller without it costs no body read, and Google's endpoint check requires
  // the refusal whatever the body says.
  app.addHook('preParsing', async (request) => {
    const refusal = notifications.authorize(headerOf(request.headers.authorization));
    if (refusal) {
      notifications.refuse(refusal);
      throw new AppError(401, 'WEBHOOK_UNAUTHORIZED', WEBHOOK_MESSAGES.unauthorized);
    }
  });

  route(app, webhooksApi.googleHealthNotification, {
    config: webhookRateLimit(app.platform.config.healthNotifications.ratePerMinute),
    bodyLimit: MAX_NOTIFICATION_BODY_BYTES,
    handler: async (request, reply) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = SIGNATURE_HEADERS.map((name) => headerOf(request.headers[name])).find(
        (value) => value !== undefined,
      );
      const outcome = await notifications.receive(body, signature);
      if (outcome.status === 401)
        throw new AppError(401, 'WEBHOOK_SIGNATURE_INVALID', WEBHOOK_MESSAGES.badSignature);
      if (outcome.status === 400)
        throw new AppError(400, 'VALIDATION_ERROR', WEBHOOK_MESSAGES.invalidNotification);
      return reply.status(outcome.status).send();
    },
  });
};
