/**
 * Benchmark of the study audit trail (the budget: p99 ≤ 100 ms) on PostgreSQL: one study
 * of 5,000 participants with 200,000 audit records over a year, from its owner, two colleagues and
 * its participants, beside 100,000 platform events (sign-ins of the team and of 1,000 other
 * researchers). autocannon at 10 connections against the first page, a deep page (a cursor
 * 150,000 rows down), a page of one kind, one person's page in a month, and the bare `select 1`.
 *
 *   npm run bench:audit      (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 *
 * The records are inserted with SQL (`insert … select generate_series`): 200,000 calls would
 * only measure seeding.
 */

import os from 'node:os';
import path from 'node:path';
import { auditKindOf } from '@research/contracts';
import type { SQL } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import { createAuditTrail } from '../apps/server/src/modules/audit/index.js';
import { type Measurement, measure } from './lib/load.js';
import { printSummary, profileDuring, summarize } from './lib/profile.js';
import { startBenchEnvironment } from './lib/setup.js';

const PARTICIPANTS = 5_000;
const RECORDS = 200_000;
const PLATFORM_RECORDS = 100_000;
const CONNECTIONS = 10;
const P99_BUDGET_MS = 100;

const env = await startBenchEnvironment('audit');
try {
  const { app, bare, pool } = env;
  const owner = await env.approvedResearcher('bench-owner@example.org', 'Bench Owner');
  const colleagues = [
    await env.approvedResearcher('bench-colleague-1@example.org', 'Colleague One'),
    await env.approvedResearcher('bench-colleague-2@example.org', 'Colleague Two'),
  ];
  const ownerUser = (await app.services.auth.authenticate(owner.token))?.user;
  if (!ownerUser) throw new Error('owner session missing');
  const study = await app.services.studies.create(
    ownerUser,
    { name: 'Audit bench', description: 'A year of events', password: 'bench-pass' },
    { ip: '127.0.0.1' },
  );
  for (const c of colleagues)
    await pool.query(
      `insert into study_members (study_id, user_id, role) values ($1, $2, 'collab')`,
      [study.id, c.id],
    );
  const team = [owner.id, ...colleagues.map((c) => c.id)];

  console.log(`Seeding ${PARTICIPANTS} participants and ${RECORDS} audit records…`);
  await pool.query(
    `insert into participants (id, study_id, email, first_name, last_name, status, enrolled_at)
     select 'P' || lpad(to_hex(i), 16, '0'), $1, 'participant-' || i || '@example.org',
            'First' || i, 'Last' || i, 'enrolled', now() - interval '300 days'
       from generate_series(1, $2::int) as i`,
    [study.id, PARTICIPANTS],
  );
  // A year of the study's events: a third by participants (joins, codes, wearables), the rest
  // by the team, mostly reads of participant data, some exports, token uses and mail.
  const actions = [
    'participant.enrolled',
    'participant.email_verified',
    'wearable.connected',
    'participant.viewed',
    'participants.listed',
    'adherence.viewed',
    'participant.charts_viewed',
    'export.start',
    'access_token.used',
    'email.participant_contact',
    'study.updated',
  ];
  // Each row's kind as the product stores it (recordAudit: auditKindOf).
  await pool.query(
    `insert into audit_events (actor_id, study_id, action, kind, target_type, target_id, details, ip, created_at)
     select actor_id, $1, action, ($6::text[])[array_position($5::text[], action)], 'participant',
            target_id, details, ip, created_at
       from (select case when i % 3 = 0 then null else ($3::text[])[1 + i % 3] end as actor_id,
                    case when i % 3 = 0 then ($5::text[])[1 + i % 9 / 3]
                         else ($5::text[])[4 + i % 8] end as action,
                    'P' || lpad(to_hex(1 + i % $2::int), 16, '0') as target_id,
                    jsonb_build_object('shown', i % 50) as details, '198.51.100.' || (i % 250) as ip,
                    now() - make_interval(secs => (i::float8 * 365 * 86400 / $4::int)) as created_at
               from generate_series(1, $4::int) as i) as seeded`,
    [study.id, PARTICIPANTS, team, RECORDS, actions, actions.map(auditKindOf)],
  );
  // Platform events: sign-ins of the team (shown in the study's trail) and of 1,000 others.
  await pool.query(
    `insert into audit_events (actor_id, action, kind, target_type, target_id, ip, created_at)
     select case when i % 100 = 0 then ($2::text[])[1 + i % 3] else md5(((i % 1000))::text)::uuid::text end,
            'auth.sign_in', 'sign_in', 'user', null, '203.0.113.' || (i % 250),
            now() - make_interval(secs => (i::float8 * 365 * 86400 / $1::int))
       from generate_series(1, $1::int) as i`,
    [PLATFORM_RECORDS, team],
  );
  await pool.query('vacuum analyze');

  const deep = await pool.query<{ cursor: string }>(
    `select encode(convert_to(to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '|' || id, 'UTF8'), 'base64') as cursor
       from audit_events where study_id = $1 order by created_at desc, id desc offset 150000 limit 1`,
    [study.id],
  );
  const cursor = (deep.rows[0]?.cursor ?? '')
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
  const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  const base = `/api/studies/${study.id}/audit`;
  const calls = [
    ['first page (50)', `${base}?limit=50`],
    ['deep page (cursor 150,000 rows down)', `${base}?limit=50&cursor=${cursor}`],
    ['one kind (data access), 200 rows', `${base}?kind=data_access&limit=200`],
    ['one person, the last 30 days', `${base}?actor=${colleagues[0]?.id}&from=${monthAgo}`],
    ['one kind (sign-ins: the team’s platform events)', `${base}?kind=sign_in`],
    ['a kind with no entries (consent): the whole study read', `${base}?kind=consent`],
  ] as const;
  const headers = { authorization: `Bearer ${owner.token}` };
  for (const [name, url] of calls) {
    const res = await app.inject({ url, headers });
    if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body}`);
    console.log(`${name}: ${res.json().events.length} rows`);
  }
  // Each call's page statement as the product sends it, with its plan (captured by a database
  // that only records what it is asked, then explained on the bench's pool).
  const dialect = (app.platform.db as unknown as { dialect: PgDialect }).dialect;
  for (const [name, url] of calls) {
    const statements: SQL[] = [];
    const recorder = {
      execute: async (statement: SQL) => {
        statements.push(statement);
        return { rows: [] };
      },
    };
    const query = Object.fromEntries(new URL(url, 'http://bench').searchParams);
    await createAuditTrail(recorder as unknown as Parameters<typeof createAuditTrail>[0]).page(
      { studyId: study.id },
      { ...query, limit: Number(query.limit ?? 50) } as Parameters<
        ReturnType<typeof createAuditTrail>['page']
      >[1],
    );
    const [statement] = statements;
    if (!statement) continue;
    const { sql: text, params } = dialect.sqlToQuery(statement);
    const plan = await pool.query(`explain (analyze, buffers, costs off) ${text}`, params);
    console.log(`\n${name}:\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}`);
  }

  const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
  console.log(`Measuring at ${CONNECTIONS} connections…`);
  const rows: [string, Measurement, number | null][] = [
    [
      'bare Fastify route + one `select 1` (pg pool)',
      await measure(`${bareUrl}/bare-db`, {}, CONNECTIONS),
      null,
    ],
  ];
  for (const [name, url] of calls) {
    const run = () => measure(`${appUrl}${url}`, headers, CONNECTIONS);
    // BENCH_PROFILE=1: a CPU profile of the server while it answers the first page.
    if (process.env.BENCH_PROFILE && url === calls[0][1]) {
      let result: Measurement | undefined;
      const profile = await profileDuring(
        path.join(os.tmpdir(), 'bench-audit.cpuprofile'),
        async () => {
          result = await run();
        },
      );
      printSummary(
        `Server during "${name}", self time (${profile.file})`,
        summarize(profile.profile, 15),
      );
      if (result) rows.push([name, result, P99_BUDGET_MS]);
    } else rows.push([name, await run(), P99_BUDGET_MS]);
  }
  const [load1, load5] = os.loadavg();
  console.log(`\nload average ${load1?.toFixed(2)} / ${load5?.toFixed(2)} (1 / 5 min)`);
  console.log('| call | req/s | p50 ms | p99 ms | budget (p99) |');
  console.log('| --- | ---: | ---: | ---: | --- |');
  for (const [name, r, budget] of rows) {
    const verdict = budget === null ? '' : `${budget} ms: ${r.p99 <= budget ? 'met' : 'not met'}`;
    console.log(`| ${name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${verdict} |`);
  }
} finally {
  await env.close();
}
