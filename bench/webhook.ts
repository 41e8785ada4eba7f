/**
 * Google Health change notifications arriving in a burst (budget in
 * docs/architecture.md#performance-budgets): autocannon at 50 connections posts N distinct,
 * signed notifications to POST /webhooks/google-health (secret, Tink ECDSA P-256 signature over
 * the raw body against a keyset served on loopback, stored before the 204) and, in the same run
 * and in turns, the same bodies to a bare Fastify route that parses the JSON and answers 204, and
 * to one that also runs a `select 1` on the pool (the floor the API budget is stated against).
 *
 *   npm run bench:webhook    (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 *   BENCH_NOTIFICATIONS=5000 npm run bench:webhook     (a quick run)
 *
 * Reported: notifications accepted per second on each route, latency, and, after the run, the
 * notifications stored against the 204s answered (none may be lost); then the job workers start
 * and the time they take to resolve every stored notification. It fails (exit code 1) when the
 * webhook accepts fewer than a quarter of the bare route's rate, or when any accepted
 * notification is missing or left unresolved. Workers are off while requests are measured. It
 * creates and drops its own database; loopback only.
 */

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newSigningKey, startKeysetServer, tinkSign } from '../apps/server/src/test/tink-kit.js';
import { CONNECTIONS, RATIO_BUDGET } from './lib/load.js';
import { printSummary, profileDuring, summarize } from './lib/profile.js';
import { startBenchEnvironment } from './lib/setup.js';

const COUNT = Number(process.env.BENCH_NOTIFICATIONS ?? 20_000);
const WARM_UP = Math.min(2_000, Math.ceil(COUNT / 5));
const ROUNDS = 3;
const SECRET = `Bearer ${randomBytes(24).toString('hex')}`;
const LOADER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'lib/webhook-load.mjs');

interface LoadResult {
  sent: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
}

/** One pass of `count` bodies from `from` on, in the load generator's own process. */
function load(url: string, file: string, from: number, count: number, authorization = '') {
  const args = [LOADER, url, file, String(from), String(count), String(CONNECTIONS), authorization];
  return new Promise<LoadResult>((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      if (error) reject(error);
      else resolve(JSON.parse(stdout) as LoadResult);
    });
  });
}

/** A notification as Google sends it: one participant's steps for a few minutes. */
function notificationBody(i: number): string {
  const minute = i % 1440;
  const hh = String(Math.floor(minute / 60)).padStart(2, '0');
  const mm = String(minute % 60).padStart(2, '0');
  return JSON.stringify({
    data: {
      version: '1',
      clientProvidedSubscriptionName: randomBytes(16).toString('hex'),
      healthUserId: String(1_173_016_576_421_350_000n + BigInt(i % 500)),
      operation: 'UPSERT',
      dataType: 'steps',
      intervals: [
        {
          physicalTimeInterval: {
            startTime: `2026-10-05T${hh}:${mm}:00Z`,
            endTime: `2026-10-05T${hh}:${mm}:59Z`,
          },
          civilDateTimeInterval: {
            startDateTime: {
              date: { year: 2026, month: 10, day: 5 },
              time: { hours: Number(hh), minutes: Number(mm) },
            },
            endDateTime: {
              date: { year: 2026, month: 10, day: 5 },
              time: { hours: Number(hh), minutes: Number(mm), seconds: 59 },
            },
          },
          civilIso8601TimeInterval: {
            startTime: `2026-10-05T${hh}:${mm}:00`,
            endTime: `2026-10-05T${hh}:${mm}:59`,
          },
        },
      ],
    },
  });
}

