/**
 * Enrolment under load: a study whose roster holds 500 addresses, and 500 direct
 * enrolments of those addresses run at once over HTTP against a server on PostgreSQL.
 *
 *   npm run bench:enrolment     (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 *   ENROLMENT_BENCH_COUNT=20 npm run bench:enrolment     (a quick run; BENCH_ENROLMENTS is the old name)
 *   ENROLMENT_BENCH_ONE_ADDRESS=1 ENROLMENT_BENCH_COUNT=100 npm run bench:enrolment
 *     (a group enrolling together from one network: every call comes from one client address)
 *
 * The study keeps the default settings (allowSelfEnrollment false: only rostered addresses may
 * enrol; requireVerification true), so each participant walks the default path: enroll-direct
 * (creates the participant, moves the roster entry, queues an e-mail code and answers
 * verificationRequired), verify-email-code with the code from that e-mail (answers the
 * session), then enroll-direct again with the session (answers the wearable authorization
 * address). The codes are read from the outbound mail queue (RUN_WORKERS off, so nothing is
 * delivered), decrypted with the same key the server uses. Each participant's calls carry their
 * own X-Forwarded-For (TRUST_PROXY on), as 500 participants' phones would, so the per-address
 * limits hold. With ENROLMENT_BENCH_ONE_ADDRESS=1 they all carry the same one, as a class or a
 * clinic behind one Wi-Fi would: the per-address limits must let such a group through.
 *
 * The server runs in a child process (apps/server/src/main.ts, as `npm start` runs it), so the
 * load generator does not share its event loop. Seeding goes through the services in this
 * process before the server starts. It creates and drops its own database and data folder;
 * requests go to loopback only. It fails (exit code 1) unless every journey succeeds with its
 * own id, the table holds COUNT live participants with COUNT distinct ids, and no roster entry
 * is left.
 */

import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import type { Db } from '../apps/server/src/db/client.js';
import {
  outboundMessages,
  participants,
  pendingParticipants,
  researcherApplications,
  users,
} from '../apps/server/src/db/schema/index.js';
import { processCpuSeconds } from './lib/cpu.js';
import { createBenchDatabase } from './lib/database.js';
import { freePort } from './lib/ports.js';
import { startServer } from './lib/server-process.js';

const COUNT = Number(process.env.ENROLMENT_BENCH_COUNT ?? process.env.BENCH_ENROLMENTS ?? 500);
if (!Number.isInteger(COUNT) || COUNT < 1)
  throw new Error('ENROLMENT_BENCH_COUNT must be a positive whole number');
const ONE_ADDRESS = process.env.ENROLMENT_BENCH_ONE_ADDRESS === '1';
/** The shared address of the one-address variant (documentation range, as on a clinic's NAT). */
const SHARED_ADDRESS = '203.0.113.10';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

/**
 * CPU time (user + system, ms) a process has used so far, from /proc (Linux); undefined elsewhere.
 * Unlike latency, it hardly depends on what else the machine is doing.
 */
async function cpuMs(pid: number | undefined): Promise<number | undefined> {
  if (!pid) return undefined;
  return processCpuSeconds(pid).then(
    (seconds) => seconds * 1000,
    () => undefined,
  );
}

const STEPS = ['enroll', 'verify', 'resume'] as const;
type Step = (typeof STEPS)[number];
const STEP_LABELS: Record<Step, string> = {
  enroll: 'enroll-direct:',
  verify: 'verify-email-code:',
  resume: 'enroll-direct + session:',
};
const stepLatencies: Record<Step, number[]> = { enroll: [], verify: [], resume: [] };
/** Answers of 429 per step: what a limit sized too small for the load shows as. */
const throttled: Record<Step, number> = { enroll: 0, verify: 0, resume: 0 };

const describeLatencies = (sorted: number[]) =>
  `p50 ${percentile(sorted, 50).toFixed(1)}, p90 ${percentile(sorted, 90).toFixed(1)}, p95 ${percentile(sorted, 95).toFixed(1)}, p99 ${percentile(sorted, 99).toFixed(1)}, max ${sorted.at(-1)?.toFixed(1)}`;

const failed = (step: Step | 'network', status: number, t0: number) => ({
  ok: false,
  status,
  step,
  id: undefined as string | undefined,
  ms: performance.now() - t0,
});

