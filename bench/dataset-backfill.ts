/**
 * A backfill's dataset writes alone: 87 days of the seven daily and summary types a participant,
 * fetched once from the sandbox by the planner's range calls and cut into days as collection does,
 * then written for new participants a range at a time (`writePartitions`, one unit per type, as
 * collection writes a fetched range), several participants at once. Wall time and this process's
 * CPU (all threads: the file writes' system time included) per partition, ledger on PostgreSQL.
 * Part 3 of `npm run bench:sync` measures the whole backfill; this isolates the writes (seconds,
 * not minutes), to profile them.
 *
 *   npm run bench:dataset-backfill   (BENCH_PARTICIPANTS=20, BENCH_CONCURRENCY=8,
 *                                     BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres,
 *                                     BENCH_PROFILE=1: a V8 CPU profile of the writes, top entries)
 */

import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bucketNameForStudy, type DataType, DEFAULT_STUDY_SETTINGS } from '@research/contracts';
import type { Sandbox } from '@research/sandbox';
import { connect } from '../apps/sandbox/src/test/health-flow.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { runMigrations } from '../apps/server/src/db/migrate.js';
import { participants, studies, users } from '../apps/server/src/db/schema/index.js';
import {
  createDataset,
  type PartitionWrite,
  type RawPage,
} from '../apps/server/src/modules/dataset/index.js';
import {
  addDays,
  callsFor,
  createProviderCall,
  cutToDays,
} from '../apps/server/src/modules/extraction/index.js';
import { createFsObjectStore } from '../apps/server/src/platform/object-store/index.js';
import { createBenchDatabase } from './lib/database.js';
import { printSummary, profileDuring, summarize } from './lib/profile.js';
import { spawnSandbox } from './lib/sandbox-process.js';
import { DAILY_TYPES } from './lib/sync-backfill.js';

const PARTICIPANTS = Number(process.env.BENCH_PARTICIPANTS ?? 20);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const ZONE = 'America/New_York';
/** The 87 days a 90-day backfill fetches by ranges (the last 3 are the restatement window's). */
const FROM = '2026-08-01';
const TO = addDays(FROM, 86);

const dir = await mkdtemp(path.join(os.tmpdir(), 'wrp-bench-dataset-backfill-'));
const sandbox = await spawnSandbox({ dataDir: path.join(dir, 'sandbox') });
const issuer = sandbox.issuer;
const bench = await createBenchDatabase('backfill');
const config = { kind: 'postgres' as const, url: bench.databaseUrl };
const database = await openDatabase(config);
await runMigrations(database, config);

