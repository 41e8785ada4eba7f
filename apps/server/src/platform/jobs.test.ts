import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { type Database, openDatabase } from '../db/client.js';
import { cloneDatabase, eventually } from '../test/test-app.js';
import { defineJob, startJobQueue } from './jobs.js';

describe('job queue', () => {
  let database: Database;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'wrp-jobs-'));
    const clone = await cloneDatabase(dir);
    const config = loadConfig({ DATA_DIR: dir, ...clone.env });
    database = await openDatabase(config.database);
    cleanup = async () => {
      await database.close();
      await clone.drop();
      await rm(dir, { recursive: true, force: true });
    };
  });
  afterAll(() => cleanup());

  const stateOf = async (id: string) => {
    const { rows } = await database.executor.executeSql(
      'select state, retry_count from pgboss.job where id = $1',
      [id],
    );
    return rows[0] as { state: string; retry_count: number } | undefined;
  };

  it('drops a stored schedule once the definition has no cron any more', async () => {
    const scheduled = (cron?: string) =>
      defineJob<object>({
        name: 'sometimes-scheduled',
        retryLimit: 0,
        retryDelaySeconds: 1,
        ...(cron ? { cron } : {}),
        handler: async () => {},
      });
    const first = await startJobQueue({
      executor: database.executor,
      definitions: [scheduled('0 * * * *')],
    });
    expect((await first.boss.getSchedules('sometimes-scheduled')).map((s) => s.cron)).toEqual([
      '0 * * * *',
    ]);
    await first.stop(1000);
    // The next start, with the setting turned off.
    const second = await startJobQueue({
      executor: database.executor,
      definitions: [scheduled()],
    });
    try {
      expect(await second.boss.getSchedules('sometimes-scheduled')).toEqual([]);
    } finally {
      await second.stop(1000);
    }
  });

  it('retries a failing job with back-off, then records it as failed', async () => {
    const attempts: number[] = [];
    const failing = defineJob<{ n: number }>({
      name: 'always-fails',
      retryLimit: 2,
      retryDelaySeconds: 1,
      handler: async () => {
        attempts.push(Date.now());
        throw new Error('provider unavailable');
      },
    });
    const jobs = await startJobQueue({
      executor: database.executor,
      definitions: [failing],
      pollingIntervalSeconds: 0.5,
    });
    try {
      await jobs.startWorkers();
      const id = await jobs.send(failing, { n: 1 });
      const final = await eventually(async () => {
        const s = await stateOf(id);
        return s?.state === 'failed' ? s : undefined;
      }, 30_000);
      expect(final.retry_count).toBe(2);
      expect(attempts).toHaveLength(3);
      // Back-off: the second wait is longer than the first.
      const [a, b, c] = attempts as [number, number, number];
      expect(c - b).toBeGreaterThan(b - a);
    } finally {
      await jobs.stop();
    }
  }, 45_000);

  it('lets a running job finish before stopping', async () => {
    let started = false;
    let finished = false;
    const slow = defineJob<object>({
      name: 'slow-job',
      retryLimit: 0,
      retryDelaySeconds: 1,
      handler: async () => {
        started = true;
        await new Promise((r) => setTimeout(r, 1500));
        finished = true;
      },
    });
    const jobs = await startJobQueue({
      executor: database.executor,
      definitions: [slow],
      pollingIntervalSeconds: 0.5,
    });
    await jobs.startWorkers();
    const id = await jobs.send(slow, {});
    await eventually(async () => started);
    await jobs.stop(10_000);
    expect(finished).toBe(true);
    // pg-boss may return from a graceful stop while the job's completion is still being written
    // (seen on PostgreSQL under load); the job must end completed, never stay 'active'.
    expect(await eventually(async () => (await stateOf(id))?.state === 'completed', 5_000)).toBe(
      true,
    );
  }, 30_000);

  it('starts a job sent from this process at once, not at the workers’ next poll', async () => {
    const ran: number[] = [];
    const quick = defineJob<object>({
      name: 'quick-job',
      retryLimit: 0,
      retryDelaySeconds: 1,
      handler: async () => {
        ran.push(Date.now());
      },
    });
    const jobs = await startJobQueue({
      executor: database.executor,
      definitions: [quick],
      // Long enough that a job found only by polling would wait for seconds.
      pollingIntervalSeconds: 10,
    });
    try {
      await jobs.startWorkers();
      // Let the workers' first (empty) fetch pass, so they are waiting for the next poll.
      await new Promise((r) => setTimeout(r, 500));
      for (let i = 0; i < 3; i++) {
        const sent = Date.now();
        await jobs.send(quick, {});
        await eventually(async () => ran.length === i + 1, 5_000);
        expect((ran[i] ?? 0) - sent).toBeLessThan(2_000);
        await new Promise((r) => setTimeout(r, 300));
      }
    } finally {
      await jobs.stop();
    }
  }, 30_000);

  it('works through a backlog one job after another, without waiting for the next poll', async () => {
    let ran = 0;
    const step = defineJob<object>({
      name: 'backlog-job',
      retryLimit: 0,
      retryDelaySeconds: 1,
      concurrency: 1,
      handler: async () => {
        ran++;
      },
    });
    const jobs = await startJobQueue({
      executor: database.executor,
      definitions: [step],
      pollingIntervalSeconds: 30,
    });
    try {
      await jobs.startWorkers();
      await new Promise((r) => setTimeout(r, 500));
      // Inserted as a mailing inserts its jobs (in one statement, nobody woken), then woken once,
      // as after its transaction commits.
      await jobs.boss.insert(
        step.name,
        Array.from({ length: 10 }, () => ({ data: {} })),
      );
      jobs.wake(step);
      // One job per poll would be one job in these 10 s.
      await eventually(async () => ran === 10, 10_000);
    } finally {
      await jobs.stop();
    }
  }, 30_000);
  it('looks at an idle queue of many workers once an interval, not once a worker', async () => {
    const idle = defineJob<object>({
      name: 'idle-wide-job',
      retryLimit: 0,
      retryDelaySeconds: 1,
      concurrency: 20,
      handler: async () => {},
    });
    // pg-boss's fetch statements for this queue, counted as the database receives them.
    let fetches = 0;
    const jobs = await startJobQueue({
      executor: {
        executeSql: (text, values) => {
          if (text.includes('SKIP LOCKED') && text.includes(`j.name = '${idle.name}'`)) fetches++;
          return database.executor.executeSql(text, values);
        },
      },
      definitions: [idle],
      pollingIntervalSeconds: 0.5,
    });
    try {
      await jobs.startWorkers();
      // Every worker's first fetch, at start.
      await eventually(async () => fetches >= 20, 5_000);
      const before = fetches;
      await new Promise((r) => setTimeout(r, 4_000));
      // About eight looks in 4 s (each worker polling on its own: 160 fetches).
      expect(fetches - before).toBeGreaterThan(0);
      expect(fetches - before).toBeLessThanOrEqual(12);
      // And a job sent meanwhile from elsewhere (nobody woken here) is still found at a look.
      const id = await jobs.boss.send(idle.name, {});
      await eventually(async () => (await stateOf(id as string))?.state === 'completed', 5_000);
    } finally {
      await jobs.stop();
    }
  }, 30_000);

  it('spreads a backlog over every idle worker at once, each job found waking another', async () => {
    let running = 0;
    let peak = 0;
    let release: () => void = () => {};
    const allRunning = new Promise<void>((resolve) => {
      release = resolve;
    });
    const wide = defineJob<object>({
      name: 'wide-backlog-job',
      retryLimit: 0,
      retryDelaySeconds: 1,
      concurrency: 10,
      // Each job waits until all ten run at once: a worker left idle would hold them all.
      handler: async () => {
        running++;
        peak = Math.max(peak, running);
        if (running === 10) release();
        await allRunning;
        running--;
      },
    });
    const jobs = await startJobQueue({
      executor: database.executor,
      definitions: [wide],
      // Long enough that no worker would find the jobs by its own poll or a look in this test.
      pollingIntervalSeconds: 30,
    });
    try {
      await jobs.startWorkers();
      await new Promise((r) => setTimeout(r, 500));
      await jobs.boss.insert(
        wide.name,
        Array.from({ length: 10 }, () => ({ data: {} })),
      );
      jobs.wake(wide);
      await eventually(async () => peak === 10 && running === 0, 10_000);
    } finally {
      release();
      await jobs.stop();
    }
  }, 30_000);
});
