import { createHash, timingSafeEqual } from 'node:crypto';
import {
  type HealthNotification,
  healthNotificationBodySchema,
  type NotificationStatus,
  webhookVerificationSchema,
} from '@research/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../config.js';
import type { Db, DbOrTx } from '../../db/client.js';
import type { NotificationRefusal } from '../../db/schema/index.js';
import { defineJob, type JobQueue } from '../../platform/jobs.js';
import { civilDaysOfAll, kebabDataType } from './civil-days.js';
import { groupCommit } from './group-commit.js';
import * as repo from './notifications.repository.js';
import { createKeysetVerifier, type KeysetVerifier } from './signature.js';
import { createSubscriberStatus, type SubscriberStatusOptions } from './subscriber-status.js';

/**
 * The receiving side of Google Health's change notifications: who may call (the shared secret,
 * then the signature over the raw body), storing what arrived, and the job that turns each
 * notification into work per wearable connection and civil day.
 */

/** Both header names Google has used for the signature (Node lower-cases header names). */
export const SIGNATURE_HEADERS = ['google-health-api-signature', 'x-healthapi-signature'] as const;

export type { WorkRow } from './notifications.repository.js';

export interface HealthNotificationsDeps {
  db: Db;
  config: AppConfig;
  jobs: () => JobQueue;
  retry: { limit: number; delaySeconds: number };
  log: FastifyBaseLogger;
  /** The wearables module's connections of one Google account (injected: that module owns them). */
  connectionsOf: (
    db: DbOrTx,
    healthUserId: string,
  ) => Promise<{ connectionId: string; participantId: string; studyId: string }[]>;
  /**
   * Told which participants have new pending work once it is stored (the collection queues
   * their fetch here). The rows stay pending until the fetch ends them with `finishWork`, so
   * nothing is lost if this fails: the collection's sweep finds pending rows too.
   */
  onWork?: (participantIds: string[]) => Promise<void>;
  /** How the dashboard asks Google about the subscriber (tests shorten the cache). */
  subscriberStatus?: SubscriberStatusOptions;
}

/** How a call was answered: a status, and the reason when it was refused (counted). */
export type Outcome = { status: 201 | 204 } | { status: 400 | 401; refusal: NotificationRefusal };

/** The SHA-256 of each secret: equal lengths for timingSafeEqual, whatever was sent. */
const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Refusals are added up in memory and written at most this often (a flood costs no writes). */
const REFUSAL_FLUSH_MS = 1_000;
/** A drain job is queued at most this often from one process while notifications arrive. */
const DRAIN_THROTTLE_MS = 250;
/** Notifications one drain job resolves before it hands on to the next one. */
const DRAIN_LIMIT = 2_000;
/**
 * Resolved notifications and ended work are kept this long (to answer "what did Google tell us
 * about this day?"), refusal counts three times as long (the operator's trend).
 */
export const NOTIFICATION_RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;