/**
 * The e-mail codes the server queued, by address: the outbound queue is polled and each new
 * message decrypted once (the server runs without workers, so nothing is delivered).
 */
function codeMailbox(db: Db) {
  const codes = new Map<string, string>();
  const seen = new Set<string>();
  const waiting = new Map<string, (code: string) => void>();
  let stopped = false;
  const poll = async () => {
    while (!stopped) {
      const rows = await db
        .select({ id: outboundMessages.id, payload: outboundMessages.payloadEncrypted })
        .from(outboundMessages)
        .where(eq(outboundMessages.purpose, 'verification_code'));
      for (const row of rows) {
        if (seen.has(row.id)) continue;
        seen.add(row.id);
        const message = JSON.parse(app.platform.cipher.decrypt(row.payload)) as {
          to: string;
          text: string;
        };
        const code = /\b(\d{6})\b/.exec(message.text)?.[1];
        if (!code) continue;
        codes.set(message.to, code);
        waiting.get(message.to)?.(code);
        waiting.delete(message.to);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const running = poll();
  return {
    codeFor(email: string): Promise<string> {
      const known = codes.get(email);
      if (known) return Promise.resolve(known);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no code mailed within 120 s')), 120_000);
        waiting.set(email, (code) => {
          clearTimeout(timer);
          resolve(code);
        });
      });
    },
    stop() {
      stopped = true;
      return running;
    },
  };
}

const database = await createBenchDatabase('enrolment');
const port = await freePort();
const env = {
  ...database.env,
  RUN_WORKERS: 'false',
  TRUST_PROXY: 'true',
  PORT: String(port),
  HOST: '127.0.0.1',
  PUBLIC_URL: `http://127.0.0.1:${port}`,
};

// Seeding through the services (and the migrations) in this process; the server comes after.
const app = await buildApp(loadConfig(env));
let server: ChildProcess | undefined;

try {
  const db = app.platform.db;
  console.log(`Seeding: an approved researcher, a roster-only study, ${COUNT} rostered addresses…`);
  const [owner] = await db
    .insert(users)
    .values({
      email: 'bench-owner@example.org',
      displayName: 'Bench Researcher',
      emailVerifiedAt: new Date(),
    })
    .returning();
  if (!owner) throw new Error('owner not inserted');
  await db.insert(researcherApplications).values({
    userId: owner.id,
    firstName: 'Bench',
    lastName: 'Researcher',
    email: owner.email,
    dateOfBirth: '1980-01-01',
    phoneNumber: '(555) - 555 - 0100',
    institution: 'Benchmark University',
    position: 'Professor',
    status: 'approved',
  });
  // The default settings: roster only, e-mail verification required.
  const study = await app.services.studies.create(
    owner,
    { name: 'Enrolment load study' },
    { ip: '127.0.0.1' },
  );
  if (study.settings.allowSelfEnrollment || !study.settings.requireVerification)
    throw new Error('the bench expects the default study settings');
  const emails = Array.from({ length: COUNT }, (_, i) => `participant${i + 1}@bench.example.org`);
  await db.insert(pendingParticipants).values(
    emails.map((email) => ({
      studyId: study.id,
      email,
      status: 'invited' as const,
      invitedBy: owner.id,
    })),
  );

  server = await startServer(env, port);
  const base = `http://127.0.0.1:${port}`;
  const mailbox = codeMailbox(db);
  console.log(
    `${COUNT} concurrent journeys: enroll-direct → verify-email-code → enroll-direct with the session, ${ONE_ADDRESS ? `all from one address (${SHARED_ADDRESS})` : 'each from its own address'} …`,
  );
  const cpuBefore = await cpuMs(server.pid);
  const started = performance.now();
  const results = await Promise.all(
    emails.map(async (email, i) => {
      const headers = {
        'content-type': 'application/json',
        'x-forwarded-for': ONE_ADDRESS
          ? SHARED_ADDRESS
          : `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      };
      const call = async (
        step: Step,
        path: string,
        body: unknown,
        extra: Record<string, string> = {},
      ) => {
        const t0 = performance.now();
        const res = await fetch(`${base}${path}`, {
          method: 'POST',
          headers: { ...headers, ...extra },
          body: JSON.stringify(body),
        });
        const json = (await res.json()) as Record<string, unknown>;
        stepLatencies[step].push(performance.now() - t0);
        if (res.status === 429) throttled[step]++;
        return { status: res.status, json };
      };
      const t0 = performance.now();
      const person = {
        email,
        firstName: 'Bench',
        lastName: `Participant ${i + 1}`,
        dateOfBirth: '1990-06-15',
        studyCode: study.studyCode,
      };
      try {
        const first = await call('enroll', '/api/participants/enroll-direct', person);
        const participantId = first.json.participantId as string | undefined;
        if (first.status !== 200 || !participantId || first.json.verificationRequired !== true)
          return failed('enroll', first.status, t0);
        const code = await mailbox.codeFor(email);
        const verified = await call('verify', '/api/verification/verify-email-code', {
          participantId,
          email,
          studyCode: study.studyCode,
          verificationCode: code,
        });
        const sessionId = (verified.json.session as { sessionId?: string } | undefined)?.sessionId;
        if (verified.status !== 200 || !sessionId) return failed('verify', verified.status, t0);
        const resumed = await call('resume', '/api/participants/enroll-direct', person, {
          'x-participant-session': sessionId,
        });
        const ok =
          resumed.status === 200 &&
          resumed.json.participantId === participantId &&
          typeof resumed.json.fitbitAuthUrl === 'string';
        if (!ok) return failed('resume', resumed.status, t0);
        return {
          ok: true,
          status: 200,
          step: undefined,
          id: participantId,
          ms: performance.now() - t0,
        };
      } catch (error) {
        return { ...failed('network', 0, t0), error };
      }
    }),
  );
  await mailbox.stop();
  const wallMs = performance.now() - started;
  const cpuAfter = await cpuMs(server.pid);

  const latencies = results.map((r) => r.ms).sort((a, b) => a - b);
  const errors = results.filter((r) => !r.ok);
  const failedAt = new Map<string, number>();
  for (const r of errors) {
    const key = `${r.step ?? '?'} HTTP ${r.status}`;
    failedAt.set(key, (failedAt.get(key) ?? 0) + 1);
  }
  const ids = new Set(results.map((r) => r.id).filter(Boolean));
  const [created] = await db
    .select({
      count: sql<number>`count(*)::int`,
      distinct: sql<number>`count(distinct ${participants.id})::int`,
    })
    .from(participants)
    .where(and(eq(participants.studyId, study.id), isNull(participants.deletedAt)));
  const [stillPending] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(pendingParticipants)
    .where(
      and(eq(pendingParticipants.studyId, study.id), isNull(pendingParticipants.participantId)),
    );

  console.log('');
  console.log(
    `participants created:    ${created?.count} (distinct ids in the table: ${created?.distinct})`,
  );
  console.log(`distinct ids answered:   ${ids.size}`);
  console.log(`roster entries left:     ${stillPending?.count}`);
  console.log(
    `enrolled:                ${results.filter((r) => r.ok).length}/${COUNT}${ONE_ADDRESS ? ` from one address` : ''}`,
  );
  console.log(
    `answers of 429:          ${STEPS.reduce((n, step) => n + throttled[step], 0)} (${STEPS.map((step) => `${step} ${throttled[step]}`).join(', ')})`,
  );
  console.log(
    `errors:                  ${errors.length}${errors.length ? ` (${[...failedAt].map(([at, n]) => `${n}× ${at}`).join(', ')})` : ''}`,
  );
  console.log(`journey latency ms:      ${describeLatencies(latencies)}`);
  for (const step of STEPS)
    console.log(
      `  ${STEP_LABELS[step].padEnd(25)} ${describeLatencies([...stepLatencies[step]].sort((a, b) => a - b))}`,
    );
  console.log(
    `wall time:               ${(wallMs / 1000).toFixed(2)} s (${((COUNT * 1000) / wallMs).toFixed(0)} enrolments/s)`,
  );
  if (cpuBefore !== undefined && cpuAfter !== undefined)
    console.log(
      `server CPU:              ${((cpuAfter - cpuBefore) / COUNT).toFixed(1)} ms per enrolment (load average now ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} cores)`,
    );
  if (
    errors.length > 0 ||
    created?.count !== COUNT ||
    created?.distinct !== COUNT ||
    ids.size !== COUNT ||
    stillPending?.count !== 0
  )
    process.exitCode = 1;
} finally {
  server?.kill('SIGTERM');
  if (server && server.exitCode === null)
    await new Promise((resolve) => server?.once('exit', resolve));
  await app.close();
  await database.drop();
}
