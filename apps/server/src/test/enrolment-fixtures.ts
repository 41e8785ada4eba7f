import { PARTICIPANT_SESSION_HEADER, type PENDING_STATUSES } from '@research/contracts';
import type { FastifyInstance } from 'fastify';
import { pendingParticipants, researcherApplications, users } from '../db/schema/index.js';
import { ADA_APPLICANT, bearer, someAddress } from './auth-helpers.js';
import { injectMultipart, SAMPLE_FILES } from './multipart.js';
import type { TestApp } from './test-app.js';

/** Test helpers shared by the enrolment and verification tests. */

export const adult = '1990-04-02';
let counter = 0;
export const participantEmail = (prefix = 'participant') =>
  `${prefix}.${Date.now().toString(36)}.${++counter}@example.org`;

/**
 * An approved researcher and a bearer session, made by the factories rather than sign-up (the
 * accounts flows have their own tests).
 */
export async function approvedResearcher(app: FastifyInstance, displayName = 'Ada Lovelace') {
  const email = participantEmail('researcher');
  const db = app.platform.db;
  const [user] = await db
    .insert(users)
    .values({ email, displayName, role: 'researcher', emailVerifiedAt: new Date() })
    .returning();
  if (!user) throw new Error('user not inserted');
  await db
    .insert(researcherApplications)
    .values({ userId: user.id, ...ADA_APPLICANT, email, status: 'approved' });
  const token = await app.services.auth.issueSession(db, user.id);
  return { user, token, headers: bearer(token) };
}

export async function createStudy(
  app: FastifyInstance,
  owner: { user: typeof users.$inferSelect },
  settings: Partial<{
    allowSelfEnrollment: boolean;
    requireVerification: boolean;
    consentRequired: boolean;
  }> = {},
) {
  // Consent off unless asked for: the enrolment tests are about enrolment (consent.test.ts
  // makes studies that require it).
  return app.services.studies.create(
    owner.user,
    {
      name: 'Sleep & Steps',
      description: 'Four weeks of sleep data',
      settings: { consentRequired: false, ...settings },
    },
    { ip: '127.0.0.1' },
  );
}

/** A roster entry, as the researcher's roster upload or invitation creates it. */
export async function addPending(
  app: FastifyInstance,
  studyId: string,
  values: {
    email: string;
    phoneNumber?: string;
    invitedBy?: string;
    status?: (typeof PENDING_STATUSES)[number];
  },
) {
  const [row] = await app.platform.db
    .insert(pendingParticipants)
    .values({
      studyId,
      email: values.email,
      phoneNumber: values.phoneNumber ?? null,
      status: values.status ?? 'pre-enrolled',
      invitedBy: values.invitedBy ?? null,
    })
    .returning();
  if (!row) throw new Error('pending participant not inserted');
  return row;
}

/** A JSON call from its own client address, so per-address limits do not trip across tests. */
export const post = (
  app: FastifyInstance,
  url: string,
  payload: unknown,
  headers: Record<string, string> = {},
) =>
  app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers,
    remoteAddress: someAddress(),
  });

/** The newest 6-digit code sent to an address or number, read from the sandbox inbox. */
export async function codeFromInbox(t: TestApp, to: string, channel: 'email' | 'sms' = 'email') {
  if (!t.sandbox) throw new Error('sandbox needed');
  const message = await t.sandbox.waitForMessage({ to, channel }, 20_000);
  const match = /\b(\d{6})\b/.exec(message.text);
  if (!match?.[1]) throw new Error('no code in the message');
  return match[1];
}

/** Posts the e-mail code the sandbox inbox holds for the participant (before any session). */
export async function verifyWithInboxCode(
  t: TestApp,
  participant: { participantId: string; email: string; studyCode: string },
) {
  return post(t.app, '/api/verification/verify-email-code', {
    ...participant,
    verificationCode: await codeFromInbox(t, participant.email),
  });
}

/** The participant completes their profile with the session, handing in one PDF document. */
export const updateInfoWithDocument = (
  app: FastifyInstance,
  sessionId: string,
  fields: Record<string, string>,
  documentName: string,
) =>
  injectMultipart(app, {
    url: '/api/participants/update-info',
    headers: { [PARTICIPANT_SESSION_HEADER]: sessionId },
    fields,
    files: [{ field: 'document_0', name: documentName, data: SAMPLE_FILES.pdf }],
  });

/** Moves the services' clock; returns a function that puts it back. */
export function setClock(app: FastifyInstance, at: Date) {
  app.services.verification.clock.now = () => new Date(at);
}
export function resetClock(app: FastifyInstance) {
  app.services.verification.clock.now = () => new Date();
}

/**
 * The direct path as a person walks it: enroll-direct (a code is mailed), the code from the
 * inbox, then enroll-direct again with the session. Answers the final call and the session.
 */
export async function enrolDirectWithCode(t: TestApp, body: { studyCode: string; email: string }) {
  const first = await post(t.app, '/api/participants/enroll-direct', body);
  if (first.statusCode !== 200) throw new Error(`enroll-direct answered ${first.statusCode}`);
  const { participantId } = first.json() as { participantId: string };
  const verified = await post(t.app, '/api/verification/verify-email-code', {
    participantId,
    email: body.email.trim().toLowerCase(),
    studyCode: body.studyCode,
    verificationCode: await codeFromInbox(t, body.email.trim().toLowerCase()),
  });
  const sessionId = (verified.json() as { session: { sessionId: string } }).session.sessionId;
  const final = await post(t.app, '/api/participants/enroll-direct', body, {
    'x-participant-session': sessionId,
  });
  return { response: final, participantId, sessionId };
}
