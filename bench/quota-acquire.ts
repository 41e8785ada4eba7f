/**
 * What the daily call budget adds to a quota slot: acquires per second and time per acquire,
 * without a budget and with one (counted in the same statement), one at a time and 20 in flight
 * over two quota instances (two "processes"), on PostgreSQL (BENCH_DATABASE_URL, as the other
 * benches) and on PGlite.
 *
 *   npm run bench:quota   (BENCH_CALLS, default 4000)
 */

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Database, openDatabase } from '../apps/server/src/db/client.js';
import { runMigrations } from '../apps/server/src/db/migrate.js';
import { createDbQuota } from '../apps/server/src/modules/extraction/quota.js';
import { createBenchDatabase } from './lib/database.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 4000);
const USERS = 50;
// Nothing waits for a window: the figure is the statement's cost alone.
const LIMITS = { perUserPerMinute: 1_000_000_000, perProjectPerMinute: 1_000_000_000 };

async function measure(database: Database, budget: number | null, inFlight: number) {
  const quotas = [0, 1].map(() =>
    createDbQuota(database.db, { ...LIMITS, dailyCallBudget: budget }),
  );
  const options = { withinDailyBudget: budget !== null };
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async (_, lane) => {
      const quota = quotas[lane % 2] as (typeof quotas)[number];
      while (next < CALLS) {
        const n = next++;
        await quota.acquire(`bench-${n % USERS}`, undefined, options);
      }
    }),
  );
  const ms = performance.now() - started;
  return { perSecond: Math.round((CALLS / ms) * 1000), usPerCall: Math.round((ms / CALLS) * 1000) };
}

const ROUNDS = 5;

async function run(label: string, database: Database) {
  const rows: string[] = [];
  for (const inFlight of [1, 20]) {
    // Warm-up, then the two variants alternating, the median of five kept (the host is shared).
    await measure(database, null, inFlight);
    const none: number[] = [];
    const budgeted: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      none.push((await measure(database, null, inFlight)).usPerCall);
      budgeted.push((await measure(database, 1_000_000_000, inFlight)).usPerCall);
    }
    const median = (xs: number[]) =>
      [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] as number;
    const a = median(none);
    const b = median(budgeted);
    const rate = (us: number) => `${Math.round(1e6 / us)}/s ${us} µs`;
    rows.push(
      `${label.padEnd(10)} ${String(inFlight).padStart(9)} ${rate(a).padStart(20)} ${rate(b).padStart(20)} ${`${(((b - a) / a) * 100).toFixed(0)}%`.padStart(8)}`,
    );
  }
  return rows;
}

const lines = [
  `${'database'.padEnd(10)} ${'in flight'.padStart(9)} ${'no budget'.padStart(20)} ${'budget'.padStart(20)} ${'cost'.padStart(8)}`,
];

const bench = await createBenchDatabase('quota');
try {
  const config = { kind: 'postgres' as const, url: bench.databaseUrl };
  const database = await openDatabase(config);
  await runMigrations(database, config);
  lines.push(...(await run('postgres', database)));
  await database.close();
} finally {
  await bench.drop();
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'wrp-bench-quota-'));
try {
  const config = { kind: 'pglite' as const, dataDir: path.join(dir, 'db') };
  const database = await openDatabase(config);
  await runMigrations(database, config);
  lines.push(...(await run('pglite', database)));
  await database.close();
} finally {
  await rm(dir, { recursive: true, force: true });
}

console.log(
  `${CALLS} acquires over ${USERS} users, the median of five alternated runs of each variant\n`,
);
console.log(lines.join('\n'));
