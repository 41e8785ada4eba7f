import { createHash, randomBytes } from 'node:crypto';
import { PARTICIPANT_SESSION_HEADER } from '@research/contracts';
import type { FastifyInstance } from 'fastify';
import {
  participants,
  researcherApplications,
  studies,
  studyMembers,
  users,
} from '../db/schema/index.js';
import * as verificationRepo from '../modules/participant-access/verification.repository.js';
import { ADA_APPLICANT, uniqueEmail } from './auth-helpers.js';

/** Test-only helpers for the wearable tests (not imported by production code). */

export interface ConsentResult {
  code: string | null;
  state: string | null;
  scope: string | null;
  error: string | null;
}

/**
 * Plays the person on the sandbox's Google consent page: picks (or types) an account, leaves
 * only `scopes` ticked, or cancels.
 */
export async function consentAt(
  authUrl: string,
  options: { account: string; scopes?: readonly string[]; deny?: boolean },
): Promise<ConsentResult> {
  const page = await fetch(authUrl, { redirect: 'manual' });
  const html = await page.text();
  const requestId = /name="request" value="([^"]+)"/.exec(html)?.[1];
  if (!requestId) throw new Error(`no consent page (${page.status}): ${html.slice(0, 300)}`);
  const requested = [...html.matchAll(/name="granted_scope" value="([^"]+)"/g)].map((m) => m[1]);
  const form = new URLSearchParams({ request: requestId });
  if (options.deny) form.set('account', 'cancel');
  else {
    form.set('account', 'custom');
    form.set('email', options.account);
    form.set('name', 'Sam Participant');
  }
  for (const scope of options.scopes ?? requested) if (scope) form.append('granted_scope', scope);
  const chosen = await fetch(`${new URL(authUrl).origin}/o/oauth2/v2/auth/choose`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
  const location = chosen.headers.get('location');
  if (!location) throw new Error(`consent did not redirect (${chosen.status})`);
  const params = new URL(location).searchParams;
  return {
    code: params.get('code'),
    state: params.get('state'),
    scope: params.get('scope'),
    error: params.get('error'),
  };
}

export type AccountState = 'none' | 'pending' | 'approved' | 'master';

/**
 * An account and a live session, written straight to the tables: these tests are about
 * wearables, so they do not depend on the sign-up and review flows (tested in their modules).
 */
export async function accountWith(app: FastifyInstance, state: AccountState) {
  const db = app.platform.db;
  const email = uniqueEmail(state);
  const [user] = await db
    .insert(users)
    .values({
      email,
      displayName: 'Ada Lovelace',
      role: state === 'master' ? 'master' : 'researcher',
      emailVerifiedAt: new Date(),
    })
    .returning();
  if (!user) throw new Error('user not inserted');
  if (state === 'pending' || state === 'approved') {
    await db
      .insert(researcherApplications)
      .values({ userId: user.id, ...ADA_APPLICANT, email, status: state });
  }
  const token = await app.services.auth.issueSession(db, user.id);
  return { email, token, user: { id: user.id, email } };
}

/** An approved owner with a study, a collaborator, and a factory for participants. */
export async function studyWithParticipants(app: FastifyInstance) {
  const db = app.platform.db;
  const master = await accountWith(app, 'master');
  const owner = await accountWith(app, 'approved');
  const collaborator = await accountWith(app, 'approved');
  const studyCode = `W${randomBytes(3).toString('hex').toUpperCase()}`;
  const [row] = await db
    .insert(studies)
    .values({
      name: 'Sleep and Steps',
      description: 'Wearables',
      studyCode,
      settings: {
        allowSelfEnrollment: false,
        requireVerification: true,
        dataRetentionDays: 365,
        removeDataDeletedAtSource: false,
        validDayMinHours: 10,
        riskNoSyncDays: 2,
        reminderNoSyncDays: null,
        // Studies made by the kit collect without consent (the consent tests make their own).
        consentRequired: false,
        withdrawalData: 'keep',
      },
      ownerId: owner.user.id,
    })
    .returning();
  if (!row) throw new Error('study not inserted');
  await db.insert(studyMembers).values([
    { studyId: row.id, userId: owner.user.id, role: 'main' },
    { studyId: row.id, userId: collaborator.user.id, role: 'collab' },
  ]);
  const study = { id: row.id, studyCode };

  async function addParticipant(overrides: Partial<typeof participants.$inferInsert> = {}) {
    const values = {
      id: `P${randomBytes(8).toString('hex')}`,
      studyId: study.id,
      email: uniqueEmail('participant'),
      firstName: 'Sam',
      lastName: 'Chen',
      ...overrides,
    };
    await db.insert(participants).values(values);
    return values;
  }
  return { master, owner, collaborator, study, addParticipant };
}

/** The browser side of the PKCE path: 32 random bytes in hex and its SHA-256 binding. */
export function browserVerifier() {
  const verifier = randomBytes(32).toString('hex');
  return { verifier, binding: createHash('sha256').update(verifier).digest('hex') };
}

/**
 * The `x-participant-session` header of a participant who proved their e-mail with a code: the
 * subject and the session written by the verification module's own functions (the code flow
 * itself is tested in that module).
 */
export async function participantSessionHeaders(
  app: FastifyInstance,
  studyCode: string,
  participant: { id: string; email: string },
): Promise<Record<string, string>> {
  const db = app.platform.db;
  const verification = app.services.verification;
  const { study } = await verification.studyByCode(studyCode);
  await verificationRepo.upsertSubject(db, {
    studyId: study.id,
    email: participant.email,
    participantId: participant.id,
  });
  await verificationRepo.markVerified(db, participant.id, 'email', new Date());
  const session = await verification.issueSession(db, study, participant.id, true);
  return { [PARTICIPANT_SESSION_HEADER]: session.sessionId };
}
