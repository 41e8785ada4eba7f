import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SERVICE_MESSAGES } from '@research/contracts';
import type { Sandbox } from '@research/sandbox';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, someAddress } from '../test/auth-helpers.js';
import { extractionKit } from '../test/extraction-kit.js';
import { compareRows, reportFault, runRows } from '../test/fault-report.js';
import { admin } from '../test/global-setup.js';
import { spawnServer } from '../test/spawn-server.js';
import { startTcpProxy, type TcpProxy } from '../test/tcp-proxy.js';
import {
  cloneDatabase,
  createTestApp,
  eventually,
  freePort,
  type TestApp,
  testDatabaseKind,
} from '../test/test-app.js';
import { studyWithParticipants } from '../test/wearables-kit.js';
import { extractionJobs, extractionTasks, studies } from './schema/index.js';

/**
 * The database goes away under a running app (its connections cut, new ones refused, by a TCP
 * proxy between the app and PostgreSQL) and comes back. The same app must answer 503 meanwhile,
 * serve again after, and finish an extraction that was under way: same files as a clean run,
 * nothing lost, nothing twice. PostgreSQL only: PGlite runs inside the process and cannot be cut.
 */

const onPostgres = testDatabaseKind() === 'postgres';
if (!onPostgres) {
  console.log('db-outage.faults.test.ts: skipped (needs PostgreSQL: set TEST_DATABASE_URL)');
}

let testApp: TestApp;
let app: FastifyInstance;
let sandbox: Sandbox;
let proxy: TcpProxy;
let world: Awaited<ReturnType<typeof studyWithParticipants>>;
let kit: ReturnType<typeof extractionKit>;
const uncaught: unknown[] = [];
const recordUncaught = (reason: unknown) => uncaught.push(reason);

beforeAll(async () => {
  if (!onPostgres) return;
  const target = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://127.0.0.1:5432');
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  testApp = await createTestApp({ databaseUrl: (url) => proxy.via(url) });
  app = testApp.app;
  sandbox = testApp.sandbox as Sandbox;
  world = await studyWithParticipants(app);
  kit = extractionKit({ app, world });
  process.on('unhandledRejection', recordUncaught);
  process.on('uncaughtException', recordUncaught);
}, 90_000);

// Closing after an outage waits for pg-boss's graceful stop (up to 30 s for a job still in
// hand) and then drops the database: more than the default minute on a loaded machine.
afterAll(async () => {
  process.off('unhandledRejection', recordUncaught);
  process.off('uncaughtException', recordUncaught);
  sandbox?.health.setControls({ latencyMs: 0 });
  await proxy?.restore();
  await testApp?.close();
  await proxy?.close();
}, 150_000);

const call = (options: InjectOptions) => app.inject({ remoteAddress: someAddress(), ...options });

const TYPES = ['activity_steps_intraday', 'heartrate_timeseries', 'sleep_log', 'profile'];

