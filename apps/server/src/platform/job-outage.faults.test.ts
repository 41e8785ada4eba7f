import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../db/client.js';
import { startTcpProxy, type TcpProxy } from '../test/tcp-proxy.js';
import { cloneDatabase, eventually, testDatabaseKind } from '../test/test-app.js';
import { defineJob, startJobQueue } from './jobs.js';

/**
 * The job queue while its database is away (cut by a TCP proxy): a job's end is recorded once the
 * database is back instead of escaping as an uncaught rejection, and a job whose last attempt
 * met the outage is queued again rather than lost. PostgreSQL only.
 */

const onPostgres = testDatabaseKind() === 'postgres';
if (!onPostgres) {
  console.log('job-outage.faults.test.ts: skipped (needs PostgreSQL: set TEST_DATABASE_URL)');
}

let dir: string;
let proxy: TcpProxy;
let database: Database;
let drop: () => Promise<void>;
const uncaught: unknown[] = [];
const recordUncaught = (reason: unknown) => uncaught.push(reason);

beforeAll(async () => {
  if (!onPostgres) return;
  dir = await mkdtemp(path.join(os.tmpdir(), 'wrp-job-outage-'));
  const clone = await cloneDatabase(dir);
  drop = clone.drop;
  const url = new URL(clone.env.DATABASE_URL as string);
  proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
  database = await openDatabase({ kind: 'postgres', url: proxy.via(url.toString()) });
  process.on('unhandledRejection', recordUncaught);
}, 60_000);

afterAll(async () => {
  process.off('unhandledRejection', recordUncaught);
  await proxy?.restore();
  await database?.close();
  await proxy?.close();
  await drop?.();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!onPostgres)('a job whose last attempt meets a database outage', () => {
  it('is queued again and done once the database is back; nothing escapes uncaught', async () => {
    const runs: string[] = [];
    const events: string[] = [];
    const lastAttempt = defineJob<{ n: number }>({
      name: 'outage-last-attempt',
      retryLimit: 0,
      retryDelaySeconds: 1,
      handler: async (job) => {
        runs.push(job.id);
        if (runs.length === 1) {
          // The database goes away in the middle of the work, for two seconds.
          await proxy.cut();
          setTimeout(() => void proxy.restore(), 2_000);
          await database.executor.executeSql('select 1', []);
        }
      },
    });
    const jobs = await startJobQueue({
      executor: database.executor,
      definitions: [lastAttempt],
      pollingIntervalSeconds: 0.5,
      onUnavailable: (reason) => events.push(`unavailable ${reason}`),
      onAvailable: () => events.push('available'),
    });
    try {
      await jobs.startWorkers();
      const first = await jobs.send(lastAttempt, { n: 1 });
      await eventually(async () => runs.length >= 2, 30_000).catch((error: Error) => {
        throw new Error(`${error.message}: runs ${runs.length}, events [${events.join(', ')}]`);
      });
      const state = async (id: string) => {
        const { rows } = await database.executor.executeSql(
          'select state, output from pgboss.job where id = $1',
          [id],
        );
        return rows[0] as { state: string; output: { message?: string } } | undefined;
      };
      const copy = runs[1] as string;
      expect(copy).not.toBe(first);
      // The copy is done; the first attempt's end was recorded after the outage, saying why.
      await eventually(async () => (await state(copy))?.state === 'completed', 15_000);
      const original = await state(first);
      expect(original?.state).toBe('failed');
      expect(original?.output.message).toMatch(/database was out of reach .*queued again as/);
      expect(runs).toHaveLength(2);
      expect(events[0]).toMatch(/^unavailable /);
      expect(events).toContain('available');
      expect(uncaught).toEqual([]);
    } finally {
      await jobs.stop(2_000);
    }
  }, 60_000);
});
