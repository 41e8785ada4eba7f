import PgBoss from 'pg-boss';
import type { SqlExecutor } from '../db/client.js';

/**
 * Durable background work on the application's own database (pg-boss): nothing extra to run,
 * and a job survives a restart. Each module declares its jobs with `defineJob`; the app registers
 * them all, and the worker entry or the in-process workers consume them.
 */
export interface JobDefinition<T extends object> {
  name: string;
  /** Attempts after the first one, with exponential back-off from `retryDelaySeconds`. */
  retryLimit: number;
  retryDelaySeconds: number;
  expireInSeconds?: number;
  /** Concurrent jobs per worker process. */
  concurrency?: number;
  /** A cron expression (UTC) for jobs that run on a schedule rather than on demand. */
  cron?: string;
  handler: (job: PgBoss.JobWithMetadata<T>) => Promise<void>;
}

export const defineJob = <T extends object>(definition: JobDefinition<T>) => definition;

/** A definition whose payload type is erased, for lists of different jobs. */
export type AnyJobDefinition = JobDefinition<never>;

export interface JobQueue {
  send<T extends object>(
    definition: JobDefinition<T>,
    data: T,
    options?: PgBoss.SendOptions,
  ): Promise<string>;
  /** True when this job has no retries left: the handler should record the failure for good. */
  isFinalAttempt(job: PgBoss.JobWithMetadata<object>): boolean;
  startWorkers(): Promise<void>;
  /** Waits for running jobs (up to `timeoutMs`), then stops. */
  stop(timeoutMs?: number): Promise<void>;
  boss: PgBoss;
}

export interface JobQueueOptions {
  executor: SqlExecutor;
  definitions: AnyJobDefinition[];
  pollingIntervalSeconds?: number;
  onError?: (error: Error) => void;
}

export async function startJobQueue(options: JobQueueOptions): Promise<JobQueue> {
  // pg-boss can fetch a batch while `stop` decides nothing is running, then record the job's end
  // after the pool is closed, as a rejection nothing catches. Once stopped, its statements never
  // answer instead: a job left active is handed out again when it expires, as after a crash.
  let stopped = false;
  const executor: SqlExecutor = {
    executeSql: (text, values) =>
      stopped ? new Promise(() => {}) : options.executor.executeSql(text, values),
  };
  const boss = new PgBoss({
    db: executor as PgBoss.Db,
    // Keep finished jobs two weeks so failures can be inspected, then drop them.
    retentionDays: 14,
    deleteAfterDays: 14,
    archiveCompletedAfterSeconds: 60 * 60,
  });
  boss.on('error', (error) => options.onError?.(error));
  await boss.start();

  for (const definition of options.definitions) {
    const queue = {
      name: definition.name,
      retryLimit: definition.retryLimit,
      retryDelay: definition.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: definition.expireInSeconds ?? 15 * 60,
    };
    // createQueue is not idempotent in every pg-boss 10 release; update keeps options current.
    if (await boss.getQueue(definition.name)) await boss.updateQueue(definition.name, queue);
    else await boss.createQueue(definition.name, queue);
    if (definition.cron) await boss.schedule(definition.name, definition.cron, {}, { tz: 'UTC' });
  }

  let workersStarted = false;
  // This process's workers per queue: a job sent here wakes them at once instead of at their next
  // poll (up to pollingIntervalSeconds later); workers elsewhere still find it by polling.
  const localWorkers = new Map<string, string[]>();
  return {
    boss,
    async send(definition, data, sendOptions) {
      const id = await boss.send(definition.name, data, sendOptions ?? {});
      if (!id) throw new Error(`Job ${definition.name} was not queued`);
      if (!sendOptions?.startAfter) {
        for (const worker of localWorkers.get(definition.name) ?? []) boss.notifyWorker(worker);
      }
      return id;
    },
    isFinalAttempt: (job) => job.retryCount >= job.retryLimit,
    async startWorkers() {
      if (workersStarted) return;
      workersStarted = true;
      for (const definition of options.definitions) {
        const concurrency = definition.concurrency ?? 2;
        const ids: string[] = [];
        localWorkers.set(definition.name, ids);
        for (let i = 0; i < concurrency; i++) {
          const id = await boss.work<object>(
            definition.name,
            {
              includeMetadata: true,
              batchSize: 1,
              pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
            },
            async (jobs) => {
              for (const job of jobs)
                await definition.handler(job as PgBoss.JobWithMetadata<never>);
            },
          );
          ids.push(id);
        }
      }
    },
    async stop(timeoutMs = 30_000) {
      await boss.stop({ graceful: true, wait: true, close: false, timeout: timeoutMs });
      stopped = true;
    },
  };
}
