import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import PgBoss10 from 'pg-boss-10';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, openDatabase } from '../db/client.js';
import { admin, clonePrefix, withDatabase } from '../test/global-setup.js';
import { eventually } from '../test/test-app.js';
import { defineJob, type JobQueue, startJobQueue } from './jobs.js';

/**
 * A database whose queue pg-boss 10 made, with jobs in every state, started by this version: the
 * jobs that had not ended go on in pg-boss's new schema under their own ids, the rest stay where
 * an operator can still look them up. The old schema is made by pg-boss 10 itself (installed as
 * `pg-boss-10`), on an empty database so nothing of pg-boss's present version is there before.
 * PGlite always; PostgreSQL as well when TEST_DATABASE_URL is set.
 */

interface Payload {
  label: string;
}

/** The queues the application still defines, and one it no longer does. */
const QUEUE_A = 'v10-carry-a';
const QUEUE_B = 'v10-carry-b';
const QUEUE_GONE = 'v10-carry-gone';
/** Far enough ahead that the delayed job cannot come due while the test runs. */
const DELAY_SECONDS = 60 * 60;

type Kind = 'pglite' | 'postgres';
const kinds: Kind[] = inject('postgresTemplate') ? ['pglite', 'postgres'] : ['pglite'];

/** An empty database of the kind (not the migrated template: that already has pg-boss 12). */
async function emptyDatabase(kind: Kind, dir: string) {
  const postgres = inject('postgresTemplate');
  if (kind === 'postgres' && postgres) {
    // Named like the run's clones, so the run's teardown drops it even if this file cannot.
    const name = `${clonePrefix(postgres.name)}v10_${randomBytes(6).toString('hex')}`;
    await admin(postgres.adminUrl, (c) => c.query(`create database ${name}`).then(() => {}));
    return {
      config: { kind: 'postgres' as const, url: withDatabase(postgres.adminUrl, name) },
      drop: () =>
        admin(postgres.adminUrl, (c) =>
          c.query(`drop database if exists ${name} with (force)`).then(() => {}),
        ),
    };
  }
  return {
    config: { kind: 'pglite' as const, dataDir: path.join(dir, 'db') },
    drop: async () => {},
  };
}

/** The ids of the jobs pg-boss 10 left, by what happened to each. */
interface OldJobs {
  waiting: string;
  delayed: string;
  keyed: string;
  running: string;
  retrying: string;
  completed: string;
  failed: string;
  cancelled: string;
  ofGoneQueue: string;
}

/** What the application did with pg-boss 10: three queues, jobs left in every state. */
async function runVersion10(database: Database): Promise<OldJobs> {
  // No supervision nor schedules: nothing in pg-boss 10 moves a job while the test sets them up.
  const old = new PgBoss10({ db: database.executor, supervise: false, schedule: false });
  const errors: Error[] = [];
  old.on('error', (error) => errors.push(error));
  await old.start();
  for (const name of [QUEUE_A, QUEUE_B, QUEUE_GONE]) {
    await old.createQueue(name, {
      name,
      retryLimit: 2,
      retryDelay: 1,
      retryBackoff: true,
      expireInSeconds: 15 * 60,
    });
  }
  const send = async (name: string, label: string, options: PgBoss10.SendOptions = {}) => {
    const id = await old.send(name, { label }, options);
    if (!id) throw new Error(`pg-boss 10 did not queue ${label}`);
    return id;
  };
  // The jobs a worker takes first are sent first, each queue's alone, so fetch takes exactly them.
  const completed = await send(QUEUE_A, 'completed');
  const retrying = await send(QUEUE_A, 'retrying', { priority: 3 });
  const failed = await send(QUEUE_A, 'failed', { retryLimit: 0 });
  const fetchedA = await old.fetch(QUEUE_A, { batchSize: 10 });
  const running = await send(QUEUE_B, 'running');
  const fetchedB = await old.fetch(QUEUE_B, { batchSize: 10 });
  expect(fetchedA?.map((job) => job.id).sort()).toEqual([completed, retrying, failed].sort());
  expect(fetchedB?.map((job) => job.id)).toEqual([running]);
  await old.complete(QUEUE_A, completed);
  await old.fail(QUEUE_A, retrying, { message: 'first attempt failed' });
  await old.fail(QUEUE_A, failed, { message: 'no retries left' });

  const waiting = await send(QUEUE_A, 'waiting', { priority: 5 });
  const delayed = await send(QUEUE_A, 'delayed', { startAfter: DELAY_SECONDS });
  const keyed = await send(QUEUE_B, 'keyed', { singletonKey: 'study-7', singletonSeconds: 60 });
  const cancelled = await send(QUEUE_B, 'cancelled');
  await old.cancel(QUEUE_B, cancelled);
  const ofGoneQueue = await send(QUEUE_GONE, 'of gone queue');
  await old.stop({ graceful: false, wait: true, close: false });
  expect(errors).toEqual([]);
  return { waiting, delayed, keyed, running, retrying, completed, failed, cancelled, ofGoneQueue };
}

interface JobRow {
  id: string;
  name: string;
  state: string;
  data: Payload;
  priority: number;
  start_after: Date;
  singleton_key: string | null;
}

