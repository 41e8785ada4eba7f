/**
 * Benchmark of the extraction engine (budgets in
 * docs/architecture.md#performance-budgets) against the sandbox's Google Health API with 100 ms
 * injected latency and the real per-user quota (300 requests per minute): 20 connected participants
 * (each a distinct simulated Google account, connected through the real OAuth flow: auth URL,
 * consent page, callback) × the 12 research types × 7 days, run twice in one process:
 *
 *   (a) the sequential baseline: the same planned calls, one participant after another,
 *       one call at a time, fetch only. It replays the engine's plan (plan.ts: the same rollups,
 *       windows and page sizes, following every nextPageToken) through the same Google Health
 *       client and access tokens, and neither stores nor tidies anything, so it is if anything
 *       faster than a real sequential worker would be.
 *   (b) the engine: POST /api/data-extraction/extract-participant-data, pg-boss workers in this
 *       process (EXTRACTION_CONCURRENCY as configured), until the run is completed with its CSVs
 *       and manifest written.
 *
 * For each: calls, wall time, the ratio to the quota-bound minimum (largest per-user call count ÷
 * 300 per minute, or the latency floor if higher) and to the minimum call count (below). Calls
 * are counted the same way for both, on the wire: every Health API request this process sends
 * (retries and re-made pages included), per access token, i.e. per participant.
 * CPU is reported per process and per raw heart-rate sample (the bulk of the data).
 *
 *   npm run bench:extraction      (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 *   BENCH_PROFILE=1 npm run bench:extraction   (CPU profile of the engine run, top entries)
 *   BENCH_ENGINE_ONLY=1 npm run bench:extraction   (the engine alone, on a sandbox that has not
 *                                                   generated the days yet)
 *
 * It creates and drops its own database and starts its own sandbox on free ports.
 */

import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DATA_TYPES, type DataType } from '@research/contracts';
import { civilDayTotals } from '@research/sandbox';
import { eq } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import {
  extractionJobs,
  extractionRuns,
  extractionTasks,
  wearableConnections,
} from '../apps/server/src/db/schema/index.js';
import { filterOf } from '../apps/server/src/modules/extraction/engine.js';
import {
  addDays,
  DATA_TYPE_CALLS,
  MAX_PAGE_SIZE,
  type PlannedCall,
  planExtraction,
  SLEEP_PAGE_SIZE,
} from '../apps/server/src/modules/extraction/plan.js';
import { createGoogleHealthClient } from '../apps/server/src/platform/google-health/index.js';
import { studyWithParticipants } from '../apps/server/src/test/wearables-kit.js';
import { connectParticipant } from './lib/connect.js';
import { createBenchDatabase, sandboxEnv, UNREACHED_RATE_LIMIT } from './lib/database.js';
import { startExtractionRun } from './lib/extraction-run.js';
import { printSummary, profileDuring, summarize } from './lib/profile.js';
import { spawnSandbox } from './lib/sandbox-process.js';

const PARTICIPANTS = Number(process.env.BENCH_PARTICIPANTS ?? 20);
const engineOnly = Boolean(process.env.BENCH_ENGINE_ONLY);
const START = '2026-11-01';
const DAYS = 7;
const END = addDays(START, DAYS - 1);
const LATENCY_MS = 100;
const PER_USER_PER_MINUTE = 300;
const dataTypes = [...DATA_TYPES] as DataType[];

