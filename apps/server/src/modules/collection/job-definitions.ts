import type { AppConfig } from '../../config.js';
import { defineJob, type JobQueue } from '../../platform/jobs.js';
import { DailyBudgetSpent } from '../extraction/index.js';

/**
 * The collection's pg-boss jobs: the sweep on its schedule, which queues one job per active
 * connection, and that connection's job. A connection's job is a singleton while queued, so a
 * sweep that comes round while the last one's job still waits (or a new connection's backfill
 * queued beside a sweep's) adds nothing.
 */

export interface CollectionJobHandlers {
  sweep: () => Promise<void>;
  connection: (participantId: string, trigger: { kind: 'sweep'; id?: string }) => Promise<void>;
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
      try {
        await handlers.connection(job.data.participantId, {
          kind: 'sweep',
          ...(job.data.sweepId ? { id: job.data.sweepId } : {}),
        });
      } catch (error) {
        // The day's call budget is spent: the job is done, what is left waits for a later sweep
        // (no retries, which would only be refused again).
        if (error instanceof DailyBudgetSpent) return;
        throw error;
      }
    },
  });

  /** The connection's job, unless one is already queued (then pg-boss refuses the copy). */
  async function queueConnection(participantId: string, sweepId?: string) {
    try {
      await deps
        .jobs()
        .send(
          connectionJob,
          { participantId, ...(sweepId ? { sweepId } : {}) },
          { singletonKey: `collection:${participantId}` },
        );
      return true;
    } catch (error) {
      if (error instanceof Error && error.message.includes('was not queued')) return false;
      throw error;
    }
  }

  return { sweepJob, connectionJob, queueConnection };
}
