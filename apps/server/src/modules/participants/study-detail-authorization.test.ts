import { randomBytes } from 'node:crypto';
import { count, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  auditEvents,
  emailMessages,
  outboundMessages,
  participants,
  pendingParticipants,
  studyMembers,
} from '../../db/schema/index.js';
import { bearer } from '../../test/auth-helpers.js';
import { injectMultipart } from '../../test/multipart.js';
import {
  memberStatus,
  STUDY_ROLES,
  type StudyRole,
  studyRoleMatrix,
} from '../../test/study-role-matrix.js';
import { useTestApp } from '../../test/test-app.js';

/**
 * Every study detail route against every kind of caller. Signed out 401; pending researchers and
 * the master 403 (not researchers who work with studies); non-members 403 on study paths and 404
 * on participant paths (a participant id says nothing about other studies); collaborators
 * operate; only the owner deletes participants and removes members. Refused calls change nothing.
 */
describe('authorization matrix of the study detail routes', () => {
  const t = useTestApp();
  let tokens: Map<StudyRole, string | null>;
  let send: Awaited<ReturnType<typeof studyRoleMatrix>>['send'];
  let studyId: string;
  let studyCode: string;
  let collaboratorId: string;
  let mailingId: string;

  beforeAll(async () => {
    ({ tokens, send, studyId, studyCode, collaboratorId } = await studyRoleMatrix(
      t.app,
      'with the code',
    ));
    // Contact mail goes only to people the study knows.
    await t.app.platform.db
      .insert(pendingParticipants)
      .values({ studyId, email: 'someone@example.org' });
    const [mailing] = await t.app.platform.db
      .insert(emailMessages)
      .values({
        studyId,
        kind: 'participant_contact',
        subject: 'Matrix mailing',
        body: 'Hello',
        recipientCount: 0,
      })
      .returning();
    mailingId = mailing?.id as string;
  });

  const newParticipant = async () => {
    const id = `P${randomBytes(8).toString('hex')}`;
    await t.app.platform.db
      .insert(participants)
      .values({ id, studyId, email: `${id.toLowerCase()}@example.org` });
    return id;
  };
  const newPending = async () => {
    const [row] = await t.app.platform.db
      .insert(pendingParticipants)
      .values({ studyId, email: `${randomBytes(6).toString('hex')}@example.org` })
      .returning();
    return row?.id as string;
  };

  /** Row counts that any accepted mutation changes. */
  const snapshot = async () => {
    const db = t.app.platform.db;
    const n = async (query: Promise<{ value: number }[]>) => (await query)[0]?.value ?? 0;
    return {
      participants: await n(
        db.select({ value: count() }).from(participants).where(isNull(participants.deletedAt)),
      ),
      pending: await n(db.select({ value: count() }).from(pendingParticipants)),
      members: await n(db.select({ value: count() }).from(studyMembers)),
      emails: await n(db.select({ value: count() }).from(emailMessages)),
      outbound: await n(db.select({ value: count() }).from(outboundMessages)),
      audit: await n(db.select({ value: count() }).from(auditEvents)),
    };
  };

  const participantPath =
    (ok: number, ownerOnly = false) =>
    (role: StudyRole) =>
      role === 'approved non-member' ? 404 : memberStatus(ok, ownerOnly)(role);

  interface Route {
    name: string;
    call: (role: StudyRole) => Promise<{ statusCode: number }>;
    expect: (role: StudyRole) => number;
    /** The table where `call` itself creates the route's target row first. */
    creates?: 'participants' | 'pending';
  }

  it('answers each route with the right status for each role, and refusals change nothing', async () => {
    const mail = { emailSubject: 'Subject', emailBody: 'Body' };
    const routes: Route[] = [
      {
        name: 'participants list',
        call: (r) => send(r, 'GET', `/api/studies/${studyId}/participants`),
        expect: memberStatus(200),
      },
      {
        name: 'participant info',
        call: async (r) => send(r, 'GET', `/api/participants/${await newParticipant()}/info`),
        expect: participantPath(200),
        creates: 'participants',
      },
      {
        name: 'participant document (unknown document)',
        call: async (r) =>
          send(
            r,
            'GET',
            `/api/participants/${await newParticipant()}/documents/00000000-0000-4000-8000-000000000000`,
          ),
        expect: participantPath(404),
        creates: 'participants',
      },
      {
        name: 'participant edit',
        call: async (r) =>
          send(r, 'PUT', `/api/participants/${await newParticipant()}`, {
            firstName: 'Ed',
            lastName: 'It',
          }),
        expect: participantPath(200),
        creates: 'participants',
      },
      {
        name: 'participant delete',
        call: async (r) => send(r, 'DELETE', `/api/participants/${await newParticipant()}`),
        expect: participantPath(200, true),
        creates: 'participants',
      },
      {
        name: 'pending list',
        call: (r) => send(r, 'GET', `/api/studies/${studyId}/pending-participants`),
        expect: memberStatus(200),
      },
      {
        name: 'pending add',
        call: (r) =>
          send(r, 'POST', `/api/studies/${studyId}/pending-participants`, {
            participants: [{ email: `${randomBytes(6).toString('hex')}@example.org` }],
          }),
        expect: memberStatus(201),
      },
      {
        name: 'pending edit',
        call: async (r) =>
          send(r, 'PUT', `/api/studies/${studyId}/pending-participants/${await newPending()}`, {
            phoneNumber: '1112223333',
          }),
        expect: memberStatus(200),
        creates: 'pending',
      },
      {
        name: 'pending remove',
        call: async (r) =>
          send(r, 'DELETE', `/api/studies/${studyId}/pending-participants/${await newPending()}`),
        expect: memberStatus(200),
        creates: 'pending',
      },
      {
        name: 'roster upload',
        call: (r) => {
          const token = tokens.get(r);
          return injectMultipart(t.app, {
            url: `/api/studies/${studyId}/roster`,
            headers: token ? bearer(token) : {},
            fields: { studyCode },
            files: [
              {
                field: 'csvFile',
                name: 'roster.csv',
                data: Buffer.from(`email\n${randomBytes(6).toString('hex')}@example.org\n`),
                type: 'text/csv',
              },
            ],
          });
        },
        expect: memberStatus(201),
      },
      {
        name: 'members',
        call: (r) => send(r, 'GET', `/api/studies/${studyId}/members`),
        expect: memberStatus(200),
      },
      {
        name: 'member removal (unknown user)',
        call: (r) =>
          send(r, 'DELETE', `/api/studies/${studyId}/members/00000000-0000-4000-8000-000000000000`),
        expect: memberStatus(404, true),
      },
      {
        name: 'stats',
        call: (r) => send(r, 'GET', `/api/studies/${studyId}/stats`),
        expect: memberStatus(200),
      },
      {
        name: 'e-mail history',
        call: (r) => send(r, 'GET', `/api/email/history/${studyId}`),
        expect: memberStatus(200),
      },
      {
        name: 'e-mail details',
        call: (r) => send(r, 'GET', `/api/email/history/${studyId}/${mailingId}`),
        expect: memberStatus(200),
      },
      {
        name: 'e-mail details (unknown mailing)',
        call: (r) =>
          send(r, 'GET', `/api/email/history/${studyId}/00000000-0000-4000-8000-000000000000`),
        expect: memberStatus(404),
      },
      {
        name: 'invitations',
        call: (r) =>
          send(r, 'POST', '/api/email/invitations', {
            studyCode,
            studyName: 'Matrix study',
            participants: [{ email: 'invitee@example.org' }],
            ...mail,
          }),
        expect: memberStatus(200),
      },
      {
        name: 'collaborator invitations',
        call: (r) =>
          send(r, 'POST', '/api/email/collaborator-invitations', {
            studyCode,
            studyName: 'Matrix study',
            recipients: ['colleague@example.org'],
            invitationType: 'collaborator',
          }),
        expect: memberStatus(200),
      },
      {
        name: 'contact',
        call: (r) =>
          send(r, 'POST', '/api/email/contact', {
            studyCode,
            audience: 'participants',
            recipients: ['someone@example.org'],
            ...mail,
          }),
        expect: memberStatus(200),
      },
    ];
    const wrong: string[] = [];
    for (const route of routes) {
      for (const role of STUDY_ROLES) {
        const expected = route.expect(role);
        if (expected >= 400) {
          const before = await snapshot();
          const res = await route.call(role);
          const after = await snapshot();
          if (res.statusCode !== expected)
            wrong.push(`${route.name} as ${role}: ${res.statusCode}, expected ${expected}`);
          // Only the target row the test itself made may be new.
          const allowed = { ...before };
          if (route.creates) allowed[route.creates] += 1;
          if (JSON.stringify(after) !== JSON.stringify(allowed))
            wrong.push(`${route.name} as ${role} changed: ${JSON.stringify({ allowed, after })}`);
        } else {
          const res = await route.call(role);
          if (res.statusCode !== expected)
            wrong.push(`${route.name} as ${role}: ${res.statusCode}, expected ${expected}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('keeps the collaborator after a refused removal and ends access after the owner’s', async () => {
    const refused = await send(
      'collaborator',
      'DELETE',
      `/api/studies/${studyId}/members/${collaboratorId}`,
    );
    expect(refused.statusCode).toBe(403);
    expect((await send('collaborator', 'GET', `/api/studies/${studyId}/stats`)).statusCode).toBe(
      200,
    );
    const removed = await send(
      'owner',
      'DELETE',
      `/api/studies/${studyId}/members/${collaboratorId}`,
    );
    expect(removed.statusCode).toBe(200);
    expect((await send('collaborator', 'GET', `/api/studies/${studyId}/stats`)).statusCode).toBe(
      403,
    );
  });
});