describe.skipIf(!onPostgres)('the database goes away and comes back', () => {
  it('answers 503 meanwhile, then the same app serves and the run under way completes like a clean one', async (context) => {
    const participant = await kit.connected('faults.outage@gmail.test');
    const clean = await kit.startRun(participant.id, 'Clean', TYPES);
    expect((await kit.finished(clean, 90_000)).status).toBe('completed');
    const expected = await kit.objectsOf(clean);

    // Each provider call takes 0.4 s, so the run is under way when the database goes.
    sandbox.health.setControls({ latencyMs: 400 });
    const runId = await kit.startRun(participant.id, 'Through an outage', TYPES);
    await eventually(async () => {
      const [job] = await app.platform.db
        .select({ done: extractionJobs.callsDone })
        .from(extractionJobs)
        .where(eq(extractionJobs.runId, runId));
      return (job?.done ?? 0) > 0;
    }, 30_000);

    await proxy.cut();
    const cutAt = Date.now();
    const ready = await call({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({
      status: 'not_ready',
      checks: { database: false, migrations: false },
    });
    const list = await call({
      method: 'GET',
      url: `/api/studies/${world.study.id}/extraction-jobs`,
      headers: bearer(world.owner.token),
    });
    expect(list.statusCode).toBe(503);
    expect(list.headers['retry-after']).toBe('60');
    expect(list.json()).toEqual({
      success: false,
      error: SERVICE_MESSAGES.databaseUnavailable,
      message: SERVICE_MESSAGES.databaseUnavailable,
      code: 'DATABASE_UNAVAILABLE',
    });
    // Out for a few seconds: workers poll, the lease is not renewed, job ends cannot be recorded.
    while (Date.now() - cutAt < 6_000) {
      expect((await call({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, 500));
    }
    expect((await call({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
    sandbox.health.setControls({ latencyMs: 0 });
    await proxy.restore();

    // The same app, in the same process, is ready again and stores a write made now.
    let lastError = '';
    await eventually(async () => {
      await app.platform.database.executor.executeSql('select 1', []).catch((error: Error) => {
        lastError = `${(error as { code?: string }).code} ${error.message}`;
      });
      return (await call({ method: 'GET', url: '/readyz' })).statusCode === 200;
    }, 30_000).catch((error: Error) => {
      throw new Error(`${error.message}: ${lastError}`);
    });
    const update = await call({
      method: 'PUT',
      url: `/api/studies/${world.study.id}`,
      headers: bearer(world.owner.token),
      payload: { description: 'Written after the outage' },
    });
    expect(update.statusCode, update.body).toBe(200);
    const [study] = await app.platform.db
      .select({ description: studies.description })
      .from(studies)
      .where(eq(studies.id, world.study.id));
    expect(study?.description).toBe('Written after the outage');

    // The run that was under way completes (its holder's lease lapses and the watch hands it on).
    const run = await kit.finished(runId, 150_000).catch(async (error: Error) => {
      // Where it stopped: the job's lease and pg-boss's copies.
      const state = await app.platform.db.execute(
        sql`select status, lease_generation, lease_expires_at, now() as now, (select json_agg(json_build_object('name', name, 'state', state, 'retry', retry_count, 'start', start_after)) from pgboss.job where name like 'extraction-%') as queue from extraction_jobs where run_id = ${runId}`,
      );
      throw new Error(`${error.message}: ${JSON.stringify((state as { rows: unknown[] }).rows)}`);
    });
    const rows = compareRows(
      await runRows(app.platform.objectStore, kit.bucket(), clean),
      await runRows(app.platform.objectStore, kit.bucket(), runId),
    );
    reportFault(context, { fault: 'database loss (6 s, mid-run)', outcome: run.status, ...rows });
    expect(run.status).toBe('completed');
    expect(rows).toMatchObject({ rowsLost: 0, duplicates: 0 });
    expect(rows.rowsExpected).toBeGreaterThan(0);
    const tasks = await app.platform.db
      .select({ status: extractionTasks.status })
      .from(extractionTasks)
      .where(eq(extractionTasks.runId, runId));
    expect(tasks.map((t) => t.status)).toEqual(tasks.map(() => 'completed'));
    // Rows lost 0, duplicates 0: the same files as the clean run, byte for byte.
    const actual = await kit.objectsOf(runId);
    expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [key, object] of actual) {
      if (key !== 'manifest.json') expect(object.sha256, key).toBe(expected.get(key)?.sha256);
    }
    const steps = await kit.csvRows(runId, 'activity_steps_intraday');
    expect(steps.length).toBe((await kit.csvRows(clean, 'activity_steps_intraday')).length);
    expect(new Set(steps.map((row) => JSON.stringify(row))).size).toBe(steps.length);
    // Nothing escaped as an uncaught failure while the database was away.
    expect(uncaught).toEqual([]);
    // And no copy of the participant's job is left to run.
    await eventually(async () => {
      const open = await app.platform.db.execute(
        sql`select count(*)::int as n from pgboss.job where name = 'extraction-participant' and state in ('created', 'retry', 'active')`,
      );
      return Number((open as unknown as { rows: { n: number }[] }).rows[0]?.n) === 0;
    }, 30_000);
  }, 300_000);
});

describe.skipIf(!onPostgres)('a server process whose database goes away', () => {
  it('stays up answering 503, and the same process serves and stores a write once it is back', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wrp-outage-'));
    const database = await cloneDatabase(dataDir);
    const direct = database.env.DATABASE_URL as string;
    const target = new URL(direct);
    const cut = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const server = await spawnServer({
      DATA_DIR: dataDir,
      DATABASE_URL: cut.via(direct),
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      PUBLIC_URL: 'http://localhost:3000',
      WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
      SMTP_URL: `smtp://127.0.0.1:${await freePort()}`,
    });
    const request = async (url: string, init?: RequestInit) => {
      const res = await fetch(`${server.url}${url}`, init);
      return { res, body: (await res.json()) as Record<string, unknown> };
    };
    const post = (url: string, body: unknown) =>
      request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    try {
      const { body: pid } = await request('/test/pid');
      expect(pid.pid).toBe(server.child.pid);

      await cut.cut();
      const ready = await request('/readyz');
      expect(ready.res.status).toBe(503);
      expect(ready.body).toMatchObject({ status: 'not_ready', checks: { database: false } });
      const login = await post('/api/auth/login', {
        email: 'someone@example.org',
        password: 'a password',
      });
      expect(login.res.status).toBe(503);
      expect(login.res.headers.get('retry-after')).toBe('60');
      expect(login.body).toEqual({
        success: false,
        error: SERVICE_MESSAGES.databaseUnavailable,
        message: SERVICE_MESSAGES.databaseUnavailable,
        code: 'DATABASE_UNAVAILABLE',
      });
      // A statement nobody awaits fails too; the workers' polls fail for a few seconds.
      expect((await request('/test/stray/query')).res.status).toBe(200);
      await new Promise((r) => setTimeout(r, 5_000));
      expect(server.child.exitCode).toBeNull();
      expect((await request('/healthz')).res.status).toBe(200);

      await cut.restore();
      await eventually(async () => (await request('/readyz')).res.status === 200, 20_000);
      expect((await request('/test/pid')).body).toEqual(pid);
      const email = `after.outage.${randomBytes(3).toString('hex')}@example.org`;
      const register = await post('/api/auth/register', {
        email,
        password: 'correct horse battery',
        displayName: 'After Outage',
      });
      expect(register.res.status, JSON.stringify(register.body)).toBe(201);
      let stored = 0;
      await admin(direct, async (client) => {
        const { rows } = await client.query<{ n: number }>(
          'select count(*)::int as n from users where email = $1',
          [email],
        );
        stored = rows[0]?.n ?? 0;
      });
      expect(stored).toBe(1);

      const output = server.output();
      expect(output).toMatch(/database unavailable: job workers wait/);
      expect(output).toMatch(/database answers again: job workers resume/);
      expect(output).toMatch(
        /"reason":"ECONNREFUSED".*database unavailable \(uncaught\); still serving/,
      );
      expect(output).not.toMatch(/uncaught failure/);
      expect(output).not.toContain('someone@example.org');
      // A clean stop still works after the outage.
      expect(await server.stop()).toBe(0);
    } finally {
      await server.stop();
      await cut.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
