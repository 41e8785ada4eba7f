/**
 * Benchmark of the adherence calls (issue 22's budget: p99 ≤ 200 ms at 10 concurrent for the heat
 * map over 28 and 90 days, ≤ 100 ms for a day of heart rate) on PostgreSQL: one study of 500
 * participants × 90 days with all 12 types in the dataset's ledger (540,000 rows), their day
 * cells made by the read model's backfill migration, and one real day of one-second heart rate
 * (the sandbox's pages, written by the dataset). autocannon at 10 connections against each call
 * and a bare Fastify route with one `select 1`, in the same run.
 *
 *   npm run bench:adherence      (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 *   BENCH_PROFILE=heat npm run bench:adherence   (CPU profile of matching calls)
 *
 * The ledger rows are inserted with SQL (writing 540,000 partitions would only measure seeding).
 */

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { bucketNameForStudy, DATA_TYPES } from '@research/contracts';
import type { Sandbox } from '@research/sandbox';
import { connect } from '../apps/sandbox/src/test/health-flow.js';
import { createDataset, type RawPage } from '../apps/server/src/modules/dataset/index.js';
import { addDays, callsFor } from '../apps/server/src/modules/extraction/plan.js';
import { createProviderCall } from '../apps/server/src/modules/extraction/provider-call.js';
import { type Measurement, measure } from './lib/load.js';
import { printSummary, profileDuring, summarize } from './lib/profile.js';
import { spawnSandbox } from './lib/sandbox-process.js';
import { startBenchEnvironment } from './lib/setup.js';

const PARTICIPANTS = 500;
const DAYS = 90;
const CONNECTIONS = 10;
const COLD_SAMPLES = 20;
const P99_HEAT_MAP_MS = 200;
const P99_HEART_RATE_MS = 100;

