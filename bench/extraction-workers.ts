/**
 * The extraction engine's second figure: 200 connected participants × 30 days on
 * PostgreSQL, extracted by two separate worker processes (apps/server/src/worker.ts, as
 * `npm run start:worker` runs it), run twice against the sandbox (no injected latency unless
 * BENCH_LATENCY_MS is set; 300 requests per user per minute):
 *
 *   1. a clean run;
 *   2. the same run with one worker killed with SIGKILL when half the planned calls are done.
 *
 * The second run must complete with every file present once and every checksum equal to the clean
 * run's (raw JSON pages, CSVs, data dictionary; the manifest differs only in run id and fetch
 * times, so its row counts and file list are compared instead).
 *
 * Types: the eight daily and profile types. The four minute and second types are left out here:
 * 200 participants × 30 days of raw heart rate alone is about 174 million samples (~18,000 pages
 * of 10,000 points), more than this figure's machine holds; the first figure covers them.
 *
 *   npm run bench:extraction-workers   (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 *
 * The killed worker's in-flight jobs are handed to the other worker when pg-boss expires them:
 * EXTRACTION_JOB_EXPIRE_SECONDS (60 here) after they started, checked in pg-boss's maintenance
 * (every 2 minutes).
 */

import { createHash } from 'node:crypto';
import os from 'node:os';
import type { DataType } from '@research/contracts';
import { startSandbox } from '@research/sandbox';
import { eq, sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import {
  extractionJobs,
  extractionRuns,
  extractionTasks,
} from '../apps/server/src/db/schema/index.js';
import { studyWithParticipants } from '../apps/server/src/test/wearables-kit.js';
import { connectParticipant } from './lib/connect.js';
import { createBenchDatabase, sandboxEnv, UNREACHED_RATE_LIMIT } from './lib/database.js';
import { startExtractionRun } from './lib/extraction-run.js';
import { createWorkerPool } from './lib/worker-process.js';

const PARTICIPANTS = Number(process.env.BENCH_PARTICIPANTS ?? 200);
const DAYS = 30;
const START = '2026-10-01';
const END = '2026-10-30';
const dataTypes: DataType[] = [
  'profile',
  'activity_summary',
  'activity_steps_timeseries',
  'activity_calories_timeseries',
  'activity_distance_timeseries',
  'heartrate_summary',
  'heartrate_timeseries',
  'sleep_log',
];
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 0);
const sandbox = await startSandbox({ httpPort: 0, smtpPort: 0 });
const database = await createBenchDatabase('extraction_workers');
const env: Record<string, string> = {
  ...database.env,
  ...UNREACHED_RATE_LIMIT,
  ...sandboxEnv(sandbox),
  EXTRACTION_PER_USER_PER_MINUTE: '300',
  // The figure is the extraction's alone: continuous collection's calls would share the quota.
  COLLECTION_ON_CONNECT: 'false',
  COLLECTION_SWEEP_CRON: 'off',
  EXTRACTION_JOB_EXPIRE_SECONDS: '60',
  // One participant at a time per worker: the sandbox keeps 96 account-days of generated data,
  // and more participants in flight than that over 30 days each makes it regenerate them for
  // every call (the sandbox, not the engine, then bounds the run).
  EXTRACTION_CONCURRENCY: process.env.EXTRACTION_CONCURRENCY ?? '1',
};
// This process serves the API (starts runs); the two workers do the extracting.
const app = await buildApp(loadConfig({ ...env, RUN_WORKERS: 'false' }));
await app.ready();
const workers = createWorkerPool(env);

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

