import type { AppConfig } from '../../config.js';
import { defineJob, type JobQueue } from '../../platform/jobs.js';
import { DailyBudgetSpent } from '../extraction/index.js';

/**
 * The collection's pg-boss jobs: the sweep on its schedule, which queues one job per active
 * connection, and that connection's job. A connection's job is a singleton while queued, so a
 * sweep that comes round while the last one's job still waits (or a new connection's backfill
 * queued beside a sweep's) adds nothing.
 */

/**
 * A sync's notifications arrive together, one per Google type: the participant's job starts this
 * long after the first, so that one job reads them all. Started at once, it would read the first
 * few and a second job the rest: the session's calls twice, and a type read by several Google
 * types (the daily summary reads nine) fetched again.
 */
export const NOTIFIED_GATHER_SECONDS = 5;

export interface CollectionJobHandlers {
  sweep: () => Promise<void>;
  connection: (participantId: string, trigger: { kind: 'sweep'; id?: string }) => Promise<void>;
  notified: (participantId: string) => Promise<void>;
}

/**
 * The day's call budget is spent: the job is done, what is left waits for a later sweep (no
 * retries, which would only be refused again).
 */
async function withinBudget(work: () => Promise<void>) {
  try {
    await work();
  } catch (error) {
    if (error instanceof DailyBudgetSpent) return;
    throw error;
  }
}

export function createCollectionJobs(deps: {
  config: AppConfig;
  jobs: () => JobQueue;
  retry: { limit: number; delaySeconds: number };
  handlers: CollectionJobHandlers;
}) {
  const { config, retry, handlers } = deps;

  const sweepJob = defineJob<Record<string, never>>({
    name: 'collection-sweep',
    retryLimit: retry.limit,
    retryDelaySeconds: retry.delaySeconds,
    expireInSeconds: 10 * 60,
    concurrency: 1,
    ...(config.collection.sweepCron ? { cron: config.collection.sweepCron } : {}),
    handler: async () => handlers.sweep(),
  });

  const connectionJob = defineJob<{ participantId: string; sweepId?: string }>({
    name: 'collection-connection',
    retryLimit: retry.limit,
    retryDelaySeconds: retry.delaySeconds,
    expireInSeconds: 30 * 60,
    concurrency: config.collection.concurrency,
    policy: 'stately',
    handler: async (job) => {
      await withinBudget(() =>
        handlers.connection(job.data.participantId, {
          kind: 'sweep',
          ...(job.data.sweepId ? { id: job.data.sweepId } : {}),
        }),
      );
    },
  });

  /**
   * A participant's notification work. Stately too: one waits while one runs, and the waiting
   * one reads every row pending when it starts, so notifications arriving meanwhile need no
   * job of their own.
   */
  const notifiedJob = defineJob<{ participantId: string }>({
    name: 'collection-notified',
    retryLimit: retry.limit,
    retryDelaySeconds: retry.delaySeconds,
    expireInSeconds: 30 * 60,
    concurrency: config.collection.concurrency,
    policy: 'stately',
    // Work left pending when the budget is spent is queued again by a later sweep.
    handler: async (job) => withinBudget(() => handlers.notified(job.data.participantId)),
  });

  /** Sends a job unless one with its key is already queued (then pg-boss refuses the copy). */
  async function sendOnce<T extends object>(
    job: typeof connectionJob | typeof notifiedJob,
    data: T,
    singletonKey: string,
    startAfter?: number,
  ) {
    try {
      await deps
        .jobs()
        .send(job as never, data as never, { singletonKey, ...(startAfter ? { startAfter } : {}) });
      return true;
    } catch (error) {
      if (error instanceof Error && error.message.includes('was not queued')) return false;
      throw error;
    }
  }

  /** The connection's job, unless one is already queued. */
  const queueConnection = (participantId: string, sweepId?: string) =>
    sendOnce(
      connectionJob,
      { participantId, ...(sweepId ? { sweepId } : {}) },
      `collection:${participantId}`,
    );

  /** The participant's notification job, unless one is already queued (then it gathers this). */
  const queueNotified = (participantId: string) =>
    sendOnce(notifiedJob, { participantId }, `notified:${participantId}`, NOTIFIED_GATHER_SECONDS);

  return { sweepJob, connectionJob, notifiedJob, queueConnection, queueNotified };
}
