import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseIsoDate } from './civil.js';
import { type HealthControls, parseControls } from './controls.js';
import { dayData, generatedDays } from './data-generator.js';
import type { QuotaUsage } from './quota.js';

export interface AdminTarget {
  controls(): HealthControls;
  setControls(update: Partial<HealthControls>): HealthControls;
  /** Revokes the account's grants; DELETE notifications follow for the types they covered. */
  revoke(email: string): { revoked: number; notifications: number };
  /** Requests served and refused per health user id so far. */
  usage(): Record<string, QuotaUsage>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** The admin routes change the sandbox for everyone using it: only the machine itself may call. */
export function fromLoopback(request: FastifyRequest): boolean {
  return LOOPBACK.has(request.socket.remoteAddress ?? '');
}

/**
 * `GET|POST /__admin/health` reads or changes the knobs (latency, fault rates, quotas, Testing mode,
 * clock offset); `POST /__admin/health/revoke {email}` removes an account's connections, as a person
 * would in their Google account settings; `GET /__admin/health/usage` counts each user's Health API
 * requests (served, and refused by the quota) since the start or the last reset of the knobs;
 * `POST /__admin/health/prepare {emails, from, to}` makes the accounts' data for those days now, as
 * Google would hold it already, so a benchmark's calls do not pay for making it.
 */
export function registerHealthAdmin(app: FastifyInstance, target: AdminTarget): void {
  app.get('/__admin/health', async (request, reply) => {
    if (!fromLoopback(request)) return reply.code(403).send({ error: 'loopback only' });
    return target.controls();
  });

  app.post('/__admin/health', async (request, reply) => {
    if (!fromLoopback(request)) return reply.code(403).send({ error: 'loopback only' });
    const parsed = parseControls(request.body ?? {});
    if (!parsed.ok) return reply.code(400).send({ error: parsed.error });
    return target.setControls(parsed.value);
  });

  app.get('/__admin/health/usage', async (request, reply) => {
    if (!fromLoopback(request)) return reply.code(403).send({ error: 'loopback only' });
    return { users: target.usage() };
  });

  app.post('/__admin/health/prepare', async (request, reply) => {
    if (!fromLoopback(request)) return reply.code(403).send({ error: 'loopback only' });
    const body = (request.body ?? {}) as { emails?: unknown; from?: unknown; to?: unknown };
    const emails = Array.isArray(body.emails) ? body.emails : [];
    const from = typeof body.from === 'string' ? parseIsoDate(body.from) : null;
    const to = typeof body.to === 'string' ? parseIsoDate(body.to) : null;
    if (emails.length === 0 || emails.some((e) => typeof e !== 'string' || !e.trim())) {
      return reply.code(400).send({ error: 'emails must be a list of addresses' });
    }
    if (from === null || to === null || to < from) {
      return reply.code(400).send({ error: 'from and to must be dates, from ≤ to' });
    }
    // The UTC days a civil day touches in any time zone: the one before and after too.
    const days = emails.length * (to - from + 3);
    const { limit } = generatedDays();
    if (days > limit) {
      return reply.code(400).send({
        error: `${days} account-days would not all be kept (the cache holds ${limit}: raise SANDBOX_GENERATED_DAYS_CACHE)`,
      });
    }
    for (const email of emails as string[]) {
      for (let day = from - 1; day <= to + 1; day++) dayData(email, day);
    }
    return { days };
  });

  app.post('/__admin/health/revoke', async (request, reply) => {
    if (!fromLoopback(request)) return reply.code(403).send({ error: 'loopback only' });
    const body = request.body as { email?: unknown } | undefined;
    if (typeof body?.email !== 'string' || !body.email.trim()) {
      return reply.code(400).send({ error: 'email is required' });
    }
    return target.revoke(body.email);
  });
}
