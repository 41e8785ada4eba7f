import { execFileSync } from 'node:child_process';
import os from 'node:os';
import type { DataType } from '@research/contracts';
import { eq } from 'drizzle-orm';
import type pg from 'pg';
import type { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { participants } from '../../apps/server/src/db/schema/index.js';
import {
  COLLECTED_TYPES,
  fetchUnits,
  unitCalls,
} from '../../apps/server/src/modules/collection/index.js';
import { addDays } from '../../apps/server/src/modules/extraction/index.js';
import { studyWithParticipants } from '../../apps/server/src/test/wearables-kit.js';
import { cpuSecondsByName, machineBusySeconds, processCpuSeconds } from './cpu.js';
import { ALL_SCOPES, midnightIn, plannedCalls } from './sync-checks.js';
import type { createWorkerPool } from './worker-process.js';

/**
 * Part 3 of bench/sync.ts: new connections whose enrolment lies 90 days back, each backfilled by
 * its connection job (`COLLECTION_ON_CONNECT`, `COLLECTION_BACKFILL_DAYS` 90) over the daily and
 * summary types (`COLLECTION_TYPES`), by two worker processes started once all are connected.
 */

const PARTICIPANTS = Number(process.env.BENCH_BACKFILL_PARTICIPANTS ?? 100);
const DAYS = 90;
const CAP_S = Number(process.env.BENCH_BACKFILL_CAP_S ?? 300);
/** BENCH_PREPARE_DAYS=0: the sandbox makes each day's data on its first call, inside the window. */
const PREPARE = process.env.BENCH_PREPARE_DAYS !== '0';
/** Every collected type but the minute and second ones. */
export const DAILY_TYPES: DataType[] = COLLECTED_TYPES.filter((t) => !t.includes('intraday'));
/** A connection's session: its settings and paired devices (time zone, last sync). */
const SESSION_CALLS = 2;

type App = Awaited<ReturnType<typeof buildApp>>;

export async function runBackfill(deps: {
  appOn: (
    name: string,
    env: Record<string, string>,
  ) => Promise<{ app: App; pool: pg.Pool; env: Record<string, string> }>;
  workers: (env: Record<string, string>) => ReturnType<typeof createWorkerPool>;
  connectAll: (
    app: App,
    world: Awaited<ReturnType<typeof studyWithParticipants>>,
    accounts: string[],
  ) => Promise<string[]>;
  usage: () => Promise<Record<string, { requests: number; refused: number }>>;
  /** CPU seconds the sandbox (Google's side) has used so far. */
  sandboxCpuSeconds: () => Promise<number>;
  /** A POST (or GET without a body) to the sandbox's admin routes. */
  sandboxAdmin: (route: string, body?: unknown) => Promise<unknown>;
  tz: string;
  today: string;
  quota: number;
  log: (text: string) => void;
  /** Where the workers write their CPU profiles. */
  profileDir: string;
}) {
  const { app, pool, env } = await deps.appOn('sync_backfill', {
    COLLECTION_ON_CONNECT: 'true',
    COLLECTION_TYPES: DAILY_TYPES.join(','),
    COLLECTION_BACKFILL_DAYS: String(DAYS),
    // Every participant in flight at once: the quota, not the workers' slots, is to bound it.
    COLLECTION_CONCURRENCY: String(Math.ceil(PARTICIPANTS / 2)),
    // About a connection per job in flight (two workers: 2 × 30, within PostgreSQL's 100).
    DATABASE_POOL_SIZE: '30',
  });
  const world = await studyWithParticipants(app);
  const accounts = Array.from(
    { length: PARTICIPANTS },
    (_, i) => `bench.backfill.${String(i + 1).padStart(3, '0')}@gmail.test`,
  );
  // Their connection jobs are queued as they connect; no worker runs yet.
  await deps.connectAll(app, world, accounts);
  const first = addDays(deps.today, -(DAYS - 1));
  await app.platform.db
    .update(participants)
    .set({ enrolledAt: new Date(midnightIn(deps.tz, first) + 3_600_000) })
    .where(eq(participants.studyId, world.study.id));
  deps.log(`${PARTICIPANTS} backfill participants connected; ${DAYS} days ${first}…${deps.today}.`);
  if (PREPARE) {
    // Google holds these days before anyone asks: the sandbox makes them now, not in the window.
    await deps.sandboxAdmin('/__admin/health/prepare', {
      emails: accounts,
      from: first,
      to: deps.today,
    });
    deps.log("The sandbox made the participants' days ahead of the calls.");
  }

  const before = await deps.usage();
  // What earlier runs left for the disk to write (tens of thousands of files, and their removal)
  // is written now, not during this run's time.
  execFileSync('sync');
  const pool3 = deps.workers(env);
  // Wall-clock times (Date.now), comparable with the database's own timestamps below.
  let firstReady = Number.POSITIVE_INFINITY;
  const sandboxAtStart = await deps.sandboxCpuSeconds();
  const postgresAtStart = await cpuSecondsByName('postgres');
  const machineAtStart = await machineBusySeconds();
  const cpuFrom = Date.now();
  // Each worker's CPU counts from its start (tsx compiling the server included: a few seconds).
  const workerPids = await Promise.all(
    ['backfill worker 1', 'backfill worker 2'].map((name) =>
      pool3.start(name, { profileDir: deps.profileDir }).then((child) => {
        firstReady = Math.min(firstReady, Date.now());
        return child.pid ?? 0;
      }),
    ),
  );
  const expected = PARTICIPANTS * DAYS * DAILY_TYPES.length;
  let done = 0;
  let finished = false;
  let elapsed = 0;
  for (;;) {
    await new Promise((r) => setTimeout(r, 2_000));
    const { rows } = await pool.query(
      `select (select count(*) from dataset_partitions where study_id = $1)::int as partitions,
              (select count(*) from pgboss.job where name = 'collection-connection'
                 and state in ('created', 'retry', 'active'))::int as open`,
      [world.study.id],
    );
    done = rows[0].partitions;
    elapsed = (Date.now() - firstReady) / 1000;
    if (rows[0].open === 0 && done > 0) {
      finished = true;
      // The end is the last job's completion, not this poll (up to 2 s later).
      const { rows: last } = await pool.query(
        `select max(completed_on) as at from pgboss.job where name = 'collection-connection'`,
      );
      if (last[0].at) elapsed = (new Date(last[0].at).getTime() - firstReady) / 1000;
      break;
    }
    if (elapsed > CAP_S) break;
  }
  const after = await deps.usage();
  // Where the machine's CPU went: read before the workers stop (their profiles cost CPU to write).
  const workersCpu = await Promise.all(workerPids.map(processCpuSeconds));
  const sandboxCpu = (await deps.sandboxCpuSeconds()) - sandboxAtStart;
  const machineCpu = (await machineBusySeconds()) - machineAtStart;
  // PostgreSQL's processes (a local server): what each used since the start, or since it began.
  let postgresCpu = 0;
  for (const [pid, seconds] of await cpuSecondsByName('postgres')) {
    postgresCpu += seconds - (postgresAtStart.get(pid) ?? 0);
  }
  const cpuSpanS = (Date.now() - cpuFrom) / 1000;
  await pool3.stopAll();
  const windowMs = Date.now() - firstReady;
  const { rows: states } = await pool.query(
    `select state, count(*)::int as n from dataset_partitions where study_id = $1 group by state`,
    [world.study.id],
  );
  const { rows: conns } = await pool.query(
    'select health_user_id from wearable_connections where study_id = $1',
    [world.study.id],
  );
  const perUser = conns.map(
    (c) => (after[c.health_user_id]?.requests ?? 0) - (before[c.health_user_id]?.requests ?? 0),
  );
  const refused = conns.reduce(
    (sum, c) =>
      sum + (after[c.health_user_id]?.refused ?? 0) - (before[c.health_user_id]?.refused ?? 0),
    0,
  );
  const calls = perUser.reduce((a, b) => a + b, 0);

  // The minimum: one participant's calls at the quota (all participants in parallel). The calls
  // are those collection plans: the days before the restatement window as range calls (its
  // fetch units, the same function the job uses), the window's days a day at a time.
  const dates = Array.from({ length: DAYS }, (_, i) => addDays(first, i));
  const restatementDays = loadConfig(env).collection.restatementDays;
  const windowStart = addDays(deps.today, -(restatementDays - 1));
  const planned =
    SESSION_CALLS +
    DAILY_TYPES.reduce(
      (sum, t) => sum + unitCalls(t, fetchUnits(t, dates, windowStart, ALL_SCOPES), ALL_SCOPES),
      0,
    );
  const perDay =
    SESSION_CALLS +
    DAILY_TYPES.reduce((sum, t) => sum + dates.reduce((s, d) => s + plannedCalls(t, d, d), 0), 0);
  const minutes = (n: number) => (n / deps.quota) * 60;
  // Not done: projected from the partitions written so far (the calls come first now, a range's
  // days are written after its calls, so the calls made would understate the rest).
  const wall = finished ? elapsed : (elapsed * expected) / Math.max(1, done);
  const busiest = Math.max(...perUser);
  const workersTotal = workersCpu.reduce((a, b) => a + b, 0);
  return {
    /** From the first worker's start to the workers' stop. */
    windowMs,
    print() {
      console.log(
        `\n3. Backfill: ${PARTICIPANTS} participants × ${DAYS} days × ${DAILY_TYPES.length} types (${DAILY_TYPES.join(', ')}), ${deps.quota}/min/user, two workers × ${Math.ceil(PARTICIPANTS / 2)} participants`,
      );
      console.log(
        `   ${finished ? 'done' : `NOT done within the ${CAP_S} s cap`}: ${done} of ${expected} partitions (${states.map((r) => `${r.state} ${r.n}`).join(', ')}) in ${elapsed.toFixed(1)} s from the first worker's start${finished ? '' : `; projected from the partitions written: ${wall.toFixed(0)} s`}`,
      );
      console.log(
        `   calls (sandbox count): ${calls} (${(calls / PARTICIPANTS).toFixed(1)} a participant), busiest participant ${busiest}, ${refused} refused with 429`,
      );
      console.log(
        `   quota-bound minimum of the calls collection plans (the ${DAYS - restatementDays} days before the ${restatementDays}-day window by range calls, the window a day at a time): ${planned} a participant → ${minutes(planned).toFixed(1)} s; ratio ${(wall / minutes(planned)).toFixed(2)} × (budget ≤ 1.2: ${wall / minutes(planned) <= 1.2 ? 'met' : 'NOT met'})`,
      );
      console.log(
        `   CPU: ${machineCpu.toFixed(1)} s busy of ${(os.cpus().length * cpuSpanS).toFixed(1)} s (${os.cpus().length} CPUs × ${cpuSpanS.toFixed(1)} s from the workers' start); the workers ${workersCpu.map((c) => c.toFixed(1)).join(' + ')} s, the sandbox ${sandboxCpu.toFixed(1)} s, PostgreSQL ${postgresCpu.toFixed(1)} s (its processes alive at the end), the rest (this bench, the system, PostgreSQL's processes that ended) ${(machineCpu - workersTotal - sandboxCpu - postgresCpu).toFixed(1)} s; the budget's wall time allows ${(1.2 * minutes(planned) * os.cpus().length).toFixed(1)} s`,
      );
      console.log(
        `   for comparison, every day a day at a time: ${perDay} calls a participant → ${minutes(perDay).toFixed(1)} s`,
      );
    },
  };
}