const key = newSigningKey(0x51ab2c3d);
const keyset = await startKeysetServer([key]);
const env = await startBenchEnvironment('webhook', {
  GOOGLE_HEALTH_WEBHOOK_SECRET: SECRET,
  GOOGLE_HEALTH_WEBHOOK_KEYSET_URL: keyset.url,
});
const folder = await mkdtemp(path.join(os.tmpdir(), 'wrp-bench-webhook-'));
let failed = false;
try {
  const { app, bare, pool } = env;
  bare.post('/bare-webhook', async (_request, reply) => reply.code(204).send());
  // The floor the API budget is stated against: the same, plus one `select 1` on the pool.
  bare.post('/bare-webhook-db', async (_request, reply) => {
    await pool.query('select 1 as one');
    return reply.code(204).send();
  });

  console.log(`Signing ${WARM_UP} warm-up and ${COUNT} measured notifications…`);
  const items = Array.from({ length: WARM_UP + COUNT }, (_, i) => {
    const body = notificationBody(i);
    return { body, signature: tinkSign(key, body) };
  });
  const file = path.join(folder, 'bodies.json');
  await writeFile(file, JSON.stringify(items));

  const appUrl = `${await app.listen({ port: 0, host: '127.0.0.1' })}/webhooks/google-health`;
  const bareBase = await bare.listen({ port: 0, host: '127.0.0.1' });
  const targets = [
    { name: 'bare Fastify POST (JSON parse, 204)', url: `${bareBase}/bare-webhook`, auth: '' },
    {
      name: 'bare Fastify POST + one select 1 (pg pool)',
      url: `${bareBase}/bare-webhook-db`,
      auth: '',
    },
    {
      name: 'POST /webhooks/google-health (secret, signature, stored)',
      url: appUrl,
      auth: SECRET,
    },
  ];

  console.log(`Posting each body once at ${CONNECTIONS} connections, in ${ROUNDS} rounds…`);
  for (const target of targets) await load(target.url, file, 0, WARM_UP, target.auth);
  const commits = async () =>
    Number(
      (
        await pool.query(
          'select xact_commit::int as n from pg_stat_database where datname = current_database()',
        )
      ).rows[0]?.n,
    );
  // Rounds take turns, so a change in the machine's load (other work on its two cores) falls on
  // every target alike: each target's rate is its requests over its summed time.
  const totals = targets.map(() => ({ ok: 0, other: 0, seconds: 0, p50: [] as number[], p99: 0 }));
  let commitsDuring = 0;
  const perRound = Math.ceil(COUNT / ROUNDS);
  const rounds = async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const from = WARM_UP + round * perRound;
      const count = Math.min(perRound, WARM_UP + COUNT - from);
      for (const [i, target] of targets.entries()) {
        const before = target.url === appUrl ? await commits() : 0;
        const run = await load(target.url, file, from, count, target.auth);
        if (target.url === appUrl) commitsDuring += (await commits()) - before;
        const total = totals[i];
        if (!total) continue;
        total.ok += run.ok;
        total.other += run.non2xx + run.errors + run.timeouts;
        total.seconds += run.seconds;
        total.p50.push(run.p50);
        total.p99 = Math.max(total.p99, run.p99);
      }
    }
  };
  // BENCH_PROFILE=1: a CPU profile of this process during the measured rounds (their rates are
  // then not a result).
  if (process.env.BENCH_PROFILE) {
    const { profile } = await profileDuring(
      path.join(process.cwd(), 'bench-webhook.cpuprofile'),
      rounds,
    );
    printSummary('all targets, while profiling', summarize(profile));
  } else await rounds();
  const rate = (i: number) => (totals[i]?.ok ?? 0) / (totals[i]?.seconds || 1);

  const stored = Number(
    (await pool.query('select count(*)::int as n from health_notifications')).rows[0]?.n,
  );
  const webhook = totals[2];
  const accepted = webhook?.ok ?? 0;
  // The warm-up's notifications are stored too: every one of them was answered 204 as well.
  const expected = WARM_UP + accepted;
  const lost = expected - stored;
  const ratio = rate(2) / rate(1);

  console.log(
    '\n| route | notifications/s | p50 ms (per round) | p99 ms | 2xx | other | vs bare | vs bare + select 1 |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const [i, target] of targets.entries()) {
    const t = totals[i];
    if (!t) continue;
    console.log(
      `| ${target.name} | ${rate(i).toFixed(0)} | ${t.p50.join(', ')} | ${t.p99} | ${t.ok} | ${t.other} | ${(rate(i) / rate(0)).toFixed(3)} | ${(rate(i) / rate(1)).toFixed(3)} |`,
    );
  }
  console.log(`\nAccepted ${expected} (warm-up included), stored ${stored}: lost ${lost}.`);
  console.log(
    `Statements committed while the webhook was measured: ${commitsDuring} (≈ ${(accepted / Math.max(1, commitsDuring)).toFixed(1)} notifications each; the statistics lag up to a second).`,
  );

  // Then the workers resolve what was stored (each notification to the connections of its
  // account: none here, so this is the queue's own pace).
  const unresolved = async () =>
    Number(
      (
        await pool.query(
          'select count(*)::int as n from health_notifications where resolved_at is null',
        )
      ).rows[0]?.n,
    );
  const resolveStart = performance.now();
  await app.platform.jobs.startWorkers();
  let left = await unresolved();
  while (left > 0 && performance.now() - resolveStart < 180_000) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    left = await unresolved();
  }
  const resolveSeconds = (performance.now() - resolveStart) / 1000;
  console.log(
    `Resolved by the drain jobs: ${stored - left} of ${stored} in ${resolveSeconds.toFixed(1)} s (${((stored - left) / resolveSeconds).toFixed(0)}/s).`,
  );
  console.log(`Keyset requests: ${keyset.hits}.`);
  const verdict = ratio >= RATIO_BUDGET && lost === 0 && left === 0;
  console.log(
    `Budget (≥ ${RATIO_BUDGET} × the bare route with one select 1, nothing lost or left unresolved): ${verdict ? 'met' : 'NOT met'} (${ratio.toFixed(3)}; ${(rate(2) / rate(0)).toFixed(3)} × the bare JSON route).`,
  );
  if (!verdict || accepted !== COUNT) failed = true;
} finally {
  await env.close();
  await keyset.close();
  await rm(folder, { recursive: true, force: true });
}
if (failed) process.exitCode = 1;