const sandbox = await spawnSandbox({
  dataDir: path.join(process.env.TMPDIR ?? '/tmp', `wrp-bench-adherence-${process.pid}`),
});
const env = await startBenchEnvironment('adherence', { GOOGLE_ISSUER: sandbox.issuer });
try {
  const { app, bare, pool } = env;
  const owner = await env.approvedResearcher('bench-owner@example.org', 'Bench Owner');
  const ownerUser = (await app.services.auth.authenticate(owner.token))?.user;
  if (!ownerUser) throw new Error('owner session missing');
  const study = await app.services.studies.create(
    ownerUser,
    {
      name: 'Adherence bench',
      description: 'Wear and sync',
      duration: '12 weeks',
      password: 'bench-pass',
    },
    { ip: '127.0.0.1' },
  );
  const today = new Date().toISOString().slice(0, 10);
  console.log(`Seeding ${PARTICIPANTS} participants × ${DAYS} days × ${DATA_TYPES.length} types…`);
  await pool.query(
    `insert into participants (id, study_id, email, first_name, last_name, status, enrolled_at)
     select 'P' || lpad(to_hex(i), 16, '0'), $1, 'participant-' || i || '@example.org',
            'First' || i, 'Last' || i, 'enrolled', now() - interval '100 days'
       from generate_series(1, $2::int) as i`,
    [study.id, PARTICIPANTS],
  );
  await pool.query(
    `insert into wearable_connections (participant_id, study_id, health_user_id, status, connected_at,
                                       last_device_sync_at, battery_level)
     select 'P' || lpad(to_hex(i), 16, '0'), $1, 'health-user-' || i, 'active', now() - interval '100 days',
            now() - make_interval(hours => i % 96), 20 + i % 80
       from generate_series(1, $2::int) as i`,
    [study.id, PARTICIPANTS],
  );
  // Rows shaped as collection writes them: file keys, sizes and hashes, a trigger, the figures.
  await pool.query(
    `insert into dataset_partitions (study_id, participant_id, data_type, date, time_zone, state, reason,
       version, row_count, rows_file, raw_files, fetched_at, trigger, steps, wear_minutes,
       resting_heart_rate_bpm, sleep_minutes, sleep_stages)
     select $1, 'P' || lpad(to_hex(p), 16, '0'), t.type, $2::date - d, 'America/New_York',
       case when (p * 7 + d) % 50 = 0 then 'failed' when d = 0 then 'partial' else 'complete' end,
       case when (p * 7 + d) % 50 = 0 then 'Google answered 503' end,
       md5(p::text || t.type || d), 1000,
       jsonb_build_object('key', 'dataset/type=' || t.type || '/participant=P' || p || '/date=' || ($2::date - d) || '/v=x/rows.parquet', 'bytes', 123456, 'sha256', md5(p::text) || md5(d::text)),
       (select jsonb_agg(jsonb_build_object('key', 'dataset/type=' || t.type || '/participant=P' || p || '/date=' || ($2::date - d) || '/v=x/raw/000' || k || '-page.json', 'bytes', 123456, 'sha256', md5(p::text) || md5(k::text)))
          from generate_series(1, case when t.type = 'heartrate_intraday_1sec' then 8 else 1 end) k),
       now(), '{"kind":"sweep"}'::jsonb,
       case when t.type in ('activity_summary', 'activity_steps_timeseries', 'activity_steps_intraday') then 4000 + (p * d) % 9000 end,
       case when t.type like 'heartrate_intraday%' then 300 + (p * d) % 1000 end,
       case when t.type in ('heartrate_summary', 'heartrate_timeseries') then 55 + p % 20 end,
       case when t.type = 'sleep_log' then 360 + p % 120 end,
       case when t.type = 'sleep_log' then '{"deep":80,"light":220,"rem":90,"awake":40,"asleep":0}'::jsonb end
     from generate_series(1, $3::int) p, generate_series(0, $4::int - 1) d, unnest($5::text[]) t(type)`,
    [study.id, today, PARTICIPANTS, DAYS, DATA_TYPES],
  );
  // The read model of these rows, made as the migration makes it for a ledger that predates it.
  await pool.query('delete from dataset_day_months where study_id = $1', [study.id]);
  await pool.query(
    await readFile(
      new URL('../apps/server/drizzle/0019_adherence-read-model-backfill.sql', import.meta.url),
      'utf8',
    ),
  );

  // One real day of one-second heart rate, through the dataset (the first participant's today−2).
  const hrDate = addDays(today, -2);
  const issuer = sandbox.issuer;
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
  const { access_token, scope } = await connect(asSandbox, 'bench.adherence.001@gmail.test');
  const exchange = createProviderCall({
    endpoints: app.platform.config.googleHealth,
    fetch,
    beforeEach: async () => {},
  });
  const pages: RawPage[] = [];
  for (const call of callsFor('heartrate_intraday_1sec', hrDate, hrDate, scope.split(' '))) {
    let token: string | null = null;
    do {
      const { bytes, body } = await exchange(access_token, call, token, null);
      pages.push({ call: call.spec.key, body: bytes });
      token = (body as { nextPageToken?: string }).nextPageToken || null;
    } while (token);
  }
  const participantId = 'P0000000000000001';
  const written = await createDataset({
    db: app.platform.db,
    objectStore: app.platform.objectStore,
    bucketOf: bucketNameForStudy,
  }).writePartition({
    studyId: study.id,
    participantId,
    type: 'heartrate_intraday_1sec',
    date: hrDate,
    timeZone: 'America/New_York',
    rawPages: pages,
    trigger: { kind: 'sweep' },
  });
  await pool.query('vacuum analyze');

  const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
  const headers = { authorization: `Bearer ${owner.token}` };
  const heat = (days: number) =>
    `/api/studies/${study.id}/adherence?from=${addDays(today, -(days - 1))}&to=${today}`;
  const hrPath = `/api/participants/${participantId}/heart-rate?date=${hrDate}`;
  for (const [url, check] of [
    [
      heat(28),
      (b: { participants: unknown[]; days: unknown[] }) =>
        b.participants.length === PARTICIPANTS && b.days.length === 28,
    ],
    [
      heat(90),
      (b: { participants: unknown[]; days: unknown[] }) =>
        b.participants.length === PARTICIPANTS && b.days.length === 90,
    ],
  ] as const) {
    const res = await app.inject({ url, headers });
    if (res.statusCode !== 200 || !check(res.json())) throw new Error(`${url}: ${res.statusCode}`);
    const body = res.json();
    console.log(`${url}: ${res.body.length} bytes, summary ${JSON.stringify(body.summary)}`);
  }
  const hr = await app.inject({ url: hrPath, headers });
  const hrBody = hr.json();
  if (hrBody.sampleCount !== written.rowCount) throw new Error('heart rate: samples do not match');
  console.log(
    `heart rate ${hrDate}: ${hrBody.sampleCount} samples in ${pages.length} pages → ${hrBody.times.length} points (${hrBody.downsampling})`,
  );

  // Nothing kept: each heat map after a ledger change (a month row touched, as every write does),
  // each heart-rate day read for the first time (the same pages written under other dates), one
  // request at a time.
  const cold: [string, number[]][] = [];
  for (const days of [28, 90]) {
    const times: number[] = [];
    for (let i = 0; i < COLD_SAMPLES; i++) {
      await pool.query(
        `update dataset_day_months set updated_at = now()
          where (study_id, participant_id, month) in
            (select study_id, participant_id, month from dataset_day_months where study_id = $1 limit 1)`,
        [study.id],
      );
      const started = performance.now();
      const res = await app.inject({ url: heat(days), headers });
      times.push(performance.now() - started);
      if (res.statusCode !== 200) throw new Error(`heat map: ${res.statusCode}`);
    }
    cold.push([`heat map, ${days} days × 500, after a ledger change`, times]);
  }
  const dataset = createDataset({
    db: app.platform.db,
    objectStore: app.platform.objectStore,
    bucketOf: bucketNameForStudy,
  });
  const hrTimes: number[] = [];
  for (let i = 1; i <= COLD_SAMPLES; i++) {
    const date = addDays(hrDate, -i);
    await dataset.writePartition({
      studyId: study.id,
      participantId,
      type: 'heartrate_intraday_1sec',
      date,
      timeZone: 'America/New_York',
      rawPages: pages,
      trigger: { kind: 'sweep' },
    });
    const started = performance.now();
    const res = await app.inject({
      url: `/api/participants/${participantId}/heart-rate?date=${date}`,
      headers,
    });
    hrTimes.push(performance.now() - started);
    if (res.statusCode !== 200) throw new Error(`heart rate: ${res.statusCode}`);
  }
  cold.push(['heart-rate day, first read', hrTimes]);
  console.log(`\nNothing kept, one request at a time (${COLD_SAMPLES} each):`);
  console.log('| call | p50 ms | max ms |');
  console.log('| --- | ---: | ---: |');
  for (const [name, times] of cold) {
    const sorted = [...times].sort((a, b) => a - b);
    const p50 = sorted[Math.floor(sorted.length / 2)] as number;
    console.log(`| ${name} | ${p50.toFixed(0)} | ${(sorted.at(-1) as number).toFixed(0)} |`);
  }

  const targets = [
    {
      name: 'bare Fastify route + one `select 1` (pg pool)',
      url: `${bareUrl}/bare-db`,
      budget: null,
    },
    { name: 'heat map, 28 days × 500', url: `${appUrl}${heat(28)}`, budget: P99_HEAT_MAP_MS },
    { name: 'heat map, 90 days × 500', url: `${appUrl}${heat(90)}`, budget: P99_HEAT_MAP_MS },
    {
      name: `heart-rate day (${hrBody.sampleCount} samples → ${hrBody.times.length})`,
      url: `${appUrl}${hrPath}`,
      budget: P99_HEART_RATE_MS,
    },
  ];
  const filter = process.env.BENCH_PROFILE;
  if (filter) {
    for (const target of targets) {
      if (filter !== 'all' && !target.name.includes(filter)) continue;
      const file = path.join(
        process.cwd(),
        `bench-${target.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.cpuprofile`,
      );
      const { profile } = await profileDuring(file, async () => {
        await measure(target.url, headers, CONNECTIONS);
      });
      printSummary(target.name, summarize(profile));
    }
  } else {
    console.log(`Measuring at ${CONNECTIONS} connections…`);
    const rows: [string, Measurement, number | null][] = [];
    for (const target of targets) {
      rows.push([target.name, await measure(target.url, headers, CONNECTIONS), target.budget]);
    }
    console.log('\n| call | req/s | p50 ms | p99 ms | budget (p99) |');
    console.log('| --- | ---: | ---: | ---: | --- |');
    for (const [name, r, budget] of rows) {
      const verdict = budget === null ? '' : `${budget} ms: ${r.p99 <= budget ? 'met' : 'not met'}`;
      console.log(`| ${name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${verdict} |`);
    }
  }
} finally {
  await env.close();
  await sandbox.stop();
}