/** The sandbox process, with its controls over HTTP and, under BENCH_PROFILE, its CPU profile. */
async function startSandboxProcess() {
  const sandboxDir = await mkdtemp(path.join(os.tmpdir(), 'wrp-bench-sandbox-'));
  // BENCH_PROFILE=1: the sandbox writes a CPU profile of its whole life when it exits.
  const nodeArgs = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${sandboxDir}`] : [];
  const process_ = await spawnSandbox({ dataDir: sandboxDir, nodeArgs });
  const { httpUrl } = process_;
  return {
    httpUrl,
    cpuSeconds: process_.cpuSeconds,
    issuer: process_.issuer,
    smtpPort: process_.smtpPort,
    async setControls(controls: Record<string, number>) {
      const res = await fetch(`${httpUrl}/__admin/health`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(controls),
      });
      if (!res.ok) throw new Error(`sandbox controls: ${res.status} ${await res.text()}`);
    },
    async close() {
      await process_.stop();
      if (process.env.BENCH_PROFILE) {
        const file = (await readdir(sandboxDir)).find((f) => f.endsWith('.cpuprofile'));
        if (file) {
          const target = path.join(process.cwd(), 'bench-extraction-sandbox.cpuprofile');
          await copyFile(path.join(sandboxDir, file), target);
          const profile = JSON.parse(await readFile(target, 'utf8'));
          printSummary(`sandbox process, both runs; ${path.basename(target)}`, summarize(profile));
        }
      }
      await rm(sandboxDir, { recursive: true, force: true });
    },
  };
}

// The sandbox plays Google in a process of its own: its CPU (generating tens of thousands of
// heart-rate samples a page) is Google's, not the engine's.
const sandbox = await startSandboxProcess();
const database = await createBenchDatabase('extraction');
const config = loadConfig({
  ...database.env,
  ...UNREACHED_RATE_LIMIT,
  RUN_WORKERS: 'true',
  ...sandboxEnv(sandbox),
  // The figure is the extraction's alone: continuous collection's calls would share the quota.
  COLLECTION_ON_CONNECT: 'false',
  COLLECTION_SWEEP_CRON: 'off',
  EXTRACTION_PER_USER_PER_MINUTE: String(PER_USER_PER_MINUTE),
  ...(process.env.EXTRACTION_CONCURRENCY
    ? { EXTRACTION_CONCURRENCY: process.env.EXTRACTION_CONCURRENCY }
    : {}),
});
// Every Health API request of this process, per access token (one per participant), counted
// on the wire for both runs alike; installed before the app captures `fetch`.
const wire = { calls: 0, perToken: new Map<string, number>() };
const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (url.includes('/v4/users/')) {
    const headers = new Headers(init?.headers);
    const token = headers.get('authorization') ?? '';
    wire.calls += 1;
    wire.perToken.set(token, (wire.perToken.get(token) ?? 0) + 1);
  }
  return realFetch(input, init);
};
const wireCount = () => ({ calls: wire.calls, perToken: new Map(wire.perToken) });
const wireSince = (before: ReturnType<typeof wireCount>) => {
  const perUser = [...wire.perToken.entries()]
    .map(([token, n]) => n - (before.perToken.get(token) ?? 0))
    .filter((n) => n > 0);
  return { calls: wire.calls - before.calls, perUser };
};

// Production's retry policy; workers poll every 2 s as under `npm start`.
const app = await buildApp(config);
await app.ready();

try {
  // ---- 20 participants, each connected through the real OAuth flow ------------------------------
  const world = await studyWithParticipants(app);
  const people: { id: string; account: string }[] = [];
  for (let i = 0; i < PARTICIPANTS; i++) {
    const account = `bench.extract.${String(i + 1).padStart(3, '0')}@gmail.test`;
    const id = await connectParticipant(app, world, i, account, `P${i + 1}`);
    people.push({ id, account });
  }
  // Connecting made identity calls; the runs start in a fresh quota minute of their own below.
  await sandbox.setControls({ latencyMs: LATENCY_MS, perUserPerMinute: PER_USER_PER_MINUTE });
  console.log(
    `${PARTICIPANTS} participants connected (real OAuth flow) × ${dataTypes.length} types × ${DAYS} days (${START}…${END}); ` +
      `sandbox latency ${LATENCY_MS} ms, ${PER_USER_PER_MINUTE} requests per user per minute; ` +
      `EXTRACTION_CONCURRENCY ${config.extraction.concurrency}.`,
  );

  const dateRange = { startDate: START, endDate: END, mode: 'range' as const };
  const [connection] = await app.platform.db
    .select({ grantedScopes: wearableConnections.grantedScopes })
    .from(wearableConnections)
    .where(eq(wearableConnections.participantId, people[0]?.id ?? ''));
  const grantedScopes = connection?.grantedScopes ?? [];

  // ---- minimum call count ----------------------------------------------------------------------
  // The fewest requests the documented limits allow for each participant (page and range caps,
  // docs/wearables.md#caps-the-planner-respects): ceil(days ÷ cap) for every daily rollup and
  // unpaged list; for pages of points (raw heart rate, minute steps, 60 s rollups) ceil(points ÷
  // page size) over the whole range, with the points counted from the sandbox's own data
  // (heart-rate samples) or one per minute; one call each for identity, profile and settings.
  // Computed independently of the engine's windows.
  const minutes = DAYS * 1440;
  function minimumCalls(account: string): number {
    let total = 0;
    for (const dataType of dataTypes) {
      for (const spec of DATA_TYPE_CALLS[dataType]) {
        if (spec.optionalScope && !grantedScopes.includes(spec.optionalScope)) continue;
        if (spec.chunkDays === null) total += 1;
        else if (spec.apiType === 'heart-rate' && spec.method === 'list') {
          let samples = 0;
          for (let d = 0; d < DAYS; d++)
            samples += civilDayTotals(account, addDays(START, d)).heartRateSamples;
          total += Math.max(1, Math.ceil(samples / MAX_PAGE_SIZE));
        } else if (spec.method === 'rollUp' || spec.filter === 'interval-civil')
          total += Math.max(Math.ceil(DAYS / 14), Math.ceil(minutes / MAX_PAGE_SIZE));
        else if (spec.filter === 'sleep-civil-end')
          total += Math.ceil(DAYS / SLEEP_PAGE_SIZE); // about one session a night
        else total += Math.ceil(DAYS / spec.chunkDays);
      }
    }
    return total;
  }
  const minimum = new Map(people.map((p) => [p.id, minimumCalls(p.account)]));
  const minimumTotal = [...minimum.values()].reduce((a, b) => a + b, 0);
  const plan = planExtraction({
    participants: people.map((p) => ({ id: p.id, grantedScopes })),
    dataTypes,
    dateRange,
  });

  /** The quota-bound minimum: the busiest user's calls at 300 a minute, or the latency floor. */
  function bound(perUser: number[], longestChain: number) {
    const quotaMs = (Math.max(...perUser) / PER_USER_PER_MINUTE) * 60_000;
    const latencyFloorMs = longestChain * LATENCY_MS;
    return Math.max(quotaMs, latencyFloorMs);
  }

  // ---- (a) the sequential baseline: one job after another, one call at a time --------------------
  const client = createGoogleHealthClient(config.googleHealth);
  async function oneCall(token: string, call: PlannedCall, pageToken: string | null) {
    const { spec } = call;
    const apiType = spec.apiType ?? '';
    const range = { startTime: `${call.from}T00:00:00Z`, endTime: `${call.to}T00:00:00Z` };
    const civil = (date = '') => {
      const [year = 0, month = 0, day = 0] = date.split('-').map(Number);
      return { date: { year, month, day } };
    };
    const page = pageToken ? { pageToken } : {};
    const fields = spec.fields ? { fields: spec.fields } : {};
    switch (spec.method) {
      case 'identity':
        await client.getIdentity(token);
        return null;
      case 'profile':
        await client.getProfile(token);
        return null;
      case 'settings':
        await client.getSettings(token);
        return null;
      case 'list': {
        const filter = filterOf(call);
        return (
          await client.listDataPoints(token, apiType, {
            ...(filter ? { filter } : {}),
            ...(spec.pageSize ? { pageSize: spec.pageSize } : {}),
            ...page,
            ...fields,
          })
        ).nextPageToken;
      }
      case 'rollUp':
        return (
          await client.rollUp(
            token,
            apiType,
            {
              range,
              windowSize: spec.windowSize ?? '60s',
              ...(spec.pageSize ? { pageSize: spec.pageSize } : {}),
              ...page,
            },
            fields,
          )
        ).nextPageToken;
      case 'dailyRollUp':
        return (
          await client.dailyRollUp(
            token,
            apiType,
            {
              range: { start: civil(call.from), end: civil(call.to) },
              windowSizeDays: 1,
              ...page,
            },
            fields,
          )
        ).nextPageToken;
    }
  }
  let baselineChain = 0;
  const cpu = async () => ({
    bench: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
    sandbox: await sandbox.cpuSeconds(),
  });
  const cpuUse: Record<string, { bench: number; sandbox: number }> = {};
  let cpuBefore = await cpu();
  const baselineWire = wireCount();
  const baselineStarted = performance.now();
  // BENCH_ENGINE_ONLY=1 skips (a), for quick profiles of the engine (the table's (a) is then empty).
  for (const person of engineOnly ? [] : people) {
    const token = await app.services.wearables.accessToken(person.id);
    for (const task of plan.tasks.filter((t) => t.participantId === person.id)) {
      for (const call of task.calls) {
        let pageToken: string | null = null;
        let chain = 0;
        do {
          pageToken = (await oneCall(token, call, pageToken)) ?? null;
          chain += 1;
        } while (pageToken);
        baselineChain = Math.max(baselineChain, chain);
      }
    }
  }
  const baselineMs = performance.now() - baselineStarted;
  const { calls: baselineCalls, perUser: baselinePerUser } = wireSince(baselineWire);
  const cpuAfterBaseline = await cpu();
  cpuUse.baseline = {
    bench: cpuAfterBaseline.bench - cpuBefore.bench,
    sandbox: cpuAfterBaseline.sandbox - cpuBefore.sandbox,
  };

  // ---- (b) the engine ------------------------------------------------------------------------------
  // A new quota minute, so the engine does not inherit the baseline's count in the sandbox.
  if (!engineOnly) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 50));
  cpuBefore = await cpu();
  const engineWire = wireCount();
  const runEngine = async () => {
    const started = performance.now();
    const { runId, callsPlanned } = await startExtractionRun(app, world.owner.token, {
      participantIds: people.map((p) => p.id),
      extractionName: 'Benchmark week',
      dataTypes,
      dateRange,
    });
    for (;;) {
      const [run] = await app.platform.db
        .select()
        .from(extractionRuns)
        .where(eq(extractionRuns.id, runId));
      if (run && run.status !== 'running') {
        if (run.status !== 'completed') throw new Error(`run ${run.status}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    return { runId, callsPlanned, ms: performance.now() - started };
  };
  let engine: Awaited<ReturnType<typeof runEngine>>;
  if (process.env.BENCH_PROFILE) {
    const file = path.join(process.cwd(), 'bench-extraction.cpuprofile');
    let result: Awaited<ReturnType<typeof runEngine>> | undefined;
    const { profile } = await profileDuring(file, async () => {
      result = await runEngine();
    });
    if (!result) throw new Error('no result');
    engine = result;
    printSummary(`engine run; ${path.basename(file)}`, summarize(profile));
  } else engine = await runEngine();
  const cpuAfterEngine = await cpu();
  cpuUse.engine = {
    bench: cpuAfterEngine.bench - cpuBefore.bench,
    sandbox: cpuAfterEngine.sandbox - cpuBefore.sandbox,
  };
  const tasks = await app.platform.db
    .select()
    .from(extractionTasks)
    .where(eq(extractionTasks.runId, engine.runId));
  const { calls: engineCalls, perUser: enginePerUser } = wireSince(engineWire);
  // Where the engine's time went: the first job's start, the last job's end, the run's files.
  const [run] = await app.platform.db
    .select()
    .from(extractionRuns)
    .where(eq(extractionRuns.id, engine.runId));
  const engineJobs = await app.platform.db
    .select()
    .from(extractionJobs)
    .where(eq(extractionJobs.runId, engine.runId));
  const at = (d: Date | null | undefined) =>
    d ? ((d.getTime() - (run?.createdAt.getTime() ?? 0)) / 1000).toFixed(1) : '?';
  const jobTimes = (pick: (j: (typeof engineJobs)[number]) => Date | null) =>
    engineJobs.map((j) => pick(j)?.getTime() ?? 0);
  const firstStart = new Date(Math.min(...jobTimes((j) => j.startedAt)));
  const lastEnd = new Date(Math.max(...jobTimes((j) => j.completedAt)));
  // The engine's longest chain of dependent pages: the highest page number of a call it stored.
  let engineChain = 0;
  let recordedCalls = 0;
  for (const t of tasks) {
    if (t.status !== 'completed') throw new Error(`task ${t.dataType} ${t.status}: ${t.error}`);
    recordedCalls += t.callsDone;
    for (const r of t.requests as { object: string }[]) {
      engineChain = Math.max(engineChain, Number(/_p(\d+)\.json$/.exec(r.object)?.[1] ?? 0));
    }
  }
  const chain = Math.max(engineChain, baselineChain);

  // ---- the table ---------------------------------------------------------------------------------
  const rows = [
    [
      '(a) sequential: same planned calls, one at a time',
      baselineCalls,
      baselineMs,
      baselinePerUser,
    ],
    ['(b) engine', engineCalls, engine.ms, enginePerUser],
  ] as const;
  console.log(
    '(a) is the sequential baseline: the same planned calls, one participant after another, one call at a time, fetch only.',
  );
  console.log(
    `Engine timeline from the start call: first job started at ${at(firstStart)} s, last job done at ${at(lastEnd)} s, ` +
      `the run's CSVs and manifest written at ${at(run?.completedAt)} s.`,
  );
  console.log(
    `Minimum calls: ${minimumTotal} (${Math.min(...minimum.values())}–${Math.max(...minimum.values())} per participant); ` +
      `the engine planned ${engine.callsPlanned} and recorded ${recordedCalls} (the wire counts below include retries); ` +
      `longest chain of dependent pages: (a) ${baselineChain}, (b) ${engineChain}.`,
  );
  console.log(
    `${'run'.padEnd(44)} ${'calls'.padStart(6)} ${'wall s'.padStart(8)} ${'quota-bound min s'.padStart(18)} ${'× bound'.padStart(8)} ${'× min calls'.padStart(12)}`,
  );
  for (const [name, calls, ms, perUser] of rows) {
    const floor = bound(perUser as number[], chain);
    console.log(
      `${name.padEnd(44)} ${String(calls).padStart(6)} ${(ms / 1000).toFixed(1).padStart(8)} ${(floor / 1000).toFixed(1).padStart(18)} ${(ms / floor).toFixed(2).padStart(8)} ${(calls / minimumTotal).toFixed(3).padStart(12)}`,
    );
  }
  const speedup = baselineMs / engine.ms;
  const engineBound = bound(enginePerUser, chain);
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  console.log(
    `Engine ${speedup.toFixed(1)}× faster than (a) [budget ≥ 10: ${verdict(speedup >= 10)}]; ` +
      `${(engine.ms / engineBound).toFixed(2)}× the quota-bound minimum [≤ 1.2: ${verdict(engine.ms / engineBound <= 1.2)}]; ` +
      `${(engineCalls / minimumTotal).toFixed(3)}× the minimum calls [≤ 1.1: ${verdict(engineCalls / minimumTotal <= 1.1)}].`,
  );
  // On a small machine the sandbox (one Node process generating every sample) can be the floor.
  const samples = people.reduce(
    (sum, p) =>
      sum +
      Array.from(
        { length: DAYS },
        (_, d) => civilDayTotals(p.account, addDays(START, d)).heartRateSamples,
      ).reduce((a, b) => a + b, 0),
    0,
  );
  const perSample = (seconds: number) => `${((seconds * 1e6) / samples).toFixed(2)} µs`;
  for (const [phase, use] of Object.entries(cpuUse))
    console.log(
      `CPU during ${phase}: bench process ${use.bench.toFixed(1)} s, sandbox process ${use.sandbox.toFixed(1)} s ` +
        `(per raw heart-rate sample, of ${samples}: ${perSample(use.bench)} and ${perSample(use.sandbox)}).`,
    );
  console.log(
    `Load average: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (${os.cpus().length} CPUs).`,
  );
} finally {
  await app.close();
  await sandbox.close();
  await database.drop();
}
