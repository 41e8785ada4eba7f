/**
 * Continuous collection under a device sync and a backfill, on PostgreSQL, with the API (this
 * process, listening for Google's webhooks) and two worker processes (`npm run start:worker`),
 * the sandbox playing Google in its own process at 300 requests per user per minute:
 *
 *   1. 200 participants, connected through the sandbox's real OAuth consent and enrolled days
 *      ago, whose devices last synced at yesterday's midnight (their time), each sync yesterday
 *      at once. Per partition: notification received (`health_notifications.received_at`) →
 *      partition written (the ledger's `fetched_at`), p50 and p99 (budget p99 ≤ 60 s); the ledger
 *      compared with a clean fetch of the same days (`collectDays` in a separate database) and
 *      the bucket with the ledger (no partition lost or written twice).
 *   2. Calls per participant-day (the sandbox's per-user request counts) against the planned
 *      calls of the notified types for those days (`callsFor`), budget ≤ 1.1 ×.
 *   3. A backfill of 100 new participants × 90 days × the daily and summary types (a new
 *      connection's job, `COLLECTION_TYPES`), wall time against the quota-bound minimum (the
 *      busiest participant's calls ÷ 300 a minute, participants in parallel), budget ≤ 1.2 ×.
 *      Capped at BENCH_BACKFILL_CAP_S (default 300) s: a run not done by then is projected from
 *      its rate, and the figure says so. BENCH_BACKFILL_PARTICIPANTS (default 100) sets how many.
 *   4. The top self-time entries of the workers' CPU profiles (`node --cpu-prof`) during (1).
 *
 *   npm run bench:sync   (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres;
 *                         BENCH_PORT_BASE, default 5400: the API, the sandbox and its SMTP port;
 *                         BENCH_PARTS, default 1,2,3: `3` runs the backfill alone, `1,2` the sync;
 *                         BENCH_KEEP_PROFILES=1 keeps the workers' CPU profiles and says where;
 *                         BENCH_PREPARE_DAYS=0 leaves the sandbox to make part 3's days on their
 *                         first call, inside the measured time)
 */

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { DataType } from '@research/contracts';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { ensureSubscriber } from '../apps/server/src/cli/health-subscriber.js';
import { loadConfig } from '../apps/server/src/config.js';
import { participants } from '../apps/server/src/db/schema/index.js';
import { COLLECTED_TYPES } from '../apps/server/src/modules/collection/index.js';
import { civilDateIn } from '../apps/server/src/modules/dataset/index.js';
import { addDays } from '../apps/server/src/modules/extraction/index.js';
import { studyWithParticipants } from '../apps/server/src/test/wearables-kit.js';
import { connectParticipant } from './lib/connect.js';
import { createBenchDatabase, UNREACHED_RATE_LIMIT } from './lib/database.js';
import { printSummary, summarize } from './lib/profile.js';
import { spawnSandbox } from './lib/sandbox-process.js';
import { runBackfill } from './lib/sync-backfill.js';
import {
  bucketCheck,
  googleTypesOf,
  keyOf,
  midnightIn,
  notificationsByParticipant,
  notifiedPartitions,
  percentile,
  plannedCalls,
  readPartitions,
} from './lib/sync-checks.js';
import { createWorkerPool, readProfiles } from './lib/worker-process.js';

const PARTICIPANTS = Number(process.env.BENCH_PARTICIPANTS ?? 200);
const PORT = Number(process.env.BENCH_PORT_BASE ?? 5400);
/** The sandbox's people live in New York (HEALTH_TIMELINE.homeTimeZone). */
const TZ = 'America/New_York';
const QUOTA = 300;
const PARTS = new Set((process.env.BENCH_PARTS ?? '1,2,3').split(',').map((p) => p.trim()));
/** Parts 1 and 2 are one run (2 counts the calls of 1); 4 is 1's profile. */
const RUN_SYNC = PARTS.has('1') || PARTS.has('2');
const RUN_BACKFILL = PARTS.has('3');

