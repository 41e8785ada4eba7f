/**
 * An export of a whole study against DuckDB's own `COPY … TO (FORMAT parquet)` over the same rows,
 * side by side in one run. The budget: the export's wall time ≤ 1.5 × DuckDB's.
 *
 *   npm run bench:export          (PostgreSQL on BENCH_DATABASE_URL, default the local one)
 *   BENCH_PARTICIPANTS=100 BENCH_DAYS=30 BENCH_TYPES=all npm run bench:export
 *   BENCH_FORMATS=parquet,csv     (default parquet: DuckDB's COPY writes Parquet)
 *   BENCH_PROFILE=1               (a V8 CPU profile of the first round's export, top entries)
 *   BENCH_REPEAT=3                (rounds of export then DuckDB, each ratio and the median)
 *   BENCH_KEEP=1                  (keeps the database and the data folder, for a look after)
 *
 * Seeding: one participant connects through the sandbox and its days are collected as the
 * product collects them (every type's calls, pages as received, partitions written); the other
 * participants get copies of those partitions through the same write path, so the rows, their
 * files and the ledger are what a study of that size holds. Neither side fetches anything.
 *
 * Measured: the export build alone (buildExport: ledger read, partitions read, tables built,
 * files written to the bucket with their SHA-256, manifest and dictionary), and DuckDB reading
 * every partition's rows.parquet of each type and writing one Parquet file per type.
 */

import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { DATA_TYPES, type DataType } from '@research/contracts';
import { loadConfig } from '../apps/server/src/config.js';
import { COLLECTED_TYPES } from '../apps/server/src/modules/collection/index.js';
import { createDataset } from '../apps/server/src/modules/dataset/index.js';
import { buildExport } from '../apps/server/src/modules/exports/index.js';
import { addDays } from '../apps/server/src/modules/extraction/index.js';
import { studyWithParticipants } from '../apps/server/src/test/wearables-kit.js';
import { connectParticipant } from './lib/connect.js';
import { sandboxEnv } from './lib/database.js';
import { printSummary, profileDuring, summarize } from './lib/profile.js';
import { spawnSandbox } from './lib/sandbox-process.js';
import { startBenchEnvironment } from './lib/setup.js';

const PARTICIPANTS = Number(process.env.BENCH_PARTICIPANTS ?? 100);
const DAYS = Number(process.env.BENCH_DAYS ?? 30);
const TYPES: DataType[] =
  !process.env.BENCH_TYPES || process.env.BENCH_TYPES === 'all'
    ? DATA_TYPES.filter((t) => COLLECTED_TYPES.includes(t))
    : (process.env.BENCH_TYPES.split(',').map((t) => t.trim()) as DataType[]);
const FORMATS = (process.env.BENCH_FORMATS ?? 'parquet').split(',') as ('parquet' | 'csv')[];
const BUDGET = 1.5;
const REPEAT = Number(process.env.BENCH_REPEAT ?? 1);
const FIRST = '2026-10-01';
const LAST = addDays(FIRST, DAYS - 1);

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const started = performance.now();
const log = (text: string) => console.log(`[${seconds(performance.now() - started)} s] ${text}`);

const tmp = await mkdtemp(path.join(os.tmpdir(), 'wrp-bench-export-'));
const sandbox = await spawnSandbox({ dataDir: path.join(tmp, 'sandbox') });
const dataDir = path.join(tmp, 'data');
const env = await startBenchEnvironment('export', {
  ...sandboxEnv(sandbox),
  DATA_DIR: dataDir,
  EXTRACTION_PER_USER_PER_MINUTE: '10000000',
  COLLECTION_SWEEP_CRON: '',
  COLLECTION_ON_CONNECT: 'false',
});
const { app } = env;
// The file store's root: DuckDB reads the partitions' files where the product wrote them.
const storage = loadConfig({ DATA_DIR: dataDir }).storage;
if (storage.driver !== 'fs') throw new Error('bench:export reads the file store');
const storageRoot = storage.root;

