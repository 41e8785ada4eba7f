/**
 * Mail under a bulk send: 500 participant invitations queued through the product's own path
 * (POST /api/email/invitations as a researcher), then one of the invitees enrols at once
 * (POST /api/participants/enroll-direct, which mails a verification code). Both go to the
 * sandbox's SMTP relay in a process of its own.
 *
 *   npm run bench:mail     (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 *   MAIL_BENCH_COUNT=100 npm run bench:mail     (a quick run)
 *
 * Reported: when the last invitation reached the relay (from the invitation request), how long
 * the code took to reach the relay after enroll-direct answered, and, for comparison over the same
 * relay, a bare loop sending the same invitation mail COUNT times with nodemailer on one
 * connection, one after the other. Arrival is the relay's clock (the sandbox's receivedAt); the
 * sandbox keeps only its newest 500 messages, so "all sent" is read from the outbound queue
 * (a row is marked sent once the relay accepted it) and the last arrival from the relay.
 *
 * The server runs in a child process (apps/server/src/main.ts with its job workers, as `npm start`
 * runs it). Seeding goes through the services in this process before it starts. It creates and
 * drops its own database and data folder; everything stays on loopback. It fails (exit code 1)
 * unless every invitation and the code were accepted by the relay.
 */

import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { invitationEmail, VERIFICATION_CODE_TEXTS } from '@research/contracts';
import { and, count, eq, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import {
  outboundMessages,
  researcherApplications,
  users,
} from '../apps/server/src/db/schema/index.js';
import { renderEmail } from '../apps/server/src/platform/mail-templates.js';
import { createMailer } from '../apps/server/src/platform/mailer.js';
import { processCpuSeconds } from './lib/cpu.js';
import { createBenchDatabase, sandboxEnv, UNREACHED_RATE_LIMIT } from './lib/database.js';
import { freePort } from './lib/ports.js';
import { spawnSandbox } from './lib/sandbox-process.js';
import { startServer } from './lib/server-process.js';

const COUNT = Number(process.env.MAIL_BENCH_COUNT ?? 500);
if (!Number.isInteger(COUNT) || COUNT < 1 || COUNT > 1000)
  throw new Error('MAIL_BENCH_COUNT must be a whole number from 1 to 1000');
/** The longest the bench waits for the queue to drain (the slow path took ~5 min for 500). */
const DRAIN_TIMEOUT_MS = 15 * 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

interface InboxMessage {
  to: string;
  subject: string | null;
  receivedAt: string;
}

const database = await createBenchDatabase('mail');
const sandbox = await spawnSandbox({ dataDir: path.join(database.env.DATA_DIR ?? '', 'sandbox') });
const port = await freePort();
const env = {
  ...database.env,
  ...sandboxEnv(sandbox),
  ...UNREACHED_RATE_LIMIT,
  RUN_WORKERS: 'false',
  PORT: String(port),
  HOST: '127.0.0.1',
  PUBLIC_URL: `http://127.0.0.1:${port}`,
};
const inbox = async (query = ''): Promise<InboxMessage[]> => {
  const res = await fetch(`${sandbox.httpUrl}/inbox/messages.json${query}`);
  return ((await res.json()) as { messages: InboxMessage[] }).messages;
};
const clearInbox = () => fetch(`${sandbox.httpUrl}/inbox/messages`, { method: 'DELETE' });

// Seeding and the migrations in this process, without workers; the server comes after.
const app = await buildApp(loadConfig(env));
let server: ChildProcess | undefined;

try {
  const db = app.platform.db;
  const ctx = { ip: '127.0.0.1' };
  const email = 'bench-owner@example.org';
  const password = 'bench-owner-password';
  await app.services.auth.register({ email, password, displayName: 'Bench Researcher' }, ctx);
  const [owner] = await db
    .update(users)
    .set({ emailVerifiedAt: new Date() })
    .where(eq(users.email, email))
    .returning();
  if (!owner) throw new Error('owner not stored');
  await db.insert(researcherApplications).values({
    userId: owner.id,
    firstName: 'Bench',
    lastName: 'Researcher',
    email,
    dateOfBirth: '1980-01-01',
    phoneNumber: '(555) - 555 - 0100',
    institution: 'Benchmark University',
    position: 'Professor',
    status: 'approved',
  });
  const { token } = await app.services.auth.login({ email, password }, ctx);
  // The default settings: roster only, e-mail verification required.
  const study = await app.services.studies.create(
    owner,
    { name: 'Mail load study', description: 'Four weeks of sleep' },
    ctx,
  );
  const invitation = invitationEmail({
    studyName: study.name,
    description: 'Four weeks of sleep',
    studyCode: study.studyCode,
    baseUrl: env.PUBLIC_URL,
  });
  const invitees = Array.from({ length: COUNT }, (_, i) => `invitee${i + 1}@bench.example.org`);
  // Someone from the middle of the list: with a single queue in order, half the batch is ahead.
  const enrolling = invitees[Math.floor(COUNT / 2)] as string;

  server = await startServer({ ...env, RUN_WORKERS: 'true' }, port);
  const base = `http://127.0.0.1:${port}`;
  const queued = async () => {
    const [row] = await db
      .select({ n: count() })
      .from(outboundMessages)
      .where(eq(outboundMessages.status, 'queued'));
    return Number(row?.n ?? 0);
  };
  // The registration's confirmation mail goes first, so the run starts on an empty queue.
  while ((await queued()) > 0) await sleep(200);
  await clearInbox();

  console.log(
    `${COUNT} invitations through POST /api/email/invitations, then ${enrolling} enrols at once…`,
  );
  const cpuBefore = await Promise.all([processCpuSeconds(server.pid ?? 0), sandbox.cpuSeconds()]);
  const started = Date.now();
  const invited = await fetch(`${base}/api/email/invitations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      studyCode: study.studyCode,
      studyName: study.name,
      participants: invitees.map((address) => ({ email: address })),
      emailSubject: invitation.subject,
      emailBody: invitation.body,
    }),
  });
  const invitedAt = Date.now();
  if (invited.status !== 200)
    throw new Error(`invitations: ${invited.status} ${await invited.text()}`);
  const enrol = await fetch(`${base}/api/participants/enroll-direct`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: enrolling,
      firstName: 'Bench',
      lastName: 'Participant',
      dateOfBirth: '1990-06-15',
      studyCode: study.studyCode,
    }),
  });
  const enrolledAt = Date.now();
  const enrolBody = (await enrol.json()) as { verificationRequired?: boolean };
  if (enrol.status !== 200 || enrolBody.verificationRequired !== true)
    throw new Error(`enroll-direct: ${enrol.status} ${JSON.stringify(enrolBody)}`);

  // The code, read from the relay as it arrives.
  const codeSubject = VERIFICATION_CODE_TEXTS.emailSubject(study.name);
  let codeArrival: number | undefined;
  const purposeSent = async (purpose: string) => {
    const [row] = await db
      .select({ n: count() })
      .from(outboundMessages)
      .where(
        and(eq(outboundMessages.purpose, purpose), sql`${outboundMessages.status} <> 'queued'`),
      );
    return Number(row?.n ?? 0);
  };
  while (Date.now() - started < DRAIN_TIMEOUT_MS) {
    if (codeArrival === undefined) {
      const code = (await inbox(`?to=${encodeURIComponent(enrolling)}`)).find(
        (m) => m.subject === codeSubject,
      );
      if (code) codeArrival = Date.parse(code.receivedAt);
    }
    if (codeArrival !== undefined && (await purposeSent('participant_invitation')) >= COUNT) break;
    await sleep(codeArrival === undefined ? 20 : 200);
  }
  const cpuAfter = await Promise.all([processCpuSeconds(server.pid ?? 0), sandbox.cpuSeconds()]);
  const failed = await db
    .select({ purpose: outboundMessages.purpose, n: count() })
    .from(outboundMessages)
    .where(eq(outboundMessages.status, 'failed'))
    .groupBy(outboundMessages.purpose);
  const arrived = (await inbox()).filter((m) => m.subject === invitation.subject);
  const lastArrival = Math.max(...arrived.map((m) => Date.parse(m.receivedAt)));
  const sentInvitations = await purposeSent('participant_invitation');

  // The same mail, COUNT times, over one connection, one after the other: the relay's floor.
  await clearInbox();
  const mail = renderEmail({ title: invitation.subject, paragraphs: [invitation.body] });
  const bare = nodemailer.createTransport({
    host: '127.0.0.1',
    port: sandbox.smtpPort,
    secure: false,
    pool: true,
    maxConnections: 1,
  });
  const bareStarted = Date.now();
  for (const to of invitees) {
    await bare.sendMail({ from: 'bench@example.org', to, subject: invitation.subject, ...mail });
  }
  const bareMs = Date.now() - bareStarted;
  bare.close();
  // The same loop through the product's mailer held to one connection: the relay's own floor.
  await clearInbox();
  const mailer = createMailer({
    smtpUrl: env.SMTP_URL,
    from: 'bench@example.org',
    maxConnections: 1,
  });
  const mailerStarted = Date.now();
  for (const to of invitees) await mailer.send({ to, subject: invitation.subject, ...mail });
  const mailerMs = Date.now() - mailerStarted;
  mailer.close();

  console.log('');
  console.log(`invitation request answered: ${seconds(invitedAt - started)}`);
  console.log(
    `all ${COUNT} invitations at the relay: ${seconds(lastArrival - started)} (${((COUNT * 1000) / (lastArrival - started)).toFixed(1)} mails/s; ${sentInvitations}/${COUNT} accepted by the relay)`,
  );
  console.log(
    `verification code at the relay: ${codeArrival === undefined ? 'never' : seconds(codeArrival - enrolledAt)} after enroll-direct answered`,
  );
  console.log(
    `CPU while they went out: server ${(cpuAfter[0] - cpuBefore[0]).toFixed(1)} s, sandbox relay ${(cpuAfter[1] - cpuBefore[1]).toFixed(1)} s`,
  );
  console.log(
    `bare SMTP loop (nodemailer, one connection, sequential): ${COUNT} mails in ${seconds(bareMs)} (${((COUNT * 1000) / bareMs).toFixed(1)} mails/s)`,
  );
  console.log(
    `same loop through the product's mailer (one connection, Nagle off): ${seconds(mailerMs)} (${((COUNT * 1000) / mailerMs).toFixed(1)} mails/s)`,
  );
  if (failed.length) console.log(`failed: ${failed.map((f) => `${f.n}× ${f.purpose}`).join(', ')}`);
  if (codeArrival === undefined || sentInvitations < COUNT || failed.length > 0)
    process.exitCode = 1;
} finally {
  server?.kill('SIGTERM');
  if (server && server.exitCode === null)
    await new Promise((resolve) => server?.once('exit', resolve));
  await app.close();
  await sandbox.stop();
  await database.drop();
}
