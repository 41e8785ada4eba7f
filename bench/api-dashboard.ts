/**
 * Benchmark of the dashboard's study lists (budget in
 * docs/architecture.md#performance-budgets): a researcher with 200 owned and 50 collaborative
 * studies on PostgreSQL; autocannon at 50 connections against the owned and collaborative list
 * endpoints and, in the same run, a bare Fastify JSON route.
 *
 *   npm run bench:api-dashboard        (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 *   BENCH_PROFILE=owned npm run bench:api-dashboard     (CPU profile of the matching endpoints)
 *
 * It creates and drops its own database; nothing else is touched. Requests go to loopback only.
 */

import { runTargets } from './lib/run.js';
import { startBenchEnvironment } from './lib/setup.js';

const env = await startBenchEnvironment('dashboard');
try {
  const { app, bare } = env;
  const { studies, auth } = app.services;
  const ctx = { ip: '127.0.0.1' };

  console.log('Seeding: 1 researcher with 200 owned and 50 collaborative studies…');
  const researcher = await env.approvedResearcher('bench-researcher@example.org');
  const colleague = await env.approvedResearcher('bench-colleague@example.org');
  const owner = (await auth.authenticate(researcher.token))?.user;
  const colleagueUser = (await auth.authenticate(colleague.token))?.user;
  if (!owner || !colleagueUser) throw new Error('researcher sessions missing');
  const description =
    'A twelve-week observational study of sleep, heart rate and activity in adults. '.repeat(3);
  for (let i = 0; i < 200; i++) {
    await studies.create(
      owner,
      { name: `Owned study ${i + 1}`, description, duration: '12 weeks', password: 'bench-pass' },
      ctx,
    );
  }
  for (let i = 0; i < 50; i++) {
    await studies.create(
      colleagueUser,
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
  const headers = { authorization: `Bearer ${researcher.token}` };
  const owned = await app.inject({ url: '/api/auth/researcher-studies?limit=200', headers });
  const collab = await app.inject({ url: '/api/auth/collaborative-studies?limit=50', headers });
  console.log(
    `Owned: ${owned.json().totalCount} studies (${owned.body.length} bytes in full); collaborative: ${collab.json().totalCount}.`,
  );

  // The list's cards must read exactly as the study itself does (less the owner-only password).
  const card = owned.json().data[0] as { id: string };
  const single = (await app.inject({ url: `/api/studies/${card.id}`, headers })).json().study;
  delete single.password;
  if (JSON.stringify(card) !== JSON.stringify(single))
    throw new Error(
      `list card and study differ:\n${JSON.stringify(card)}\n${JSON.stringify(single)}`,
    );

  await runTargets([
    { name: 'bare Fastify JSON route', url: `${bareUrl}/bare` },
    { name: 'bare Fastify route + one `select 1` (pg pool)', url: `${bareUrl}/bare-db` },
    {
      name: 'GET /api/admin/check-master-status (session look-up only)',
      url: `${appUrl}/api/admin/check-master-status`,
      headers,
    },
    {
      name: 'owned, first page (24 of 200, as the dashboard asks)',
      url: `${appUrl}/api/auth/researcher-studies`,
      headers,
    },
    {
      name: 'collaborative, first page (24 of 50)',
      url: `${appUrl}/api/auth/collaborative-studies`,
      headers,
    },
    {
      name: 'owned, all 200 at once (limit=200)',
      url: `${appUrl}/api/auth/researcher-studies?limit=200`,
      headers,
    },
    {
      name: 'collaborative, all 50 at once (limit=50)',
      url: `${appUrl}/api/auth/collaborative-studies?limit=50`,
      headers,
    },
  ]);
} finally {
  await env.close();
}