try {
  const world = await studyWithParticipants(app);
  const ids: string[] = [];
  const connect = async (i: number) => {
    const account = `bench.workers.${String(i + 1).padStart(3, '0')}@gmail.test`;
    ids[i] = await connectParticipant(app, world, i, account, `W${i + 1}`);
  };
  for (let i = 0; i < PARTICIPANTS; i += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, PARTICIPANTS - i) }, (_, k) => connect(i + k)),
    );
  }
  sandbox.health.setControls({ latencyMs: LATENCY_MS, perUserPerMinute: 300 });
  console.log(
    `${PARTICIPANTS} participants connected (real OAuth flow) × ${dataTypes.length} types × ${DAYS} days (${START}…${END}); ` +
      `two worker processes, EXTRACTION_CONCURRENCY ${env.EXTRACTION_CONCURRENCY} each; sandbox latency ${LATENCY_MS} ms, 300 requests per user per minute.`,
  );

  const bucket = app.extraction.bucketOf(world.study.id);
  async function runOnce(name: string, killAtHalf: boolean) {
    const [a] = await Promise.all([
      workers.start(`${name} worker 1`),
      workers.start(`${name} worker 2`),
    ]);
    const started = performance.now();
    const { runId, callsPlanned } = await startExtractionRun(app, world.owner.token, {
      participantIds: ids,
      extractionName: name,
      dataTypes,
      dateRange: { startDate: START, endDate: END, mode: 'range' },
    });
    let killedAt: number | null = null;
    for (;;) {
      const [run] = await app.platform.db
        .select()
        .from(extractionRuns)
        .where(eq(extractionRuns.id, runId));
      if (run && run.status !== 'running') break;
      if (killAtHalf && killedAt === null) {
        const [done] = await app.platform.db
          .select({ n: sql<number>`coalesce(sum(${extractionJobs.callsDone}), 0)::int` })
          .from(extractionJobs)
          .where(eq(extractionJobs.runId, runId));
        if ((done?.n ?? 0) * 2 >= callsPlanned) {
          a.kill('SIGKILL');
          killedAt = performance.now() - started;
          console.log(
            `  ${name}: worker 1 killed with SIGKILL at ${done?.n} of ${callsPlanned} calls (${(killedAt / 1000).toFixed(1)} s)`,
          );
        }
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    const ms = performance.now() - started;
    await workers.stopAll();
    const tasks = await app.platform.db
      .select()
      .from(extractionTasks)
      .where(eq(extractionTasks.runId, runId));
    const [run] = await app.platform.db
      .select()
      .from(extractionRuns)
      .where(eq(extractionRuns.id, runId));
    const prefix = `extractions/${runId}/`;
    const keys: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await app.platform.objectStore.listObjects(bucket, { prefix, cursor });
      keys.push(...page.objects.map((o) => o.key));
      cursor = page.nextCursor;
    } while (cursor);
    const files = new Map<string, string>();
    for (const key of keys) {
      const { body } = await app.platform.objectStore.getObject(bucket, key);
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(Buffer.from(chunk));
      files.set(key.slice(prefix.length), sha256(Buffer.concat(chunks)));
    }
    const manifest = JSON.parse(
      (
        await (async () => {
          const { body } = await app.platform.objectStore.getObject(
            bucket,
            `${prefix}manifest.json`,
          );
          const chunks: Buffer[] = [];
          for await (const chunk of body) chunks.push(Buffer.from(chunk));
          return Buffer.concat(chunks);
        })()
      ).toString('utf8'),
    ) as { rowCounts: Record<string, number>; files: { key: string; sha256: string }[] };
    const calls = tasks.reduce((sum, t) => sum + t.callsDone, 0);
    const attempts = tasks.reduce((sum, t) => sum + t.attempts, 0);
    return {
      name,
      runId,
      status: run?.status,
      ms,
      calls,
      callsPlanned,
      keys,
      files,
      manifest,
      tasks: tasks.length,
      notCompleted: tasks.filter((t) => t.status !== 'completed').length,
      rerunTasks: tasks.filter((t) => t.attempts > 1).length,
      attempts,
      killedAt,
    };
  }

  const clean = await runOnce('Clean run', false);
  const killed = await runOnce('Killed worker run', true);

  const problems: string[] = [];
  for (const r of [clean, killed]) {
    if (r.status !== 'completed') problems.push(`${r.name}: run ${r.status}`);
    if (r.notCompleted > 0) problems.push(`${r.name}: ${r.notCompleted} tasks not completed`);
    if (new Set(r.keys).size !== r.keys.length) problems.push(`${r.name}: duplicate object keys`);
    const listed = new Set(
      r.manifest.files.map((f) => f.key.slice(`extractions/${r.runId}/`.length)),
    );
    for (const f of r.manifest.files) {
      const rel = f.key.slice(`extractions/${r.runId}/`.length);
      if (r.files.get(rel) !== f.sha256)
        problems.push(`${r.name}: ${rel} differs from its manifest`);
    }
    for (const rel of r.files.keys())
      if (rel !== 'manifest.json' && !listed.has(rel))
        problems.push(`${r.name}: ${rel} is not in the manifest`);
  }
  let same = 0;
  for (const [rel, hash] of clean.files) {
    if (rel === 'manifest.json') continue;
    if (killed.files.get(rel) === hash) same += 1;
    else
      problems.push(
        `${rel}: ${killed.files.has(rel) ? 'checksum differs' : 'missing'} after the kill`,
      );
  }
  for (const rel of killed.files.keys())
    if (!clean.files.has(rel)) problems.push(`${rel}: only in the killed run`);
  if (JSON.stringify(clean.manifest.rowCounts) !== JSON.stringify(killed.manifest.rowCounts))
    problems.push('row counts differ');

  console.log(
    `${'run'.padEnd(20)} ${'calls'.padStart(6)} ${'planned'.padStart(8)} ${'wall s'.padStart(7)} ${'files'.padStart(6)} ${'tasks'.padStart(6)} ${'re-run'.padStart(7)}`,
  );
  for (const r of [clean, killed]) {
    console.log(
      `${r.name.padEnd(20)} ${String(r.calls).padStart(6)} ${String(r.callsPlanned).padStart(8)} ${(r.ms / 1000).toFixed(1).padStart(7)} ${String(r.keys.length).padStart(6)} ${String(r.tasks).padStart(6)} ${String(r.rerunTasks).padStart(7)}`,
    );
  }
  console.log(`Rows: ${JSON.stringify(killed.manifest.rowCounts)}`);
  console.log(
    problems.length === 0
      ? `Every file present once; ${same} of ${clean.files.size - 1} checksums equal to the clean run (manifest: same row counts and file list).`
      : `PROBLEMS (${problems.length}):\n  ${problems.slice(0, 20).join('\n  ')}`,
  );
  console.log(
    `Load average: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (${os.cpus().length} CPUs).`,
  );
  if (problems.length > 0) process.exitCode = 1;
} finally {
  workers.kill();
  await app.close();
  await sandbox.close();
  await database.drop();
}
