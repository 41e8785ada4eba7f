import { randomUUID } from 'node:crypto';
import { DATA_TYPES, type DatasetTrigger, type DataType } from '@research/contracts';
import type { AppConfig } from '../../config.js';
import type { Db, DbOrTx } from '../../db/client.js';
import type { GoogleHealthClientOptions } from '../../platform/google-health/index.js';
import type { JobQueue } from '../../platform/jobs.js';
import { consentHoldOf, type GateSubject } from '../consent/index.js';
import type { Dataset } from '../dataset/index.js';
import type { DbQuota } from '../extraction/index.js';
import type { WearablesService } from '../wearables/index.js';
import { type CollectResult, createCollect, type Session } from './collect.js';
import { sweepDays } from './days.js';
import { createCollectionJobs } from './job-definitions.js';
import { createNotified, type NotifiedWork } from './notified.js';

/**
 * Continuous collection: participants' Google Health data gathered day by day into the study's
 * dataset. Three ways in, one way through (collect.ts):
 *   - `collectDays`: given days of given types (the notification receiver's work items);
 *   - the sweep (a pg-boss schedule): per active connection, the restatement window again and
 *     missing days since enrolment, bounded (days.ts);
 *   - a new connection: its connection job at once, which backfills from enrolment.
 */

/** Every type but the profile, which is not a day's data. */
export const COLLECTED_TYPES: readonly DataType[] = DATA_TYPES.filter((t) => t !== 'profile');

export interface CollectionDeps {
  db: Db;
  config: AppConfig;
  dataset: Dataset;
  wearables: WearablesService;
  quota: DbQuota;
  jobs: () => JobQueue;
  retry: { limit: number; delaySeconds: number };
  fetch?: typeof fetch;
  clientOptions?: Omit<GoogleHealthClientOptions, 'fetch'>;
  now?: () => Date;
  /** The types a sweep collects (default: COLLECTED_TYPES). */
  types?: readonly DataType[];
  /** The notification receiver's work rows (that module owns them). */
  work: NotifiedWork;
  /** The study's setting for data deleted at the source (default: keep it, marked). */
  removesDeletedData?: (studyId: string) => Promise<boolean>;
}

/** Pending notification work older than this is queued again by the sweep (its job was lost). */
const STALE_WORK_MS = 5 * 60_000;

export interface CollectDaysInput {
  participantId: string;
  types: readonly DataType[];
  /** Civil days, yyyy-mm-dd, in the participant's time zone. */
  dates: readonly string[];
  trigger: DatasetTrigger;
  signal?: AbortSignal;
}

export function createCollection(deps: CollectionDeps) {
  const { config, dataset, wearables } = deps;
  const now = deps.now ?? (() => new Date());
  const types = deps.types ?? COLLECTED_TYPES;
  const holdOf = (subject: GateSubject, tx?: DbOrTx) => consentHoldOf(tx ?? deps.db, subject);
  const collect = createCollect({
    holdOf,
    config,
    dataset,
    wearables,
    quota: deps.quota,
    fetch: deps.fetch ?? fetch,
    clientOptions: deps.clientOptions,
    now,
  });

  /** The given types and days, each fetched and written (or marked with why not). */
  function collectDays(input: CollectDaysInput): Promise<CollectResult> {
    const dates = [...new Set(input.dates)].sort();
    const plan = new Map(input.types.map((type) => [type, dates]));
    return collect(input.participantId, () => plan, input.trigger, input.signal);
  }

  /** The days a sweep of the session's connection fetches. */
  async function sweepPlan(session: Session) {
    return sweepDays({
      types,
      timeZone: session.timeZone,
      now: now(),
      enrolledAt: session.target.enrolledAt,
      syncedThrough: session.syncedThrough,
      restatementDays: config.collection.restatementDays,
      backfillDays: config.collection.backfillDays,
      ledger: await dataset.readLedger({
        studyId: session.target.studyId,
        participantId: session.target.participantId,
        types,
      }),
    });
  }

  /** One connection's sweep: the restatement window and the missing days since enrolment. */
  function collectConnection(
    participantId: string,
    trigger: DatasetTrigger = { kind: 'sweep' },
    signal?: AbortSignal,
  ): Promise<CollectResult> {
    return collect(participantId, sweepPlan, trigger, signal);
  }

  const doNotified = createNotified({
    db: deps.db,
    dataset,
    collect,
    work: deps.work,
    types,
    removesDeletedData: deps.removesDeletedData ?? (async () => false),
    sweepPlan,
  });

  /** The participant's pending notification work, fetched (nothing when there is none). */
  async function collectNotified(participantId: string, signal?: AbortSignal) {
    const [target] = await wearables.collectionTargets(participantId);
    if (!target) return null;
    // Held back: the work waits, untouched, for the consent (the sweep does not queue it).
    const hold = await holdOf(target);
    if (hold)
      return {
        written: 0,
        marked: { failed: 0, scopeMissing: 0, revoked: 0 },
        calls: 0,
        finished: 0,
        deletedPartitions: 0,
        heldBack: hold,
      };
    return doNotified(target, signal);
  }

  const queue = createCollectionJobs({
    config,
    jobs: deps.jobs,
    retry: deps.retry,
    handlers: {
      sweep: async () => {
        await sweep();
      },
      connection: async (participantId, trigger) => {
        await collectConnection(participantId, trigger);
      },
      notified: async (participantId) => {
        await collectNotified(participantId);
      },
    },
  });

  /**
   * Queues every active connection's job, and the notification job of any connection whose
   * notification work has waited too long (its job was lost); answers how many sweep jobs were
   * queued (not already waiting).
   */
  async function sweep(): Promise<number> {
    const sweepId = randomUUID();
    const stale = new Set(
      await deps.work.connectionsWithPendingWork(new Date(now().getTime() - STALE_WORK_MS)),
    );
    let queued = 0;
    for (const target of await wearables.collectionTargets()) {
      // A participant held back for consent gets no job (the job would ask the gate again).
      if (await holdOf(target)) continue;
      if (await queue.queueConnection(target.participantId, sweepId)) queued += 1;
      if (stale.has(target.connectionId)) await queue.queueNotified(target.participantId);
    }
    return queued;
  }

  return {
    jobs: [queue.sweepJob, queue.connectionJob, queue.notifiedJob],
    sweepJob: queue.sweepJob,
    connectionJob: queue.connectionJob,
    notifiedJob: queue.notifiedJob,
    collectDays,
    collectConnection,
    collectNotified,
    sweep,
    /** Notification work is waiting for these participants: their fetch, queued (once each). */
    notified: async (participantIds: readonly string[]) => {
      for (const participantId of new Set(participantIds)) await queue.queueNotified(participantId);
    },
    /** A connection became active: its backfill from enrolment, queued (once). */
    connected: async (participantId: string) =>
      config.collection.onConnect && queue.queueConnection(participantId),
  };
}

export type Collection = ReturnType<typeof createCollection>;

declare module 'fastify' {
  interface FastifyInstance {
    collection: Collection;
  }
}