try {
  const asSandbox = {
    issuer,
    health: {
      urls: {
        authorizationUrl: `${issuer}/o/oauth2/v2/auth`,
        tokenUrl: `${issuer}/token`,
        revokeUrl: `${issuer}/revoke`,
        apiBaseUrl: issuer,
      },
    },
  } as unknown as Sandbox;
  const { access_token, scope } = await connect(asSandbox, 'bench.backfill.writes@gmail.test');
  await fetch(`${issuer}/__admin/health`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ perUserPerMinute: 10_000_000 }),
  });
  const exchange = createProviderCall({
    endpoints: {
      authUrl: `${issuer}/o/oauth2/v2/auth`,
      tokenUrl: `${issuer}/token`,
      revokeUrl: `${issuer}/revoke`,
      apiUrl: issuer,
      clientId: 'sandbox-client-id.apps.googleusercontent.com',
      clientSecret: 'sandbox-client-secret',
    },
    fetch,
    beforeEach: async () => {},
  });

  // Each type's days as collection's fetchRange makes them: range answers cut into days.
  const granted = scope.split(' ');
  const ranges = new Map<DataType, Map<string, RawPage[]>>();
  let calls = 0;
  for (const type of DAILY_TYPES) {
    const days = new Map<string, RawPage[]>();
    for (let date = FROM; date <= TO; date = addDays(date, 1)) days.set(date, []);
    for (const planned of callsFor(type, FROM, TO, granted)) {
      const call = { ...planned, timeZone: ZONE };
      const pages: { bytes: Buffer; body: unknown }[] = [];
      let token: string | null = null;
      do {
        const page: { bytes: Buffer; body: unknown } = await exchange(
          access_token,
          call,
          token,
          null,
        );
        calls += 1;
        pages.push(page);
        token = (page.body as { nextPageToken?: string }).nextPageToken || null;
      } while (token);
      if (call.from && call.to && addDays(call.from, 1) === call.to) {
        for (const page of pages)
          days.get(call.from)?.push({ call: call.spec.key, body: page.bytes });
        continue;
      }
      const cut = cutToDays(
        call,
        pages.map((page) => page.body),
      );
      for (const [date, body] of cut) days.get(date)?.push({ call: call.spec.key, body });
    }
    ranges.set(type, days);
  }

  const { db } = database;
  const [owner] = await db
    .insert(users)
    .values({ email: `bench-${randomBytes(4).toString('hex')}@example.test` })
    .returning();
  const [study] = await db
    .insert(studies)
    .values({
      name: 'Backfill writes bench',
      description: '',
      studyCode: `B${randomBytes(3).toString('hex').toUpperCase()}`,
      settings: DEFAULT_STUDY_SETTINGS,
      ownerId: owner?.id as string,
    })
    .returning();
  const studyId = study?.id as string;
  const ids: string[] = [];
  for (let i = 0; i <= PARTICIPANTS; i++) {
    const id = `P${randomBytes(8).toString('hex')}`;
    await db.insert(participants).values({ id, studyId, email: `${id}@example.test` });
    ids.push(id);
  }
  const objectStore = createFsObjectStore({
    root: path.join(dir, 'storage'),
    publicUrl: 'http://localhost:3000',
    signingKey: randomBytes(32),
  });
  const dataset = createDataset({ db, objectStore, bucketOf: bucketNameForStudy });
  const writeParticipant = async (participantId: string) => {
    for (const [type, days] of ranges) {
      const writes: PartitionWrite[] = [...days].map(([date, rawPages]) => ({
        studyId,
        participantId,
        type,
        date,
        timeZone: ZONE,
        rawPages,
        trigger: { kind: 'sweep', id: `backfill:${FROM}..${TO}` },
      }));
      await dataset.writePartitions(writes);
    }
  };

  // Warm-up: one participant (JIT, the bucket, the database's caches), not counted.
  await writeParticipant(ids.pop() as string);
  const perParticipant = [...ranges.values()].reduce((n, days) => n + days.size, 0);
  const run = async () => {
    const queue = [...ids];
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let id = queue.pop(); id; id = queue.pop()) await writeParticipant(id);
      }),
    );
  };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  if (process.env.BENCH_PROFILE) {
    const { profile } = await profileDuring(path.join(dir, 'writes.cpuprofile'), run);
    printSummary('writePartitions, the backfill writes', summarize(profile, 20));
  } else await run();
  const wall = (performance.now() - t0) / 1000;
  const used = process.cpuUsage(cpu0);
  const cpu = (used.user + used.system) / 1e6;
  const partitions = PARTICIPANTS * perParticipant;
  const ms = (seconds: number) => `${((seconds / partitions) * 1e3).toFixed(2)} ms`;
  console.log(
    `${DAILY_TYPES.length} types × 87 days (${calls} calls, fetched once): ${partitions} partitions (${PARTICIPANTS} participants × ${perParticipant}), ${CONCURRENCY} participants at once, ledger on PostgreSQL`,
  );
  console.log(
    `wall ${wall.toFixed(1)} s (${ms(wall)} a partition); CPU ${cpu.toFixed(1)} s (${ms(cpu)} a partition: user ${(used.user / 1e6).toFixed(1)} s, system ${(used.system / 1e6).toFixed(1)} s)`,
  );
  console.log(
    `load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')} (${os.cpus().length} CPUs)`,
  );
} finally {
  await sandbox.stop();
  await database.close();
  await bench.drop();
  await rm(dir, { recursive: true, force: true });
}
