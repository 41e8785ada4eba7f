import type { JobWithMetadata, SendOptions } from 'pg-boss';
import type { AppConfig } from '../../config.js';
import { defineJob, type JobDefinition, type JobQueue } from '../../platform/jobs.js';

/**
 * The engine's pg-boss jobs, and every way it queues them: a participant's job, the run's watch
 * (which hands on jobs whose worker died), and the run's finalisation when the last job could not
 * write the files itself.
 */

export interface JobHandlers {
  participant: (jobId: string, finalAttempt: boolean) => Promise<void>;
  watch: (runId: string) => Promise<void>;
  finalize: (runId: string) => Promise<void>;
}

export interface JobDefinitionsDeps {
  config: AppConfig;
  jobs: () => JobQueue;
  retry: { limit: number; delaySeconds: number };
  leaseSeconds: number;
  handlers: JobHandlers;
}

export function createJobDefinitions(deps: JobDefinitionsDeps) {
  const { retry, handlers } = deps;

  const participantJob = defineJob<{ jobId: string }>({
    name: 'extraction-participant',
    retryLimit: retry.limit,
    retryDelaySeconds: retry.delaySeconds,
    // pg-boss hands a job out again after this long even while its first copy works; the lease
    // makes such a copy leave at once, and the run's watch hands on a dead worker's job sooner.
    expireInSeconds: deps.config.extraction.jobExpireSeconds,
    concurrency: deps.config.extraction.concurrency,
    handler: async (job) =>
      handlers.participant(
        job.data.jobId,
        deps.jobs().isFinalAttempt(job as JobWithMetadata<object>),
      ),
  });

  const watchJob = defineJob<{ runId: string }>({
    name: 'extraction-watch',
    retryLimit: retry.limit,
    retryDelaySeconds: retry.delaySeconds,
    expireInSeconds: 5 * 60,
    concurrency: 1,
    handler: async (job) => handlers.watch(job.data.runId),
  });

  const finalizeJob = defineJob<{ runId: string }>({
    name: 'extraction-finalize',
    retryLimit: retry.limit,
    retryDelaySeconds: retry.delaySeconds,
    expireInSeconds: 30 * 60,
    concurrency: 1,
    handler: async (job) => handlers.finalize(job.data.runId),
  });

  /** A send that pg-boss may refuse as a duplicate of one already queued (singleton). */
  async function sendQuietly<T extends object>(
    definition: JobDefinition<T>,
    data: T,
    options: SendOptions,
  ) {
    try {
      await deps.jobs().send(definition, data, options);
    } catch (error) {
      if (!(error instanceof Error && error.message.includes('was not queued'))) throw error;
    }
  }

  const send = {
    /** A new run's participant job. */
    participant: async (jobId: string) => {
      await deps.jobs().send(participantJob, { jobId });
    },
    /** The job again, for any worker: its lease lapsed, so the first copy to take it goes on. */
    handOn: (jobId: string) =>
      sendQuietly(
        participantJob,
        { jobId },
        { singletonKey: `extraction-hand-on:${jobId}`, singletonSeconds: deps.leaseSeconds },
      ),
    /** The run's watch, `seconds` from now. */
    watch: async (runId: string, seconds: number, options: { quietly?: boolean } = {}) => {
      if (options.quietly) await sendQuietly(watchJob, { runId }, { startAfter: seconds });
      else await deps.jobs().send(watchJob, { runId }, { startAfter: seconds });
    },
    /** The run's finalisation, for a worker (once per run). */
    finalize: async (runId: string) => {
      await deps
        .jobs()
        .send(finalizeJob, { runId }, { singletonKey: `extraction-finalize:${runId}` });
    },
  };

  return { participantJob, watchJob, finalizeJob, send };
}

export type JobDefinitions = ReturnType<typeof createJobDefinitions>;
