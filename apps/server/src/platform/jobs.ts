import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import {
  type Db as JobDb,
  type JobWithMetadata,
  PgBoss,
  type QueuePolicy,
  type SendOptions,
  type WorkOptions,
} from 'pg-boss';
import * as pgBossPlans from 'pg-boss/dist/plans.js';
import { databaseUnavailability } from '../db/availability.js';
import type { DbOrTx, SqlExecutor } from '../db/client.js';
import { carryOverVersion10Jobs, setAsideVersion10Schema } from './jobs-v10-carry-over.js';

const PG_BOSS_SCHEMA = pgBossPlans.DEFAULT_SCHEMA;
/**
 * pg-boss records a job's end (complete or fail) after the handler returns; while the database is
 * out of reach that statement fails, pg-boss only reports it, and the job stays active until its
 * expiry (15 minutes) instead of being retried or done. Its statement texts come from pg-boss's own
 * plans, so they are known exactly: one pair per table the queues keep their jobs in, fenced to the
 * attempt the worker fetched (as pg-boss's worker always asks).
 */
const endOfJobStatements = (table: string) => [
  pgBossPlans.completeJobs(PG_BOSS_SCHEMA, table, undefined, true),
  pgBossPlans.failJobsById(PG_BOSS_SCHEMA, table, true),
];
/** What pg-boss reads from an end-of-job statement that recorded nothing. */
const NOTHING_RECORDED = { rows: [{ count: 0, ids: [] }] };
/** Waits between tries while the database is out of reach: 0.5 s, doubling, at most 5 s. */
const outageBackoffMs = (attempt: number) => Math.min(500 * 2 ** attempt, 5_000);
/** Finished jobs are kept two weeks so failures can be inspected, then dropped. */
const KEEP_SECONDS = 14 * 24 * 60 * 60;

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
  /**
   * A running job's worker refreshes it this often (half the interval); one whose worker stopped
   * (a killed process) is failed and retried once the interval passes with no sign of it, instead
   * of holding its job until `expireInSeconds`. At least 10.
   */
  heartbeatSeconds?: number;
  /** Concurrent jobs per worker process. */
  concurrency?: number;
  /** A cron expression (UTC) for jobs that run on a schedule rather than on demand. */
  cron?: string;
  /**
   * pg-boss's queue policy, fixed when the queue is made (`stately`: one job per singleton key
   * queued and one active, so a copy sent meanwhile is refused). Default `standard`.
   */
  policy?: QueuePolicy;
  handler: (job: JobWithMetadata<T>) => Promise<void>;
}

export const defineJob = <T extends object>(definition: JobDefinition<T>) => definition;

/** A definition whose payload type is erased, for lists of different jobs. */
export type AnyJobDefinition = JobDefinition<never>;

export interface JobQueue {
  send<T extends object>(
    definition: JobDefinition<T>,
    data: T,
    options?: SendOptions,
  ): Promise<string>;
  /**
   * Has one of this process's idle workers for the queue fetch at once (they would otherwise find
   * its jobs at the next look, up to the polling interval later); each job it finds wakes another.
   * For jobs inserted inside a transaction, once it has committed.
   */
  wake(definition: JobDefinition<never>): void;
  /** True when this job has no retries left: the handler should record the failure for good. */
  isFinalAttempt(job: JobWithMetadata<object>): boolean;
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
  /** The database went out of reach: workers idle (they keep polling) until it answers. */
  onUnavailable?: (reason: string) => void;
  /** The database answers again after onUnavailable: workers take jobs again. */
  onAvailable?: () => void;
}

