/**
 * Benchmark of the study detail screen's calls (budget in
 * docs/architecture.md#performance-budgets) on PostgreSQL: one study with 5,000 participants (3,000
 * with a wearable connection), 2,000 pending participants, 300 mailings (20 recipients each, every
 * tenth 1,000; with their outbound queue rows) and 10 collaborators. autocannon at 50 connections
 * against each tab's first page and the stats, next to a bare Fastify JSON route measured in the
 * same run.
 *
 *   npm run bench:api-study-detail     (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 *   BENCH_PROFILE=participants npm run bench:api-study-detail   (CPU profile of matching endpoints)
 *
 * Accounts and the study go through the real services; the bulk rows are inserted with SQL
 * (thousands of API calls would only measure seeding). It creates and drops its own database.
 */

import { runTargets } from './lib/run.js';
import { startBenchEnvironment } from './lib/setup.js';

const PARTICIPANTS = 5000;
const CONNECTED = 3000;
const PENDING = 2000;
const MAILINGS = 300;
const RECIPIENTS_PER_MAILING = 20;
const RECIPIENTS_PER_LARGE_MAILING = 1000;
const COLLABORATORS = 10;

const env = await startBenchEnvironment('study_detail');
try {
  const { app, bare, pool } = env;
  const ctx = { ip: '127.0.0.1' };

  console.log(
    `Seeding: 1 study with ${PARTICIPANTS} participants, ${PENDING} pending, ${MAILINGS} mailings, ${COLLABORATORS} collaborators…`,
  );
  const owner = await env.approvedResearcher('bench-owner@example.org', 'Bench Owner');
  const ownerUser = (await app.services.auth.authenticate(owner.token))?.user;
  if (!ownerUser) throw new Error('owner session missing');
  const study = await app.services.studies.create(
    ownerUser,
    {
      name: 'Sleep and activity in adults',
      description: 'A twelve-week observational study of sleep, heart rate and activity.',
      duration: '12 weeks',
      password: 'bench-pass',
    },
    ctx,
  );
  for (let i = 0; i < COLLABORATORS; i++) {
    const collaborator = await env.approvedResearcher(
      `bench-collaborator-${i + 1}@example.org`,
      `Collaborator ${i + 1}`,
    );
    await pool.query(
      `insert into study_members (study_id, user_id, role) values ($1, $2, 'collab')`,
      [study.id, collaborator.id],
    );
  }
  await pool.query(
    `insert into participants (id, study_id, email, first_name, last_name, phone_number, status, enrolled_at)
     select 'P' || lpad(to_hex(i), 16, '0'), $1, 'participant-' || i || '@example.org',
            'First' || i, 'Last' || (i % 997), '(555) - 01' || lpad((i % 100)::text, 2, '0') || ' - 000',
            'enrolled', now() - make_interval(mins => i)
       from generate_series(1, $2::int) as i`,
    [study.id, PARTICIPANTS],
  );
  await pool.query(
    `insert into wearable_connections (participant_id, study_id, health_user_id, access_token_encrypted,
                                       refresh_expires_at, status)
     select 'P' || lpad(to_hex(i), 16, '0'), $1, 'health-user-' || i, 'v1:bench',
            now() + interval '7 days', 'active'
       from generate_series(1, $2::int) as i`,
    [study.id, CONNECTED],
  );
  await pool.query(
    `insert into pending_participants (study_id, email, phone_number, status, invited_by, invited_at, created_at)
     select $1, 'pending-' || i || '@example.org', case when i % 3 = 0 then null else '(555) - 0200 - 000' end,
            case when i % 2 = 0 then 'invited' else 'pre-enrolled' end, $3,
            case when i % 2 = 0 then now() - make_interval(mins => i) end, now() - make_interval(mins => i)
       from generate_series(1, $2::int) as i`,
    [study.id, PENDING, owner.id],
  );
  // Most mailings reach a handful of people; every tenth went to 1,000 (a whole-roster invite).
  await pool.query(
    `with mailing as (
       insert into email_messages (study_id, kind, subject, body, recipient_count, sent_by, sent_at)
       select $1, (array['invitation', 'participant_contact', 'collaborator_invitation', 'collaborator_contact'])[1 + i % 4],
              'Study update ' || i, repeat('Thank you for taking part in the study. ', 12),
              case when i % 10 = 0 then $4::int else $3::int end, $5, now() - make_interval(hours => i)
         from generate_series(1, $2::int) as i
       returning id, recipient_count),
     recipient as (
       select m.id as message_id, 'participant-' || r || '@example.org' as address, gen_random_uuid() as outbound_id,
              (array['sent', 'sent', 'sent', 'queued', 'failed'])[1 + r % 5] as status
         from mailing m, generate_series(1, m.recipient_count) as r),
     outbound as (
       insert into outbound_messages (id, channel, purpose, payload_encrypted, status)
       select outbound_id, 'email', 'study_email', 'v1:bench', status from recipient)
     insert into email_recipients (message_id, address, outbound_message_id)
     select message_id, address, outbound_id from recipient`,
    [study.id, MAILINGS, RECIPIENTS_PER_MAILING, RECIPIENTS_PER_LARGE_MAILING, owner.id],
  );
  // As autovacuum would have by now: statistics and the visibility map (index-only counts).
  await pool.query('vacuum analyze');

  const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
  const headers = { authorization: `Bearer ${owner.token}` };
  const paths = {
    // As the screen asks for the first page: 25 rows, newest first (useListState's default).
    participants: `/api/studies/${study.id}/participants?limit=25&offset=0&sort=enrolledAt&order=desc`,
    pending: `/api/studies/${study.id}/pending-participants?limit=25&offset=0&sort=createdAt&order=desc`,
    members: `/api/studies/${study.id}/members`,
    history: `/api/email/history/${study.id}`,
    stats: `/api/studies/${study.id}/stats`,
  };
  // Each answer is checked once before the load: the seed must be what the tabs show.
  const get = async (url: string) => {
    const res = await app.inject({ url, headers });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return { body: res.json(), bytes: res.body.length };
  };
  const stats = (await get(paths.stats)).body.stats;
  const participants = await get(paths.participants);
  const pending = await get(paths.pending);
  const members = await get(paths.members);
  const history = await get(paths.history);
  console.log(
    `Stats: ${JSON.stringify(stats)}\n` +
      `First pages: participants ${participants.body.participants.length} of ${participants.body.totalCount} (${participants.bytes} bytes), ` +
      `pending ${pending.body.pendingParticipants.length} of ${pending.body.totalCount} (${pending.bytes} bytes), ` +
      `members ${members.body.members.length} (${members.bytes} bytes), ` +
      `e-mails ${history.body.emails.length} of ${history.body.totalCount} (${history.bytes} bytes).`,
  );
  if (
    stats.participants !== PARTICIPANTS ||
    stats.pendingParticipants !== PENDING ||
    stats.members !== COLLABORATORS + 1 ||
    stats.emails !== MAILINGS ||
    stats.authorizedParticipants !== CONNECTED
  )
    throw new Error('the stats do not match the seed');

  await runTargets([
    { name: 'bare Fastify JSON route', url: `${bareUrl}/bare` },
    { name: 'bare Fastify route + one `select 1` (pg pool)', url: `${bareUrl}/bare-db` },
    {
      name: 'GET /api/studies/:id (session + study access + study)',
      url: `${appUrl}/api/studies/${study.id}`,
      headers,
    },
    {
      name: `participants, first page (${participants.body.participants.length} of ${PARTICIPANTS})`,
      url: `${appUrl}${paths.participants}`,
      headers,
    },
    {
      name: `pending participants, first page (${pending.body.pendingParticipants.length} of ${PENDING})`,
      url: `${appUrl}${paths.pending}`,
      headers,
    },
    {
      name: `study members (${COLLABORATORS + 1})`,
      url: `${appUrl}${paths.members}`,
      headers,
    },
    {
      name: `e-mail history, first page (${history.body.emails.length} of ${MAILINGS})`,
      url: `${appUrl}${paths.history}`,
      headers,
    },
    { name: 'stats (tab counts)', url: `${appUrl}${paths.stats}`, headers },
  ]);
} finally {
  await env.close();
}
