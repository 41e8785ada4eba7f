import { randomUUID } from 'node:crypto';
import { DATA_TYPES, type DatasetTrigger, type DataType } from '@research/contracts';
import type { AppConfig } from '../../config.js';
import type { GoogleHealthClientOptions } from '../../platform/google-health/index.js';
import type { JobQueue } from '../../platform/jobs.js';
import type { Dataset } from '../dataset/index.js';
import type { DbQuota } from '../extraction/index.js';
import type { WearablesService } from '../wearables/index.js';
import { type CollectResult, createCollect } from './collect.js';
import { sweepDays } from './days.js';
import { createCollectionJobs } from './job-definitions.js';

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
}

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
  const collect = createCollect({
    config,
    dataset,
    wearables,
    quota: deps.quota,
    fetch: deps.fetch ?? fetch,
    clientOptions: deps.clientOptions,
  });

  /** The given types and days, each fetched and written (or marked with why not). */
  function collectDays(input: CollectDaysInput): Promise<CollectResult> {
    const dates = [...new Set(input.dates)].sort();
    const plan = new Map(input.types.map((type) => [type, dates]));
    return collect(input.participantId, () => plan, input.trigger, input.signal);
  }

  /** One connection's sweep: the restatement window and the missing days since enrolment. */
  function collectConnection(
    participantId: string,
    trigger: DatasetTrigger = { kind: 'sweep' },
    signal?: AbortSignal,
  ): Promise<CollectResult> {
    return collect(
      participantId,
      async (session) =>
        sweepDays({
          types,
          timeZone: session.timeZone,
          now: now(),
          enrolledAt: session.target.enrolledAt,
          restatementDays: config.collection.restatementDays,
          backfillDays: config.collection.backfillDays,
          ledger: await dataset.readLedger({
            studyId: session.target.studyId,
            participantId,
            types,
          }),
        }),
      trigger,
      signal,
    );
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
    },
  });

  /** Queues every active connection's job; answers how many were queued (not already waiting). */
  async function sweep(): Promise<number> {
    const sweepId = randomUUID();
    let queued = 0;
    for (const target of await wearables.collectionTargets()) {
      if (await queue.queueConnection(target.participantId, sweepId)) queued += 1;
    }
    return queued;
  }

  return {
    jobs: [queue.sweepJob, queue.connectionJob],
    sweepJob: queue.sweepJob,
    connectionJob: queue.connectionJob,
    collectDays,
    collectConnection,
    sweep,
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