export async function startJobQueue(options: JobQueueOptions): Promise<JobQueue> {
  // pg-boss can fetch a batch while `stop` decides nothing is running, then record the job's end
  // after the pool is closed, as a rejection nothing catches. Once stopped, its statements never
  // answer instead: a job left active is handed out again when it expires, as after a crash.
  let stopped = false;
  // Set when stop begins: an end of job that cannot be recorded then is left to pg-boss's expiry.
  let stopping = false;
  let outage: string | null = null;
  const unavailable = (reason: string) => {
    if (outage) return;
    outage = reason;
    options.onUnavailable?.(reason);
  };
  const available = () => {
    if (!outage) return;
    outage = null;
    options.onAvailable?.();
  };
  // pg-boss swallows a worker's failed poll, so the outage is seen here, on every statement.
  const run = async (text: string, values: unknown[] | undefined) => {
    try {
      const result = await options.executor.executeSql(text, values);
      available();
      return result;
    } catch (error) {
      const reason = databaseUnavailability(error);
      if (reason) unavailable(reason);
      throw error;
    }
  };
  /** A job's end, tried until the database answers: the job is then retried or done as usual. */
  const recordEndOfJob = async (text: string, values: unknown[] | undefined) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await run(text, values);
      } catch (error) {
        if (!databaseUnavailability(error)) {
          // Still nobody's to catch: report it; the job stays active until pg-boss's expiry.
          options.onError?.(error as Error);
          return NOTHING_RECORDED;
        }
        if (stopping || stopped) return NOTHING_RECORDED;
        await sleep(outageBackoffMs(attempt));
      }
    }
  };
  // Filled in once the queues exist, from the tables pg-boss says they keep their jobs in.
  const endOfJob = new Set<string>();
  const executor: SqlExecutor = {
    executeSql: (text, values) => {
      if (stopped) return new Promise(() => {});
      return endOfJob.has(text) ? recordEndOfJob(text, values) : run(text, values);
    },
  };
  await setAsideVersion10Schema(options.executor, PG_BOSS_SCHEMA);
  const boss = new PgBoss({ db: executor });
  // Workers and maintenance report a database out of reach on every poll: said once per outage.
  boss.on('error', (error) => {
    const reason = databaseUnavailability(error);
    if (reason) unavailable(reason);
    else options.onError?.(error);
  });
  await boss.start();

  for (const definition of options.definitions) {
    const queue = {
      retryLimit: definition.retryLimit,
      retryDelay: definition.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: definition.expireInSeconds ?? 15 * 60,
      ...(definition.heartbeatSeconds ? { heartbeatSeconds: definition.heartbeatSeconds } : {}),
      retentionSeconds: KEEP_SECONDS,
      deleteAfterSeconds: KEEP_SECONDS,
    };
    // A queue made by an earlier start keeps its own options: update brings them up to date.
    const existing = await boss.getQueue(definition.name);
    if (existing) await boss.updateQueue(definition.name, queue);
    else {
      await boss.createQueue(definition.name, {
        ...queue,
        ...(definition.policy ? { policy: definition.policy } : {}),
      });
    }
    const table = existing?.table ?? (await boss.getQueue(definition.name))?.table;
    for (const statement of endOfJobStatements(table ?? pgBossPlans.COMMON_JOB_TABLE)) {
      endOfJob.add(statement);
    }
    if (definition.cron) await boss.schedule(definition.name, definition.cron, {}, { tz: 'UTC' });
    // A schedule is stored: one a setting has since turned off would otherwise go on firing.
    else await boss.unschedule(definition.name);
  }
  await carryOverVersion10Jobs(boss, options.executor, PG_BOSS_SCHEMA, options.definitions);

  /** Sends the job again, waiting for the database to answer; null if it stops first. */
  async function queueAgain(name: string, data: object): Promise<string | null> {
    for (let attempt = 0; !stopping && !stopped; attempt++) {
      try {
        return (await boss.send(name, data)) ?? null;
      } catch (error) {
        if (!databaseUnavailability(error)) throw error;
      }
      await sleep(outageBackoffMs(attempt));
    }
    return null;
  }

  let workersStarted = false;
  const interval = options.pollingIntervalSeconds ?? 2;
  // This process's workers per queue, and which of them are running a job. An idle queue is looked
  // at once an interval by one idle worker, not by each: a queue of 50 slots polled by all of them
  // made 25 statements a second of a quiet database, a process. Each worker's own poll is only the
  // backstop.
  const backstopSeconds = Math.max(30, interval * 10);
  const localQueues = new Map<string, { ids: string[]; busy: Set<string>; next: number }>();
  /** One idle worker of the queue fetches now, if this process has one; the others stay idle. */
  const wakeOne = (name: string) => {
    const queue = localQueues.get(name);
    if (!queue) return;
    for (let n = 0; n < queue.ids.length; n++) {
      const at = (queue.next + n) % queue.ids.length;
      const id = queue.ids[at] as string;
      if (queue.busy.has(id)) continue;
      queue.next = (at + 1) % queue.ids.length;
      boss.notifyWorker(id);
      return;
    }
  };
  let lookout: NodeJS.Timeout | undefined;
  return {
    boss,
    async send(definition, data, sendOptions) {
      const id = await boss.send(definition.name, data, sendOptions ?? {});
      if (!id) throw new Error(`Job ${definition.name} was not queued`);
      // A job sent here starts at once, not at the next look; workers elsewhere find it then.
      if (!sendOptions?.startAfter) wakeOne(definition.name);
      return id;
    },
    wake: (definition) => wakeOne(definition.name),
    isFinalAttempt: (job) => job.retryCount >= job.retryLimit,
    async startWorkers() {
      if (workersStarted) return;
      workersStarted = true;
      for (const definition of options.definitions) {
        const concurrency = definition.concurrency ?? 2;
        const queue = { ids: [] as string[], busy: new Set<string>(), next: 0 };
        localQueues.set(definition.name, queue);
        for (let i = 0; i < concurrency; i++) {
          // pg-boss waits the polling interval after every fetch, even one that found a job: a
          // worker would take one job per interval (4 workers, 2 s: 2 mails a second). Woken by
          // the job it took, it fetches the next as soon as that one ends, for as long as the
          // queue has any; and it wakes one more idle worker, which does the same, so a backlog
          // spreads over every worker within a fetch each.
          let self: string | undefined;
          const id = await boss.work<object, unknown, WorkOptions & { includeMetadata: true }>(
            definition.name,
            { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: backstopSeconds },
            async (jobs) => {
              if (self) {
                queue.busy.add(self);
                boss.notifyWorker(self);
              }
              wakeOne(definition.name);
              try {
                for (const job of jobs) {
                  try {
                    await definition.handler(job as JobWithMetadata<never>);
                  } catch (error) {
                    const reason = databaseUnavailability(error);
                    if (!reason || job.retryCount < job.retryLimit) throw error;
                    // Its last attempt met an outage the job had no part in: pg-boss would end it
                    // for good. A fresh copy goes in once the database answers; this one fails.
                    unavailable(reason);
                    const copy = await queueAgain(definition.name, job.data);
                    throw new Error(
                      copy
                        ? `The database was out of reach (${reason}); queued again as ${copy}`
                        : `The database was out of reach (${reason}) until shutdown`,
                    );
                  }
                }
              } finally {
                if (self) queue.busy.delete(self);
              }
            },
          );
          self = id;
          queue.ids.push(id);
        }
      }
      // Jobs sent by other processes, or due after a delay, are found at the next look.
      lookout = setInterval(() => {
        for (const name of localQueues.keys()) wakeOne(name);
      }, interval * 1000);
      lookout.unref();
    },
    async stop(timeoutMs = 30_000) {
      stopping = true;
      clearInterval(lookout);
      await boss.stop({ graceful: true, close: false, timeout: timeoutMs });
      stopped = true;
    },
  };
}

/**
 * pg-boss's statements run on the caller's transaction, so a job exists only if that work
 * commits. pg-boss writes `$n` placeholders; each becomes a bound parameter here.
 */
export function jobExecutorOn(tx: DbOrTx): JobDb {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const parts = text.split(/\$(\d+)/);
      const query = sql.join(
        parts.map((part, i) =>
          i % 2 === 0 ? sql.raw(part) : sql.param(values[Number(part) - 1] ?? null),
        ),
      );
      const result = await tx.execute(query);
      // node-postgres answers a result object, PGlite its rows' holder: both carry `rows`.
      return { rows: (result as unknown as { rows: unknown[] }).rows };
    },
  };
}