describe.each(kinds)('a pg-boss 10 database started by this version (%s)', (kind) => {
  let dir: string;
  let drop: () => Promise<void> = async () => {};
  let database: Database;
  let jobs: JobQueue | null = null;
  let ids: OldJobs;
  /** pg-boss 10's jobs as it left them, by id. */
  let before: Map<string, JobRow>;
  const handled: { id: string; name: string; data: Payload }[] = [];
  const errors: string[] = [];
  const outages: string[] = [];

  const definitions = [QUEUE_A, QUEUE_B].map((name) =>
    defineJob<Payload>({
      name,
      retryLimit: 2,
      retryDelaySeconds: 1,
      handler: async (job) => {
        handled.push({ id: job.id, name: job.name, data: job.data });
      },
    }),
  );
  const start = () =>
    startJobQueue({
      executor: database.executor,
      definitions,
      pollingIntervalSeconds: 0.5,
      onError: (error) => errors.push(error.message),
      onUnavailable: (reason) => outages.push(reason),
    });

  const jobsIn = async (schema: string) => {
    const { rows } = await database.executor.executeSql(
      `select id, name, state, data, priority, start_after, singleton_key from ${schema}.job`,
    );
    return new Map((rows as unknown as JobRow[]).map((row) => [row.id, row]));
  };
  const schemas = async () => {
    const { rows } = await database.executor.executeSql(
      `select nspname from pg_namespace where nspname like 'pgboss%' order by nspname`,
    );
    return rows.map((row) => row.nspname as string);
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'wrp-v10-carry-'));
    const empty = await emptyDatabase(kind, dir);
    drop = empty.drop;
    database = await openDatabase(empty.config);
    ids = await runVersion10(database);
    const { rows } = await database.executor.executeSql('select version from pgboss.version');
    expect(rows).toEqual([{ version: 24 }]);
    before = await jobsIn('pgboss');
    expect(
      Object.fromEntries([...before.values()].map((job) => [job.data.label, job.state])),
    ).toEqual({
      waiting: 'created',
      delayed: 'created',
      keyed: 'created',
      running: 'active',
      retrying: 'retry',
      completed: 'completed',
      failed: 'failed',
      cancelled: 'cancelled',
      'of gone queue': 'created',
    });
    jobs = await start();
  });

  afterAll(async () => {
    await jobs?.stop(2_000);
    await database?.close();
    await drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('queues the jobs that had not ended again, with their ids, data, priority and times', async () => {
    const carried = await jobsIn('pgboss');
    const unended = [ids.waiting, ids.delayed, ids.keyed, ids.running, ids.retrying];
    expect([...carried.keys()].sort()).toEqual([...unended].sort());
    for (const id of unended) {
      const old = before.get(id) as JobRow;
      const job = carried.get(id) as JobRow;
      expect({ name: job.name, data: job.data, priority: job.priority }).toEqual({
        name: old.name,
        data: old.data,
        priority: old.priority,
      });
      // A job that was running or waiting for its retry is simply waiting again.
      expect(job.state).toBe('created');
      expect(new Date(job.start_after).getTime()).toBe(new Date(old.start_after).getTime());
    }
    expect(carried.get(ids.keyed)?.singleton_key).toBe('study-7');
    expect(new Date((carried.get(ids.delayed) as JobRow).start_after).getTime()).toBeGreaterThan(
      Date.now() + (DELAY_SECONDS - 5 * 60) * 1000,
    );
  });

  it("keeps pg-boss 10's schema, every job in it, under a name that marks it done", async () => {
    expect(await schemas()).toEqual(['pgboss', 'pgboss_v10_done']);
    const { rows } = await database.executor.executeSql('select version from pgboss.version');
    expect(Number(rows[0]?.version)).toBeGreaterThan(24);
    const kept = await jobsIn('pgboss_v10_done');
    expect(
      new Map([...kept].map(([id, job]) => [id, { state: job.state, data: job.data }])),
    ).toEqual(new Map([...before].map(([id, job]) => [id, { state: job.state, data: job.data }])));
    // Ended jobs and the job of a queue no longer defined are not queued again.
    expect(kept.get(ids.completed)?.state).toBe('completed');
    expect(kept.get(ids.ofGoneQueue)?.state).toBe('created');
  });

  it('runs the carried jobs that are due, and leaves the delayed one for its time', async () => {
    await jobs?.startWorkers();
    const due = [ids.waiting, ids.keyed, ids.running, ids.retrying];
    await eventually(async () => due.every((id) => handled.some((job) => job.id === id)), 20_000);
    const seen = new Map(handled.map((job) => [job.id, job]));
    for (const id of due) {
      const old = before.get(id) as JobRow;
      expect(seen.get(id)).toEqual({ id, name: old.name, data: old.data });
    }
    expect(handled).toHaveLength(due.length);
    // Their ends are recorded too: done, as a finished job of the new schema.
    await eventually(async () => {
      const now = await jobsIn('pgboss');
      return due.every((id) => now.get(id)?.state === 'completed');
    }, 10_000);
    expect((await jobsIn('pgboss')).get(ids.delayed)?.state).toBe('created');
  });

  it('carries nothing more on a later start', async () => {
    const idsBefore = [...(await jobsIn('pgboss')).keys()].sort();
    await jobs?.stop(2_000);
    jobs = await start();
    expect([...(await jobsIn('pgboss')).keys()].sort()).toEqual(idsBefore);
    expect(await schemas()).toEqual(['pgboss', 'pgboss_v10_done']);
  });

  it('reports no error along the way', () => {
    expect(errors).toEqual([]);
    expect(outages).toEqual([]);
  });
});