try {
  await fetch(`${sandbox.httpUrl}/__admin/health`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ perUserPerMinute: 10_000_000, latencyMs: 0 }),
  });
  const world = await studyWithParticipants(app);
  const studyId = world.study.id;
  const platform = app.platform;
  const dataset = createDataset({
    db: platform.db,
    objectStore: platform.objectStore,
    bucketOf: (id) => app.extraction.bucketOf(id),
  });

  // ---- Seed: one participant collected for real, the others copies of its partitions --------
  const account = 'bench.export.001@gmail.test';
  const first = await connectParticipant(app, world, 0, account, 'E001');
  await fetch(`${sandbox.httpUrl}/__admin/health/sync`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: account, until: `${addDays(LAST, 2)}T12:00:00Z` }),
  });
  const dates = Array.from({ length: DAYS }, (_, i) => addDays(FIRST, i));
  await app.collection.collectDays({
    participantId: first,
    types: TYPES,
    dates,
    trigger: { kind: 'sweep', id: 'bench-export' },
  });
  const ledger = await dataset.readLedger({ studyId, participantId: first, from: FIRST, to: LAST });
  log(`Participant 1: ${ledger.length} partitions collected from the sandbox.`);
  const pages = new Map<string, { call: string; body: Buffer }[]>();
  for (const row of ledger) {
    pages.set(
      `${row.dataType}\0${row.date}`,
      await Promise.all(
        row.rawFiles.map(async (file) => ({
          call:
            file.key
              .split('/')
              .pop()
              ?.replace(/^\d{4}-|\.json$/g, '') ?? '',
          body: await dataset.readRawPage(studyId, file),
        })),
      ),
    );
  }
  const participantIds = [first];
  for (let i = 1; i < PARTICIPANTS; i++) {
    const p = await world.addParticipant({
      firstName: 'Bench',
      lastName: `E${String(i + 1).padStart(3, '0')}`,
    });
    participantIds.push(p.id);
  }
  const jobs = participantIds.slice(1).flatMap((participantId) =>
    ledger.map(
      (row) => () =>
        dataset.writePartition({
          studyId,
          participantId,
          type: row.dataType,
          date: row.date,
          timeZone: row.timeZone,
          rawPages: pages.get(`${row.dataType}\0${row.date}`) ?? [],
          trigger: { kind: 'sweep', id: 'bench-export' },
          syncedThrough: new Date(`${addDays(LAST, 2)}T12:00:00Z`),
        }),
    ),
  );
  for (let i = 0; i < jobs.length; i += 8) await Promise.all(jobs.slice(i, i + 8).map((j) => j()));
  const all = await dataset.readLedger({ studyId, from: FIRST, to: LAST });
  const rows = all.reduce((n, r) => n + r.rowCount, 0);
  log(
    `Seeded ${PARTICIPANTS} participants × ${DAYS} days × ${TYPES.length} types: ${all.length} partitions, ${rows.toLocaleString('en-US')} rows.`,
  );

  // ---- Rounds: the export, then DuckDB over the same files; each round a new export ---------
  const deps = {
    db: platform.db,
    objectStore: platform.objectStore,
    bucketOf: (id: string) => app.extraction.bucketOf(id),
    dataset,
  };
  const bucket = app.extraction.bucketOf(studyId);
  const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;
  const ratios: number[] = [];
  let profile: Awaited<ReturnType<typeof profileDuring>> | undefined;
  for (let round = 1; round <= REPEAT; round++) {
    const started = await app.exports.start(
      {
        studyId,
        body: {
          name: `bench ${round}`,
          participantIds,
          dataTypes: TYPES,
          dateRange: { startDate: FIRST, endDate: LAST },
          formats: FORMATS,
          minuteGrid: false,
          includeRaw: false,
        },
        actor: { userId: world.owner.user.id, label: 'bench' },
      },
      { queue: false },
    );
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    if (process.env.BENCH_PROFILE && round === 1)
      profile = await profileDuring(path.join(os.tmpdir(), 'bench-export.cpuprofile'), () =>
        buildExport(deps, started.id),
      );
    else await buildExport(deps, started.id);
    const exportMs = performance.now() - t0;
    const exportCpu = process.cpuUsage(cpu0);
    const done = await app.exports.get(studyId, started.id);
    if (done.export.status !== 'completed')
      throw new Error(`export ${done.export.status}: ${done.export.error}`);
    log(
      `Round ${round}, export: ${seconds(exportMs)} s wall, ${seconds((exportCpu.user + exportCpu.system) / 1000)} s CPU, ${done.files.length} files, ${(done.export.bytes / 1e6).toFixed(1)} MB.`,
    );

    // DuckDB: the same rows, read from the same partition files, written per type.
    const outDir = path.join(tmp, `duckdb-${round}`);
    await mkdir(outDir, { recursive: true });
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    const d0 = performance.now();
    for (const type of TYPES) {
      const files = all
        .filter((r) => r.dataType === type && r.rowsFile && r.rowCount > 0)
        .map((r) => path.join(storageRoot, bucket, ...(r.rowsFile?.key.split('/') ?? [])));
      if (files.length === 0) continue;
      const list = `[${files.map(quote).join(',')}]`;
      for (const format of FORMATS)
        await duck.run(
          `COPY (SELECT * FROM read_parquet(${list}, union_by_name = true)) TO ${quote(
            path.join(outDir, `${type}.${format}`),
          )} (FORMAT ${format === 'parquet' ? 'parquet' : 'csv'})`,
        );
    }
    const duckMs = performance.now() - d0;
    duck.closeSync();
    await rm(outDir, { recursive: true, force: true });
    // Each round's export files go once measured (a 100 × 30 export is over 1 GB).
    await rm(path.join(storageRoot, bucket, 'exports'), { recursive: true, force: true });
    const ratio = exportMs / duckMs;
    ratios.push(ratio);
    log(`Round ${round}, DuckDB COPY: ${seconds(duckMs)} s wall: ${ratio.toFixed(2)} ×.`);
  }

  const sorted = [...ratios].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  const median =
    sorted.length % 2
      ? (sorted[Math.floor(middle)] as number)
      : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  console.log(
    `\nExport of ${PARTICIPANTS} participants × ${DAYS} days × ${TYPES.length} types (${rows.toLocaleString('en-US')} rows, ${FORMATS.join('+')}), ${REPEAT} round(s):\n` +
      `  export / DuckDB COPY: ${ratios.map((r) => r.toFixed(2)).join(', ')}; median ${median.toFixed(2)} ×, worst ${(sorted.at(-1) as number).toFixed(2)} × (budget ≤ ${BUDGET}) — ${median <= BUDGET ? 'met' : 'NOT met'}`,
  );
  if (profile)
    printSummary(`Export build, self time (${profile.file})`, summarize(profile.profile, 15));
  console.log(
    `Load average: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(
        ' ',
      )} (${os.cpus().length} CPUs); config ${loadConfig({}).storage.driver} default storage.`,
  );
} finally {
  await env.close();
  await sandbox.stop();
  if (process.env.BENCH_KEEP) console.log(`Kept ${tmp}`);
  else await rm(tmp, { recursive: true, force: true });
}
