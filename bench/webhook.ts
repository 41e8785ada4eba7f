/**
 * Google Health change notifications arriving in a burst (budget in
 * docs/architecture.md#performance-budgets): autocannon at 50 connections posts N distinct,
 * signed notifications to POST /webhooks/google-health (secret, Tink ECDSA P-256 signature over
 * the raw body against a keyset served on loopback, stored with its job in one transaction) and,
 * in the same run, the same bodies to a bare Fastify route that parses the JSON and answers 204.
 *
 *   npm run bench:webhook    (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 *   BENCH_NOTIFICATIONS=5000 npm run bench:webhook     (a quick run)
 *
 * Reported: notifications accepted per second on each route, latency, and, after the run, the
 * notifications stored and jobs queued against the 204s answered (none may be lost). It fails
 * (exit code 1) when the webhook accepts fewer than a quarter of the bare route's rate, or when
 * any accepted notification is missing. Job workers are off: this measures receiving, not the
 * resolution of each notification. It creates and drops its own database; loopback only.
 */

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newSigningKey, startKeysetServer, tinkSign } from '../apps/server/src/test/tink-kit.js';
import { CONNECTIONS, RATIO_BUDGET } from './lib/load.js';
import { startBenchEnvironment } from './lib/setup.js';

const COUNT = Number(process.env.BENCH_NOTIFICATIONS ?? 20_000);
const WARM_UP = Math.min(2_000, Math.ceil(COUNT / 5));
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

  console.log(`Signing ${WARM_UP} warm-up and ${COUNT} measured notifications…`);
  const items = Array.from({ length: WARM_UP + COUNT }, (_, i) => {
    const body = notificationBody(i);
    return { body, signature: tinkSign(key, body) };
  });
  const file = path.join(folder, 'bodies.json');
  await writeFile(file, JSON.stringify(items));

  const appUrl = `${await app.listen({ port: 0, host: '127.0.0.1' })}/webhooks/google-health`;
  const bareUrl = `${await bare.listen({ port: 0, host: '127.0.0.1' })}/bare-webhook`;

  console.log(`Posting each body once at ${CONNECTIONS} connections…`);
  await load(bareUrl, file, 0, WARM_UP);
  const bareRun = await load(bareUrl, file, WARM_UP, COUNT);
  await load(appUrl, file, 0, WARM_UP, SECRET);
  const webhookRun = await load(appUrl, file, WARM_UP, COUNT, SECRET);

  const stored = Number(
    (await pool.query('select count(*)::int as n from health_notifications')).rows[0]?.n,
  );
  const jobs = Number(
    (
      await pool.query(
        "select count(*)::int as n from pgboss.job where name = 'health-notification-resolve'",
      )
    ).rows[0]?.n,
  );
  const accepted = webhookRun.ok;
  // The warm-up's notifications are stored too: every one of them was answered 204 as well.
  const expected = WARM_UP + accepted;
  const lost = expected - stored;
  const ratio = webhookRun.rps / bareRun.rps;

  console.log('\n| route | notifications/s | p50 ms | p99 ms | 2xx | other | vs bare |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const [name, run] of [
    ['bare Fastify POST (JSON parse, 204)', bareRun],
    ['POST /webhooks/google-health (secret, signature, store + job)', webhookRun],
  ] as const) {
    console.log(
      `| ${name} | ${run.rps.toFixed(0)} | ${run.p50} | ${run.p99} | ${run.ok} | ${run.non2xx + run.errors + run.timeouts} | ${(run.rps / bareRun.rps).toFixed(3)} |`,
    );
  }
  console.log(
    `\nAccepted ${expected} (warm-up included), stored ${stored}, jobs queued ${jobs}: lost ${lost}.`,
  );
  console.log(`Keyset requests: ${keyset.hits}.`);
  const verdict = ratio >= RATIO_BUDGET && lost === 0 && jobs === stored;
  console.log(
    `Budget (≥ ${RATIO_BUDGET} × bare, nothing lost): ${verdict ? 'met' : 'NOT met'} (${ratio.toFixed(3)} × bare).`,
  );
  if (!verdict || webhookRun.ok !== COUNT) failed = true;
} finally {
  await env.close();
  await keyset.close();
  await rm(folder, { recursive: true, force: true });
}
if (failed) process.exitCode = 1;
