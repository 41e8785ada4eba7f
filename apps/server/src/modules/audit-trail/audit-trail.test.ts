import { randomBytes } from 'node:crypto';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  auditEvents,
  emailMessages,
  participantDocuments,
  participants,
  users,
} from '../../db/schema/index.js';
import {
  bearer,
  createMaster,
  loginAs,
  registerUser,
  researcherWithApplication,
} from '../../test/auth-helpers.js';
import { bucketPageLink, visit } from '../../test/bucket-fixtures.js';
import { STUDY_ROLES, type StudyRole, studyRoleMatrix } from '../../test/study-role-matrix.js';
import { useTestApp } from '../../test/test-app.js';

/**
 * The audit trail: rows that cannot be changed, a read of personal data always on record, the
 * owner's study trail and the master's platform trail, each with filters, paging and CSV.
 */
describe('audit trail', () => {
  const t = useTestApp();
  let tokens: Map<StudyRole, string | null>;
  let send: Awaited<ReturnType<typeof studyRoleMatrix>>['send'];
  let studyId: string;
  let collaboratorId: string;
  let participantId: string;
  let documentId: string;
  let mailingId: string;

  beforeAll(async () => {
    ({ tokens, send, studyId, collaboratorId } = await studyRoleMatrix(t.app, 'with the code'));
    const db = t.app.platform.db;
    participantId = `P${randomBytes(8).toString('hex')}`;
    await db
      .insert(participants)
      .values({ id: participantId, studyId, email: `${participantId.toLowerCase()}@example.org` });
    const bucket = t.app.services.studies.bucketOf(studyId);
    await t.app.platform.objectStore.ensureBucket(bucket);
    await t.app.platform.objectStore.putObject(
      bucket,
      `documents/${participantId}/consent.pdf`,
      Buffer.from('%PDF-1.4'),
    );
    const [document] = await db
      .insert(participantDocuments)
      .values({
        participantId,
        studyId,
        name: 'consent.pdf',
        mimeType: 'application/pdf',
        sizeBytes: 8,
        objectKey: `documents/${participantId}/consent.pdf`,
      })
      .returning();
    documentId = document?.id as string;
    const [mailing] = await db
      .insert(emailMessages)
      .values({
        studyId,
        kind: 'participant_contact',
        subject: 'Hi',
        body: 'Hello',
        recipientCount: 0,
      })
      .returning();
    mailingId = mailing?.id as string;
  });

  /** How many audit rows of `action` match `where`. */
  const auditCount = async (action: string, where: SQL) =>
    (
      await t.app.platform.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, action), where))
    ).length;

  const trail = async (query = '', role: StudyRole = 'owner') => {
    const res = await send(role, 'GET', `/api/studies/${studyId}/audit${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      events: {
        id: string;
        action: string;
        kind: string;
        ip: string | null;
        actor: { id: string | null; name: string | null; email: string | null; kind: string };
      }[];
      nextCursor: string | null;
    };
  };

  it('refuses to update, delete or truncate an audit row, in SQL as in code', async () => {
    const db = t.app.platform.db;
    const [row] = await db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.studyId, studyId))
      .limit(1);
    const id = row?.id as string;
    expect(id).toBeDefined();
    // The database's refusal, as drizzle wraps it.
    const refusal = (query: PromiseLike<unknown>) =>
      Promise.resolve(query).then(
        () => 'allowed',
        (error: Error & { cause?: Error }) => error.cause?.message ?? error.message,
      );
    expect(
      await refusal(db.execute(sql`update audit_events set action = 'forged' where id = ${id}`)),
    ).toMatch(/append-only: UPDATE refused/);
    expect(await refusal(db.execute(sql`delete from audit_events where id = ${id}`))).toMatch(
      /append-only: DELETE refused/,
    );
    expect(await refusal(db.execute(sql`truncate audit_events`))).toMatch(
      /append-only: TRUNCATE refused/,
    );
    expect(await refusal(db.delete(auditEvents).where(eq(auditEvents.id, id)))).toMatch(
      /append-only/,
    );
    expect(
      await refusal(db.update(auditEvents).set({ ip: null }).where(eq(auditEvents.id, id))),
    ).toMatch(/append-only/);
    const [kept] = await db.select().from(auditEvents).where(eq(auditEvents.id, id));
    expect(kept?.action).toBe(row?.action);
  });

  it('records every read of personal data with the study, the reader and the address', async () => {
    const reads: [string, string, string][] = [
      ['participants.listed', 'GET', `/api/studies/${studyId}/participants`],
      ['participant.viewed', 'GET', `/api/participants/${participantId}/info`],
      [
        'participant.document_downloaded',
        'GET',
        `/api/participants/${participantId}/documents/${documentId}`,
      ],
      ['participant.charts_viewed', 'GET', `/api/participants/${participantId}/charts`],
      [
        'participant.heart_rate_viewed',
        'GET',
        `/api/participants/${participantId}/heart-rate?date=2024-01-02`,
      ],
      ['pending_participants.listed', 'GET', `/api/studies/${studyId}/pending-participants`],
      ['study.members_listed', 'GET', `/api/studies/${studyId}/members`],
      ['adherence.viewed', 'GET', `/api/studies/${studyId}/adherence`],
      ['email.details_viewed', 'GET', `/api/email/history/${studyId}/${mailingId}`],
      ['wearable.authorizations_listed', 'GET', `/api/studies/${studyId}/wearable-authorizations`],
      ['wearable.status_viewed', 'GET', `/api/fitbit/status/${participantId}`],
      ['extraction.jobs_listed', 'GET', `/api/studies/${studyId}/extraction-jobs`],
    ];
    const missing: string[] = [];
    for (const [action, method, url] of reads) {
      const res = await send('collaborator', method as 'GET', url);
      if (res.statusCode !== 200) {
        missing.push(`${action}: ${url} answered ${res.statusCode}`);
        continue;
      }
      const rows = await t.app.platform.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, action), eq(auditEvents.actorId, collaboratorId)));
      const row = rows.at(-1);
      if (!row || row.studyId !== studyId || !row.ip)
        missing.push(`${action}: ${JSON.stringify(row)}`);
    }
    expect(missing).toEqual([]);
  });

  it('counts a view repeated from the same address within the window once, and each download', async () => {
    const token = tokens.get('collaborator') as string;
    const from = (remoteAddress: string, url: string) =>
      t.app.inject({ method: 'GET', url, headers: bearer(token), remoteAddress });
    const countOf = (action: string) => auditCount(action, eq(auditEvents.actorId, collaboratorId));
    const list = `/api/studies/${studyId}/members`;
    const before = await countOf('study.members_listed');
    // The screen refreshing itself: one entry; the same view from elsewhere is its own.
    for (let i = 0; i < 3; i++) expect((await from('198.51.100.7', list)).statusCode).toBe(200);
    expect(await countOf('study.members_listed')).toBe(before + 1);
    expect((await from('198.51.100.8', list)).statusCode).toBe(200);
    expect(await countOf('study.members_listed')).toBe(before + 2);
    // A document downloaded twice was handed out twice.
    const document = `/api/participants/${participantId}/documents/${documentId}`;
    const downloads = await countOf('participant.document_downloaded');
    for (let i = 0; i < 2; i++) expect((await from('198.51.100.7', document)).statusCode).toBe(200);
    expect(await countOf('participant.document_downloaded')).toBe(downloads + 2);
  });

  it('records the trail read like any view, and each of its CSV downloads', async () => {
    const token = tokens.get('owner') as string;
    const from = (url: string) =>
      t.app.inject({ method: 'GET', url, headers: bearer(token), remoteAddress: '198.51.100.9' });
    const countOf = (action: string) => auditCount(action, eq(auditEvents.studyId, studyId));
    const views = await countOf('audit.viewed');
    const base = `/api/studies/${studyId}/audit`;
    for (const query of ['', '?kind=settings', '']) {
      expect((await from(`${base}${query}`)).statusCode).toBe(200);
    }
    expect(await countOf('audit.viewed')).toBe(views + 1);
    const downloads = await countOf('audit.downloaded');
    for (let i = 0; i < 2; i++) expect((await from(`${base}.csv`)).statusCode).toBe(200);
    expect(await countOf('audit.downloaded')).toBe(downloads + 2);
  });

  it('records the bucket page and each file downloaded from it', async () => {
    const ownerToken = tokens.get('owner') as string;
    const page = await visit(t.app, await bucketPageLink(t.app, ownerToken, studyId));
    expect(page.statusCode).toBe(200);
    const href = /<a href="([^"]+)">documents/.exec(page.body)?.[1]?.replaceAll('&amp;', '&');
    expect(href).toBeDefined();
    const file = await visit(t.app, new URL(href as string));
    expect(file.statusCode).toBe(200);
    const { events } = await trail('?kind=data_access&limit=200');
    const actions = events.map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['study.bucket_opened', 'bucket.listed', 'file.downloaded']),
    );
  });

  it('answers the study trail to its owner only, and the platform trail to the master only', async () => {
    const wrong: string[] = [];
    const studyStatus = (role: StudyRole) =>
      role === 'anonymous' ? 401 : role === 'owner' ? 200 : 403;
    for (const role of STUDY_ROLES) {
      for (const path of ['audit', 'audit.csv']) {
        const res = await send(role, 'GET', `/api/studies/${studyId}/${path}`);
        if (res.statusCode !== studyStatus(role))
          wrong.push(`${path} as ${role}: ${res.statusCode}`);
      }
      const platformStatus = role === 'anonymous' ? 401 : role === 'master' ? 200 : 403;
      for (const path of ['audit', 'audit.csv']) {
        const res = await send(role, 'GET', `/api/admin/${path}`);
        if (res.statusCode !== platformStatus)
          wrong.push(`admin ${path} as ${role}: ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
    const refused = await send('collaborator', 'GET', `/api/studies/${studyId}/audit`);
    expect(refused.json().code).toBe('OWNER_ONLY');
  });

  it('shows the owner who did what, from where, with the team’s sign-ins, filtered and paged', async () => {
    const [collaborator] = await t.app.platform.db
      .select()
      .from(users)
      .where(eq(users.id, collaboratorId));
    expect((await loginAs(t.app, collaborator?.email as string, 'correct-horse')).statusCode).toBe(
      200,
    );
    const outsider = await registerUser(t.app);
    expect((await loginAs(t.app, outsider.email, outsider.password)).statusCode).toBe(200);
    const all = await trail('?limit=200');
    const created = all.events.find((e) => e.action === 'study.created');
    expect(created?.actor.kind).toBe('user');
    expect(created?.actor.email).toMatch(/@example\.org$/);
    expect(created?.ip).toBeTruthy();
    // The collaborator's sign-in is a platform event, shown because they are a member.
    expect(
      all.events.some((e) => e.action === 'auth.sign_in' && e.actor.id === collaboratorId),
    ).toBe(true);
    // Not the sign-in of someone outside the team.
    expect(all.events.some((e) => e.actor.id === outsider.user.id)).toBe(false);

    const byCollaborator = await trail(`?actor=${collaboratorId}&limit=200`);
    expect(byCollaborator.events.length).toBeGreaterThan(0);
    expect(byCollaborator.events.every((e) => e.actor.id === collaboratorId)).toBe(true);
    const reads = await trail('?kind=data_access&limit=200');
    expect(reads.events.every((e) => e.kind === 'data_access')).toBe(true);
    expect(reads.events.map((e) => e.action)).toContain('participant.viewed');
    const settings = await trail('?kind=settings');
    expect(settings.events.map((e) => e.action)).toEqual(
      expect.arrayContaining(['study.created', 'study.joined']),
    );
    const future = await trail('?from=2999-01-01');
    expect(future.events).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await trail(`?from=${today}&to=${today}`)).events.length).toBeGreaterThan(0);
    expect(
      (await send('owner', 'GET', `/api/studies/${studyId}/audit?from=2024-02-02&to=2024-02-01`))
        .statusCode,
    ).toBe(400);

    // Pages of 3 walk the whole trail once, in order.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await trail(`?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...page.events.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    const whole = await trail('?limit=200');
    // Reading the first page records a view, so the whole trail may have grown at its top.
    expect(whole.events.map((e) => e.id)).toEqual(expect.arrayContaining(seen));
    expect(new Set(seen).size).toBe(seen.length);
    expect(
      (await send('owner', 'GET', `/api/studies/${studyId}/audit?cursor=bogus`)).statusCode,
    ).toBe(400);
  });

  it('downloads the study trail as CSV with the same filters, and records the download', async () => {
    const res = await send('owner', 'GET', `/api/studies/${studyId}/audit.csv?kind=settings`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="audit-study-/);
    const [header, ...lines] = res.body.trim().split('\n');
    expect(header).toBe('when,who,email,what,action,kind,target_type,target_id,address,details');
    expect(lines.some((l) => l.includes('Created the study') && l.includes('study.created'))).toBe(
      true,
    );
    expect(lines.every((l) => l.includes(',settings,'))).toBe(true);
    const { events } = await trail('?kind=data_access');
    expect(events[0]?.action).toBe('audit.downloaded');
  });

  it('shows the master the platform’s events: applications, decisions and sign-ins, not a study’s', async () => {
    const master = await createMaster(t.app);
    const applicant = await researcherWithApplication(t.app, 'approved', master);
    const res = await t.app.inject({
      url: '/api/admin/audit?limit=200',
      headers: bearer(master.token),
    });
    expect(res.statusCode).toBe(200);
    const events = res.json().events as { action: string; actor: { id: string | null } }[];
    const actions = events.map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['application.submitted', 'application.approved', 'auth.sign_in']),
    );
    expect(actions).not.toContain('study.created');
    const applications = await t.app.inject({
      url: '/api/admin/audit?kind=application&limit=200',
      headers: bearer(master.token),
    });
    expect(
      (applications.json().events as { action: string }[]).every((e) =>
        e.action.startsWith('application.'),
      ),
    ).toBe(true);
    const mine = await t.app.inject({
      url: `/api/admin/audit?actor=${applicant.user.id}`,
      headers: bearer(master.token),
    });
    expect(
      (mine.json().events as { actor: { id: string } }[]).every(
        (e) => e.actor.id === applicant.user.id,
      ),
    ).toBe(true);
    const csv = await t.app.inject({ url: '/api/admin/audit.csv', headers: bearer(master.token) });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('application.approved');
  });
});
