/**
 * Benchmark of the dashboard's study lists (issue 5, DESIGN §12): a researcher with 200 owned
 * and 50 collaborative studies on PostgreSQL; autocannon at 50 connections against the owned
 * and collaborative list endpoints and, in the same run, a bare Fastify JSON route.
 *
 *   npm run bench:api-dashboard        (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 *
 * It creates and drops its own database; nothing else is touched. Requests go to loopback only.
 */

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CONNECTIONS = 50;
const CLI = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
interface AutocannonResult {
  non2xx: number;
  errors: number;
  requests: { average: number };
  latency: { p50: number; p99: number };
}
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** autocannon in its own process, so the load generator does not share the server's event loop. */
function autocannon(
  url: string,
  seconds: number,
  headers: Record<string, string>,
): Promise<AutocannonResult> {
  const args = [CLI, '-j', '-c', String(CONNECTIONS), '-d', String(seconds)];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      if (error) reject(error);
      else resolve(JSON.parse(stdout) as AutocannonResult);
    });
  });
}

async function measure(url: string, headers: Record<string, string> = {}) {
  // A short warm-up fills caches and connection pools before the measured run.
  await autocannon(url, 2, headers);
  const result = await autocannon(url, DURATION_SECONDS, headers);
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

const dbName = `wrp_bench_${process.pid}`;
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wrp-bench-'));
await admin(`create database ${dbName}`);
const databaseUrl = new URL(ADMIN_URL);
databaseUrl.pathname = `/${dbName}`;

const config = loadConfig({
  DATABASE_URL: databaseUrl.toString(),
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  RUN_WORKERS: 'false',
  // The benchmark is one client address making thousands of calls a second.
  RATE_LIMIT_MAX: '100000000',
  ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  WEB_DIST_DIR: path.join(dataDir, 'no-web'),
});
const app = await buildApp(config);
const bare = Fastify();
bare.get('/bare', async () => ({ success: true, data: [] }));
// The floor for any database-backed route here: one trivial query through a pool.
const pool = new pg.Pool({ connectionString: databaseUrl.toString(), max: 10 });
bare.get('/bare-db', async () => ({
  success: true,
  data: (await pool.query('select 1 as one')).rows,
}));

try {
  const { master, studies, auth } = app.services;
  const ctx = { ip: '127.0.0.1' };
  await master.createOrPromoteMaster({
    email: 'bench-master@example.org',
    password: 'bench-master',
  });
  const masterSession = await auth.login(
    { email: 'bench-master@example.org', password: 'bench-master' },
    ctx,
  );

  async function approvedResearcher(email: string) {
    const session = await auth.register(
      { email, password: 'bench-password', displayName: 'Bench Researcher' },
      ctx,
    );
    const submit = await app.inject({
      method: 'POST',
      url: '/api/admin/researcher-applications',
      headers: { authorization: `Bearer ${session.token}` },
      payload: {
        firstName: 'Bench',
        lastName: 'Researcher',
        email,
        dateOfBirth: '1980-01-01',
        phoneNumber: '(555) - 555 - 0100',
        institution: 'Benchmark University',
        position: 'Professor',
      },
    });
    const { applicationId } = submit.json() as { applicationId: string };
    await app.inject({
      method: 'POST',
      url: `/api/admin/researcher-applications/${applicationId}/approve`,
      headers: { authorization: `Bearer ${masterSession.token}` },
      payload: {},
    });
    const user = await app.services.auth.authenticate(session.token);
    if (!user) throw new Error('researcher session missing');
    return { token: session.token, user: user.user };
  }

  console.log('Seeding: 1 researcher with 200 owned and 50 collaborative studies…');
  const researcher = await approvedResearcher('bench-researcher@example.org');
  const colleague = await approvedResearcher('bench-colleague@example.org');
  const description =
    'A twelve-week observational study of sleep, heart rate and activity in adults. '.repeat(3);
  for (let i = 0; i < 200; i++) {
    await studies.create(
      researcher.user,
      { name: `Owned study ${i + 1}`, description, duration: '12 weeks', password: 'bench-pass' },
      ctx,
    );
  }
  for (let i = 0; i < 50; i++) {
    await studies.create(
      colleague.user,
      {
        name: `Shared study ${i + 1}`,
        description,
        collaborators: ['bench-researcher@example.org'],
      },
      ctx,
    );
  }

  const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
  const auth_ = { authorization: `Bearer ${researcher.token}` };
  const owned = await app.inject({ url: '/api/auth/researcher-studies?limit=200', headers: auth_ });
  const collab = await app.inject({
    url: '/api/auth/collaborative-studies?limit=50',
    headers: auth_,
  });
  console.log(
    `Owned: ${owned.json().totalCount} studies (${owned.body.length} bytes in full); collaborative: ${collab.json().totalCount}.`,
  );

  console.log(`Measuring ${DURATION_SECONDS} s each at ${CONNECTIONS} connections…`);
  const rows = [
    ['bare Fastify JSON route', await measure(`${bareUrl}/bare`)],
    ['bare Fastify route + one `select 1` (pg pool)', await measure(`${bareUrl}/bare-db`)],
    [
      'GET /api/admin/check-master-status (session look-up only)',
      await measure(`${appUrl}/api/admin/check-master-status`, auth_),
    ],
    [
      'owned, first page (24 of 200, as the dashboard asks)',
      await measure(`${appUrl}/api/auth/researcher-studies`, auth_),
    ],
    [
      'collaborative, first page (24 of 50)',
      await measure(`${appUrl}/api/auth/collaborative-studies`, auth_),
    ],
    [
      'owned, all 200 at once (limit=200)',
      await measure(`${appUrl}/api/auth/researcher-studies?limit=200`, auth_),
    ],
    [
      'collaborative, all 50 at once (limit=50)',
      await measure(`${appUrl}/api/auth/collaborative-studies?limit=50`, auth_),
    ],
  ] as const;
  const baseline = rows[0][1].rps;
  console.log('\n| endpoint | req/s | p50 ms | p99 ms | vs bare |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const [name, r] of rows) {
    console.log(
      `| ${name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${(r.rps / baseline).toFixed(3)} |`,
    );
  }
} finally {
  await app.close();
  await bare.close();
  await pool.end();
  await admin(`drop database if exists ${dbName} with (force)`);
  await rm(dataDir, { recursive: true, force: true });
}
