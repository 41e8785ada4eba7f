import type { FastifyInstance } from 'fastify';
import { fromLoopback } from './admin.js';
import { parseInstant } from './civil.js';
import type { Deliveries, DeliveryState } from './deliveries.js';
import type { ServiceAccountKeyFile } from './service-account.js';
import type { TinkKeyset } from './tink-keyset.js';
import type { SyncResult } from './webhooks.js';

/** Where the sandbox publishes its webhook verification keys (public, like Google's keyset). */
export const KEYSET_PATH = '/googlehealthapi/webhooks/webhooks_public_keyset.json';

export interface WebhookAdminTarget {
  serviceAccountKey(): ServiceAccountKeyFile;
  keyset(): TinkKeyset;
  rotateKey(): TinkKeyset;
  sync(email: string, until: number | null): SyncResult;
  deliveries: Deliveries;
}

const STATES: DeliveryState[] = ['pending', 'delivered', 'dropped'];

/**
 * The webhook side's knobs:
 * - `GET /__admin/health/service-account.json`: the project's service-account key file;
 * - `POST /__admin/health/webhook-keyset/rotate`: a new primary signing key;
 * - `POST /__admin/health/sync {email, until?, live?}`: the person's tracker syncs;
 * - `GET /__admin/health/deliveries[?subscriber=&state=]`, `DELETE /__admin/health/deliveries`,
 *   `POST /__admin/health/deliveries/{id}/duplicate`: what was sent, retried or dropped.
 * All loopback only, except the public keyset itself.
 */
export function registerWebhookAdmin(app: FastifyInstance, target: WebhookAdminTarget): void {
  app.get(KEYSET_PATH, async (_request, reply) => {
    // Receivers cache the keyset and fetch it again when a signature names an unknown key.
    reply.header('Cache-Control', 'public, max-age=60');
    return target.keyset();
  });

  app.get('/__admin/health/service-account.json', async (request, reply) => {
    if (!fromLoopback(request)) return reply.code(403).send({ error: 'loopback only' });
    return reply
      .header('Cache-Control', 'no-store')
      .header('Content-Disposition', 'attachment; filename="sandbox-service-account.json"')
      .send(target.serviceAccountKey());
  });

  app.post('/__admin/health/webhook-keyset/rotate', async (request, reply) => {
    if (!fromLoopback(request)) return reply.code(403).send({ error: 'loopback only' });
    return target.rotateKey();
  });

  app.post('/__admin/health/sync', async (request, reply) => {
    if (!fromLoopback(request)) return reply.code(403).send({ error: 'loopback only' });
    const body = request.body as { email?: unknown; until?: unknown; live?: unknown } | undefined;
    if (typeof body?.email !== 'string' || !body.email.trim()) {
      return reply.code(400).send({ error: 'email is required' });
    }
    if (body.live !== undefined && typeof body.live !== 'boolean') {
      return reply.code(400).send({ error: 'live must be a boolean' });
    }
    let until: number | null = Number.POSITIVE_INFINITY;
    if (body.live === true) {
      if (body.until !== undefined) {
        return reply.code(400).send({ error: 'give either until or live, not both' });
      }
      until = null;
    } else if (body.until !== undefined) {
      const parsed = typeof body.until === 'string' ? parseInstant(body.until) : null;
      if (parsed === null) {
        return reply.code(400).send({ error: 'until must be an RFC 3339 instant' });
      }
      until = parsed;
    }
    return target.sync(body.email, until);
  });

  app.get('/__admin/health/deliveries', async (request, reply) => {
    if (!fromLoopback(request)) return reply.code(403).send({ error: 'loopback only' });
    const query = request.query as { subscriber?: string; state?: string };
    const state = query.state as DeliveryState | undefined;
    if (state !== undefined && !STATES.includes(state)) {
      return reply.code(400).send({ error: 'state must be pending, delivered or dropped' });
    }
    return {
      deliveries: target.deliveries.list({
        ...(query.subscriber ? { subscriber: query.subscriber } : {}),
        ...(state ? { state } : {}),
      }),
    };
  });

  app.delete('/__admin/health/deliveries', async (request, reply) => {
    if (!fromLoopback(request)) return reply.code(403).send({ error: 'loopback only' });
    return { cleared: target.deliveries.clearFinished() };
  });

  app.post<{ Params: { id: string } }>(
    '/__admin/health/deliveries/:id/duplicate',
    async (request, reply) => {
      if (!fromLoopback(request)) return reply.code(403).send({ error: 'loopback only' });
      const copy = target.deliveries.duplicate(request.params.id);
      if (!copy) return reply.code(404).send({ error: 'no such delivery' });
      return copy;
    },
  );
}