const tmp = await mkdtemp(path.join(os.tmpdir(), 'wrp-bench-sync-'));
const profileDir = path.join(tmp, 'profiles');
const backfillProfileDir = path.join(tmp, 'profiles-backfill');
const sandbox = await spawnSandbox({
  dataDir: path.join(tmp, 'sandbox'),
  ports: { http: PORT + 1, smtp: PORT + 2 },
  // 200 people × 3 days, then 100 × 90 days: no day generated twice (Google's work is not ours).
  env: { SANDBOX_GENERATED_DAYS_CACHE: '12000' },
});
const sandboxAdmin = async (route: string, body?: unknown) => {
  const res = await fetch(`${sandbox.httpUrl}${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
};
const usage = async () =>
  (await sandboxAdmin('/__admin/health/usage')).users as Record<
    string,
    { requests: number; refused: number }
  >;
await sandboxAdmin('/__admin/health', { perUserPerMinute: QUOTA, latencyMs: 0 });

/** What every app of the bench shares: the sandbox as Google, loopback addresses. */
const baseEnv = {
  ...UNREACHED_RATE_LIMIT,
  PORT: String(PORT),
  PUBLIC_URL: `http://127.0.0.1:${PORT}`,
  SANDBOX_PORT: String(PORT + 1),
  SANDBOX_SMTP_PORT: String(PORT + 2),
  EXTRACTION_PER_USER_PER_MINUTE: String(QUOTA),
  COLLECTION_SWEEP_CRON: '',
  COLLECTION_ON_CONNECT: 'false',
};
const databases: Array<Awaited<ReturnType<typeof createBenchDatabase>>> = [];
const apps: Array<Awaited<ReturnType<typeof buildApp>>> = [];
const pools: pg.Pool[] = [];
/** The workers of (1) run on the main database: filled in once it exists. */
const mainEnv: Record<string, string> = {};
const pool1 = createWorkerPool(mainEnv);
let pool3: ReturnType<typeof createWorkerPool> | undefined;

async function appOn(name: string, env: Record<string, string>) {
  const database = await createBenchDatabase(name);
  databases.push(database);
  const fullEnv = { ...database.env, ...baseEnv, ...env };
  const app = await buildApp(loadConfig({ ...fullEnv, RUN_WORKERS: 'false' }));
  apps.push(app);
  await app.ready();
  const pool = new pg.Pool({ connectionString: database.databaseUrl, max: 4 });
  pools.push(pool);
  return { app, pool, env: fullEnv };
}

async function connectAll(
  app: Awaited<ReturnType<typeof buildApp>>,
  world: Awaited<ReturnType<typeof studyWithParticipants>>,
  accounts: string[],
) {
  const ids: string[] = [];
  for (let i = 0; i < accounts.length; i += 10) {
    await Promise.all(
      accounts.slice(i, i + 10).map(async (account, k) => {
        ids[i + k] = await connectParticipant(app, world, i + k, account, `S${i + k + 1}`);
      }),
    );
  }
  return ids;
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const started = performance.now();
const log = (text: string) => console.log(`[${seconds(performance.now() - started)} s] ${text}`);

try {
  const today = civilDateIn(TZ, new Date());
  let printSync = async () => {};
  if (RUN_SYNC) printSync = await runSync();

  // ---- 3. Backfill ------------------------------------------------------------------------
  const backfill = RUN_BACKFILL
    ? await runBackfill({
        appOn,
        workers: (env) => {
          pool3 = createWorkerPool(env);
          return pool3;
        },
        connectAll,
        usage,
        sandboxCpuSeconds: sandbox.cpuSeconds,
        sandboxAdmin,
        tz: TZ,
        today,
        quota: QUOTA,
        log,
        profileDir: backfillProfileDir,
      })
    : undefined;

  // ---- Report -------------------------------------------------------------------------------
  await printSync();
  if (backfill) {
    backfill.print();
    for (const { file, profile } of await readProfiles(backfillProfileDir)) {
      printSummary(
        `(3) ${path.basename(file)} — the last ${seconds(backfill.windowMs)} s (the backfill)`,
        summarize(lastWindow(profile, backfill.windowMs * 1000), 15),
      );
    }
  }
  console.log(
    `\nLoad average: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(
        ' ',
      )} (${os.cpus().length} CPUs); whole bench ${seconds(performance.now() - started)} s.`,
  );
} finally {
  pool1.kill();
  pool3?.kill();
  for (const app of apps) await app.close().catch(() => {});
  for (const pool of pools) await pool.end().catch(() => {});
  for (const database of databases) await database.drop();
  await sandbox.stop();
  if (process.env.BENCH_KEEP_PROFILES) console.log(`The workers' CPU profiles are kept in ${tmp}.`);
  else await rm(tmp, { recursive: true, force: true });
}

/** Parts 1 and 2 (and 4, their profile): run now; answers what prints their figures. */
async function runSync() {
  // ---- 1. One day synced by 200 participants at once ------------------------------------
  const main = await appOn('sync', {});
  Object.assign(mainEnv, main.env);
  await main.app.listen({ port: PORT, host: '127.0.0.1' });
  // As main.ts does on the local defaults: this API registers itself as the webhook subscriber.
  await ensureSubscriber(loadConfig(main.env));
  const world = await studyWithParticipants(main.app);
  const accounts = Array.from(
    { length: PARTICIPANTS },
    (_, i) => `bench.sync.${String(i + 1).padStart(3, '0')}@gmail.test`,
  );
  const ids = await connectAll(main.app, world, accounts);
  log(`${PARTICIPANTS} participants connected through the sandbox's OAuth consent.`);

  const today = civilDateIn(TZ, new Date());
  const day = addDays(today, -1);
  const from = midnightIn(TZ, day);
  const until = midnightIn(TZ, today);
  // Enrolled three days before the synced day; devices last synced at its start (silently).
  await main.app.platform.db
    .update(participants)
    .set({ enrolledAt: new Date(from - 3 * 86_400_000) })
    .where(eq(participants.studyId, world.study.id));
  for (const email of accounts) {
    await sandboxAdmin('/__admin/health/sync', { email, until: new Date(from).toISOString() });
  }

  await Promise.all([
    pool1.start('worker 1', { profileDir }),
    pool1.start('worker 2', { profileDir }),
  ]);
  const before = await usage();
  const syncAt = performance.now();
  let sent = 0;
  for (const email of accounts) {
    const result = await sandboxAdmin('/__admin/health/sync', {
      email,
      until: new Date(until).toISOString(),
    });
    sent += Number(result.notifications);
  }
  log(
    `${PARTICIPANTS} devices synced ${day} (${sent} notifications sent); waiting for the ledger.`,
  );

  const settledAt = await waitFor(async () => {
    const pending = (await sandboxAdmin('/__admin/health/deliveries?state=pending'))
      .deliveries as unknown[];
    if (pending.length > 0) return false;
    const { rows } = await main.pool.query(
      `select (select count(*) from health_notifications)::int as received,
              (select count(*) from health_notifications where resolved_at is null)::int as unresolved,
              (select count(*) from health_notification_work where state = 'pending')::int as work,
              (select count(*) from pgboss.job where name = 'collection-notified'
                 and state in ('created', 'retry', 'active'))::int as jobs`,
    );
    const r = rows[0];
    return r.received >= sent && r.unresolved === 0 && r.work === 0 && r.jobs === 0;
  }, 15 * 60_000);
  const phaseMs = settledAt - syncAt;
  await pool1.stopAll();
  const stoppedAt = performance.now();
  log(`All notified work done ${seconds(phaseMs)} s after the first sync; workers stopped.`);
  const after = await usage();

  const collected = COLLECTED_TYPES;
  const ledger = await readPartitions(main.pool, world.study.id);
  const expected = await notifiedPartitions(main.pool, world.study.id, collected);
  const received = await notificationsByParticipant(main.pool, world.study.id);
  const { rows: jobRows } = await main.pool.query(
    `select state, count(*)::int as n from pgboss.job where name = 'collection-notified' group by state`,
  );

  const byDate = new Map<string, number>();
  for (const p of ledger)
    byDate.set(`${p.date} ${p.state}`, (byDate.get(`${p.date} ${p.state}`) ?? 0) + 1);
  const latFirst: number[] = [];
  const latLast: number[] = [];
  const states = new Map<string, number>();
  let noNotification = 0;
  for (const p of ledger) {
    states.set(p.state, (states.get(p.state) ?? 0) + 1);
    const types = googleTypesOf(p.dataType);
    const times = (received.get(p.participantId) ?? [])
      .filter((n) => types.has(n.dataType))
      .map((n) => n.receivedAt.getTime());
    if (!p.fetchedAt || times.length === 0) {
      noNotification += 1;
      continue;
    }
    latFirst.push((p.fetchedAt.getTime() - Math.min(...times)) / 1000);
    latLast.push((p.fetchedAt.getTime() - Math.max(...times)) / 1000);
  }
  latFirst.sort((a, b) => a - b);
  latLast.sort((a, b) => a - b);
  const ledgerKeys = new Set(ledger.map(keyOf));
  const missing = [...expected.keys.keys()].filter((k) => !ledgerKeys.has(k));
  const extra = [...ledgerKeys].filter((k) => !expected.keys.has(k));
  const bucket = await bucketCheck(main.app, world.study.id, ledger);

  // Calls: the sandbox's count per user, during the phase.
  const { rows: conns } = await main.pool.query(
    'select participant_id, health_user_id from wearable_connections where study_id = $1',
    [world.study.id],
  );
  let calls = 0;
  let refused = 0;
  for (const c of conns) {
    calls += (after[c.health_user_id]?.requests ?? 0) - (before[c.health_user_id]?.requests ?? 0);
    refused += (after[c.health_user_id]?.refused ?? 0) - (before[c.health_user_id]?.refused ?? 0);
  }
  const planned = [...expected.keys.values()].reduce(
    (sum, k) => sum + plannedCalls(k.dataType, k.date, k.date),
    0,
  );
  const participantDays = new Set(
    [...expected.keys.values()].map((k) => `${k.participantId}/${k.date}`),
  ).size;
  await main.app.close();

  // ---- The same days, fetched clean into a database of their own -------------------------
  const clean = await appOn('sync_clean', {});
  const cleanWorld = await studyWithParticipants(clean.app);
  const cleanIds = await connectAll(clean.app, cleanWorld, accounts);
  await clean.app.platform.db
    .update(participants)
    .set({ enrolledAt: new Date(from - 3 * 86_400_000) })
    .where(eq(participants.studyId, cleanWorld.study.id));
  const byParticipant = new Map<string, Map<DataType, string[]>>();
  for (const k of expected.keys.values()) {
    const plan = byParticipant.get(k.participantId) ?? new Map<DataType, string[]>();
    plan.set(k.dataType, [...(plan.get(k.dataType) ?? []), k.date]);
    byParticipant.set(k.participantId, plan);
  }
  const cleanAt = performance.now();
  const queue = ids.map((id, i) => ({ id, cleanId: cleanIds[i] as string }));
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        for (const [type, dates] of byParticipant.get(next.id) ?? []) {
          await clean.app.collection.collectDays({
            participantId: next.cleanId,
            types: [type],
            dates,
            trigger: { kind: 'sweep' },
          });
        }
      }
    }),
  );
  log(`Clean fetch of the same partitions: ${seconds(performance.now() - cleanAt)} s.`);
  const cleanLedger = await readPartitions(clean.pool, cleanWorld.study.id);
  const toMain = new Map(cleanIds.map((id, i) => [id, ids[i] as string]));
  const cleanByKey = new Map(
    cleanLedger.map((p) => [keyOf({ ...p, participantId: toMain.get(p.participantId) ?? '' }), p]),
  );
  // The Parquet rows carry the participant's id (another in the clean database), so the files
  // compared are the pages as received; the rows by their count and the partition's state.
  const differs: string[] = [];
  for (const p of ledger) {
    const c = cleanByKey.get(keyOf(p));
    const fields = !c
      ? ['absent']
      : [
          c.state !== p.state && `state ${p.state}/${c.state}`,
          c.rowCount !== p.rowCount && `rows ${p.rowCount}/${c.rowCount}`,
          JSON.stringify(c.rawFiles.map((f) => f.sha256)) !==
            JSON.stringify(p.rawFiles.map((f) => f.sha256)) &&
            `pages ${p.rawFiles.length}/${c.rawFiles.length}`,
        ].filter(Boolean);
    if (fields.length > 0) differs.push(`${keyOf(p)}: ${fields.join(', ')}`);
  }
  const onlyClean = [...cleanByKey.keys()].filter((k) => !ledgerKeys.has(k));
  const pages = cleanLedger.reduce((sum, p) => sum + p.rawFiles.length, 0);
  await clean.app.close();

  // ---- 4. Profiles of the workers during (1) ----------------------------------------------
  const profiles = await readProfiles(profileDir);
  const windowUs = (stoppedAt - syncAt) * 1000;

  return async () => {
    console.log(
      `\n1. ${PARTICIPANTS} participants sync ${day} at once (two workers, ${QUOTA}/min/user)`,
    );
    console.log(
      `   notifications: ${sent} sent, work rows ${expected.workRows} (${expected.wholeRange} whole-range, ${expected.notDone} not done); collection-notified jobs: ${jobRows.map((r) => `${r.state} ${r.n}`).join(', ')}`,
    );
    console.log(`   all work done ${seconds(phaseMs)} s after the first sync`);
    console.log(
      `   partitions: ${ledger.length} (${[...states].map(([s, n]) => `${s} ${n}`).join(', ')}); expected from the work rows ${expected.keys.size}; missing ${missing.length}, unexpected ${extra.length}, without a notification ${noNotification}`,
    );
    console.log(
      `   by day: ${[...byDate]
        .sort()
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}`,
    );
    console.log(
      `   latency notification received → partition written, from the first notification of its types: p50 ${percentile(latFirst, 50).toFixed(1)} s, p99 ${percentile(latFirst, 99).toFixed(1)} s, max ${percentile(latFirst, 100).toFixed(1)} s (budget p99 ≤ 60 s: ${percentile(latFirst, 99) <= 60 ? 'met' : 'NOT met'})`,
    );
    console.log(
      `   … from the last notification of its types: p50 ${percentile(latLast, 50).toFixed(1)} s, p99 ${percentile(latLast, 99).toFixed(1)} s`,
    );
    console.log(
      `   clean fetch (collectDays, separate database): ${cleanLedger.length} partitions; ${ledger.length - differs.length} equal (state, row count, every page's SHA-256), ${differs.length} differ, ${onlyClean.length} only in the clean fetch${differs.length ? `: ${differs.slice(0, 5).join('; ')}` : ''}`,
    );
    console.log(
      `   bucket: ${bucket.objects} objects; ledger files missing ${bucket.missing}, listed twice ${bucket.listedTwice}, objects no partition lists ${bucket.unlisted}`,
    );
    console.log(
      `\n2. Calls per participant-day (${PARTICIPANTS} synced days; the notifications name ${participantDays} participant-days)`,
    );
    console.log(
      `   real (sandbox count): ${calls} (${(calls / PARTICIPANTS).toFixed(2)} a synced day; ${refused} refused with 429)`,
    );
    console.log(
      `   planned (callsFor of the notified types and days): ${planned} (${(planned / PARTICIPANTS).toFixed(2)} a synced day); with the pages the data needs (clean fetch): ${pages} (${(pages / PARTICIPANTS).toFixed(2)})`,
    );
    console.log(
      `   ratio: ${(calls / planned).toFixed(3)} × planned, ${(calls / pages).toFixed(3)} × planned with pages (budget ≤ 1.1: ${calls / pages <= 1.1 ? 'met' : 'NOT met'})`,
    );
    for (const { file, profile } of profiles) {
      printSummary(
        `(1) ${path.basename(file)} — the last ${seconds(windowUs / 1000)} s (the sync to the workers' stop)`,
        summarize(lastWindow(profile, windowUs), 15),
      );
    }
  };
}

/** Polls `done` every 250 ms; answers the moment it first held. */
async function waitFor(done: () => Promise<boolean>, timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const at = performance.now();
    if (await done()) return at;
    if (at > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The profile's samples of its last `windowUs` microseconds. */
function lastWindow<
  P extends { samples: number[]; timeDeltas: number[]; startTime: number; endTime: number },
>(profile: P, windowUs: number): P {
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  let t = profile.startTime;
  const from = profile.endTime - windowUs;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    if (t >= from) {
      samples.push(id);
      timeDeltas.push(profile.timeDeltas[i] ?? 0);
    }
  });
  return { ...profile, samples, timeDeltas };
}