export function createHealthNotifications(deps: HealthNotificationsDeps) {
  const { db, config } = deps;
  const secrets = config.healthNotifications.secrets.map(digest);
  const verifier: KeysetVerifier = createKeysetVerifier({
    url: config.healthNotifications.keysetUrl,
    onFetchError: (error) =>
      deps.log.warn({ err: error }, 'Google Health notification keyset could not be read'),
  });

  // ---- Refusal counts -------------------------------------------------------------------
  let pendingRefusals = new Map<NotificationRefusal, number>();
  let flushTimer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> = Promise.resolve();

  async function flushRefusals(): Promise<void> {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = null;
    const counts = pendingRefusals;
    pendingRefusals = new Map();
    if (counts.size === 0) return flushing;
    flushing = flushing.then(() =>
      repo.countRefusals(db, counts).catch((error: Error) => {
        // Counts are for the operator's eye; losing them must not fail anything else.
        deps.log.warn({ err: error }, 'webhook refusal counts not stored');
      }),
    );
    return flushing;
  }

  function refuse(refusal: NotificationRefusal): void {
    pendingRefusals.set(refusal, (pendingRefusals.get(refusal) ?? 0) + 1);
    flushTimer ??= setTimeout(() => void flushRefusals(), REFUSAL_FLUSH_MS).unref();
  }

  // ---- Resolving (jobs) -----------------------------------------------------------------

  /**
   * The stored notifications are the queue: every one not yet resolved is work, found by its
   * index. A drain job is queued shortly after notifications are stored (at most one per
   * DRAIN_THROTTLE_MS from this process), and the same job runs every minute too, so a job lost
   * between a commit and its queueing (a crash there) only delays them.
   */
  const drainJob = defineJob<Record<string, never>>({
    name: 'health-notification-drain',
    retryLimit: deps.retry.limit,
    retryDelaySeconds: deps.retry.delaySeconds,
    expireInSeconds: 10 * 60,
    concurrency: 2,
    cron: '* * * * *',
    handler: async () => {
      await drain();
    },
  });

  /** Resolves unresolved notifications, oldest first, up to `limit` of them; answers how many. */
  async function drain(limit = DRAIN_LIMIT): Promise<number> {
    let done = 0;
    while (done < limit) {
      const ids = await repo.unresolvedIds(db, Math.min(100, limit - done));
      if (ids.length === 0) return done;
      for (const id of ids) {
        try {
          await resolve(id);
        } catch (error) {
          // Left unresolved: the next drain tries it again. The rest go on meanwhile.
          deps.log.warn({ err: error, notificationId: id }, 'notification not resolved');
        }
      }
      done += ids.length;
    }
    // More than one job's worth waiting: the next job takes over.
    requestDrain();
    return done;
  }

  let drainSentAt = Number.NEGATIVE_INFINITY;
  let drainTimer: NodeJS.Timeout | null = null;
  /** Queues a drain soon: one send per throttle window, the last one after a burst ends. */
  function requestDrain() {
    if (drainTimer) return;
    const wait = Math.max(0, drainSentAt + DRAIN_THROTTLE_MS - Date.now());
    drainTimer = setTimeout(() => {
      drainTimer = null;
      drainSentAt = Date.now();
      deps
        .jobs()
        .send(drainJob, {})
        .catch((error: Error) =>
          // The minute's drain will find the notifications all the same.
          deps.log.warn({ err: error }, 'notification drain not queued'),
        );
    }, wait);
    drainTimer.unref();
  }

  /**
   * One notification → a work row per (connection of its account, data type, civil day), in
   * one transaction with marking it resolved: a second drain, a retry after a crash, or the same
   * body delivered again finds it resolved (or locked by another drain) and does nothing. Order
   * does not matter: each row means "fetch this day again", and the fetch reads what Google
   * holds then.
   */
  async function resolve(notificationId: string): Promise<repo.WorkRow[]> {
    const { rows, participantIds } = await db.transaction(async (tx) => {
      const notification = await repo.lockNotification(tx, notificationId);
      if (!notification || notification.resolvedAt) return { rows: [], participantIds: [] };
      const connections = await deps.connectionsOf(tx, notification.healthUserId);
      const days = civilDaysOfAll(
        notification.intervals as HealthNotification['data']['intervals'],
      ) ?? [null];
      const keys = connections.flatMap((connection) =>
        days.map((day) => ({
          connectionId: connection.connectionId,
          studyId: connection.studyId,
          dataType: notification.dataType,
          day,
        })),
      );
      const work = await repo.upsertWork(tx, keys, {
        id: notification.id,
        deleted: notification.operation === 'DELETE',
      });
      await repo.markResolved(tx, notification.id, connections.length);
      return { rows: work, participantIds: connections.map((c) => c.participantId) };
    });
    if (rows.length > 0 && deps.onWork) {
      try {
        await deps.onWork(participantIds);
      } catch (error) {
        // The notification is resolved; its rows stay pending for a later fetch.
        deps.log.warn({ err: error, notificationId }, 'notification work not handed on');
      }
    }
    return rows;
  }

  /** Removes what the retention periods have passed (daily). */
  function purge(now = new Date()) {
    const before = new Date(now.getTime() - NOTIFICATION_RETENTION_DAYS * DAY_MS);
    const refusalsBefore = new Date(now.getTime() - 3 * NOTIFICATION_RETENTION_DAYS * DAY_MS)
      .toISOString()
      .slice(0, 10);
    return repo.purgeOld(db, before, refusalsBefore);
  }

  const purgeJob = defineJob<Record<string, never>>({
    name: 'health-notification-purge',
    retryLimit: deps.retry.limit,
    retryDelaySeconds: deps.retry.delaySeconds,
    concurrency: 1,
    cron: '41 3 * * *',
    handler: async () => {
      await purge();
    },
  });

  // ---- Storing --------------------------------------------------------------------------

  /**
   * A notification is answered 204 only once it is committed, so none that Google was told we
   * have can be missing. Requests that arrive together share one statement (group commit): under
   * a burst, a commit per notification would cost more than the notifications themselves.
   */
  const store = groupCommit<repo.IncomingNotification[]>(
    async (bodies) => {
      await repo.insertNotifications(db, bodies.flat());
      requestDrain();
    },
    { maxBatch: 500, maxInFlight: 2 },
  );

  // ---- Receiving ------------------------------------------------------------------------

  /**
   * The `Authorization` header against the configured secrets, in constant time: each secret is
   * compared (no early exit), through SHA-256 so lengths never differ.
   */
  function authorize(header: string | undefined): NotificationRefusal | null {
    if (secrets.length === 0) return 'not_configured';
    if (header === undefined || header === '') return 'missing_authorization';
    const sent = digest(header);
    let match = false;
    for (const secret of secrets) match = timingSafeEqual(sent, secret) || match;
    return match ? null : 'wrong_authorization';
  }

  /** The endpoint check Google makes on registration: tiny, and carries no notification. */
  function isVerification(body: Buffer): boolean {
    if (body.length > 256) return false;
    try {
      return webhookVerificationSchema.safeParse(JSON.parse(body.toString('utf8'))).success;
    } catch {
      return false;
    }
  }

  /**
   * An authorized call's body: the endpoint check answers 201; a notification must be signed,
   * is stored with its job in one transaction, and answers 204. A body stored before is not
   * stored again; if its job never ran (lost before the first answer), it is queued again.
   */
  async function receive(body: Buffer, signature: string | undefined): Promise<Outcome> {
    if (isVerification(body)) return { status: 201 };
    const check = await verifier.check(body, signature);
    if (!check.ok) {
      refuse(check.reason);
      return { status: 401, refusal: check.reason };
    }
    const text = body.toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      refuse('invalid_payload');
      return { status: 400, refusal: 'invalid_payload' };
    }
    const result = healthNotificationBodySchema.safeParse(parsed);
    if (!result.success) {
      refuse('invalid_payload');
      return { status: 400, refusal: 'invalid_payload' };
    }
    const list = Array.isArray(result.data) ? result.data : [result.data];
    const bodySha256 = createHash('sha256').update(body).digest('hex');
    const rows = list.map((notification, position) => ({
      bodySha256,
      position,
      healthUserId: notification.data.healthUserId,
      operation: notification.data.operation,
      dataType: kebabDataType(notification.data.dataType),
      // Stored as it arrived: a single notification is the body itself.
      payloadJson: Array.isArray(parsed) ? JSON.stringify(parsed[position]) : text,
    }));
    await store(rows);
    return { status: 204 };
  }

  // ---- The master's dashboard ------------------------------------------------------------

  const subscriber = createSubscriberStatus(config, deps.subscriberStatus);

  /** The subscriber as Google reports it, beside what arrived, what waits and what was refused. */
  async function status(): Promise<NotificationStatus> {
    const [google, activity] = await Promise.all([
      subscriber.current(),
      repo.notificationActivity(db),
    ]);
    return {
      subscriber: google.status,
      checkedAt: google.checkedAt,
      endpointUrl: config.googleHealth.webhooks.endpointUrl,
      secretConfigured: secrets.length > 0,
      ...activity,
    };
  }

  return {
    jobs: [drainJob, purgeJob],
    purge,
    status,
    authorize,
    receive,
    refuse,
    /** Writes the refusals counted so far (tests; the app's close). */
    flushRefusals,
    /** At the app's close: no drain is queued any more, and the counts so far are written. */
    async close() {
      if (drainTimer) clearTimeout(drainTimer);
      drainTimer = null;
      await flushRefusals();
    },
    resolve,
    drain,
    refusalCounts: () => repo.refusalCounts(db),
    /** A connection's work rows still waiting for a fetch (oldest first). */
    pendingWork: (connectionId: string) => repo.pendingWork(db, connectionId),
    /** Connections with work waiting since before `before` (a fetch that was never queued). */
    connectionsWithPendingWork: (before: Date) => repo.connectionsWithPendingWork(db, before),
    finishWork: (id: string, generation: number, state: 'done' | 'failed') =>
      repo.finishWork(db, id, generation, state),
    verifier,
  };
}

export type HealthNotificationsService = ReturnType<typeof createHealthNotifications>;
