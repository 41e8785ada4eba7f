import { STUDY_CODE_ALPHABET } from '@research/contracts';
import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditEvents, studies } from '../../db/schema/index.js';
import {
  bearer,
  createMaster,
  researcherWithApplication,
  someAddress,
} from '../../test/auth-helpers.js';
import { useTestApp } from '../../test/test-app.js';

describe('studies', () => {
  const t = useTestApp();
  let master: { token: string };
  let owner: Awaited<ReturnType<typeof researcherWithApplication>>;
  let colleague: Awaited<ReturnType<typeof researcherWithApplication>>;

  beforeAll(async () => {
    master = await createMaster(t.app);
    owner = await researcherWithApplication(t.app, 'approved', master);
    colleague = await researcherWithApplication(t.app, 'approved', master);
  });
  beforeEach(() => t.sandbox?.clear());

  const as = (token: string) => bearer(token);
  const create = (token: string, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/create-study',
      headers: as(token),
      payload: body,
      remoteAddress: someAddress(),
    });
  const owned = async (token: string) =>
    (await t.app.inject({ url: '/api/auth/researcher-studies', headers: as(token) })).json();
  const collaborative = async (token: string) =>
    (await t.app.inject({ url: '/api/auth/collaborative-studies', headers: as(token) })).json();

  it('creates a study with a fresh code, the default settings and an encrypted password', async () => {
    const res = await create(owner.token, {
      name: 'Sleep & Steps',
      description: 'Four weeks of sleep data',
      duration: '4 weeks',
      password: 'study-pass',
    });
    expect(res.statusCode).toBe(201);
    const { study, message } = res.json();
    expect(study.studyCode).toMatch(new RegExp(`^[${STUDY_CODE_ALPHABET}]{6}$`));
    expect(message).toContain(study.studyCode);
    expect(study).toMatchObject({
      name: 'Sleep & Steps',
      description: 'Four weeks of sleep data',
      duration: '4 weeks',
      status: 'active',
      participantCount: 0,
      role: 'main',
      password: 'study-pass',
      collaborators: [],
      settings: { allowSelfEnrollment: false, requireVerification: true, dataRetentionDays: 365 },
    });
    const [row] = await t.app.platform.db.select().from(studies).where(eq(studies.id, study.id));
    expect(row?.passwordEncrypted).toBeTruthy();
    expect(row?.passwordEncrypted).not.toContain('study-pass');
    // The per-study bucket exists (listing it does not throw).
    const bucket = `study-${study.id.toLowerCase().replace(/[^a-z0-9]/g, '-')}-data`;
    await expect(t.app.platform.objectStore.listObjects(bucket)).resolves.toMatchObject({
      objects: [],
    });
    const audit = await t.app.platform.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetId, study.id));
    expect(audit.map((a) => a.action)).toEqual(['study.created']);
  });

  it.each([
    ['no name', { description: 'x' }, 'name', 'Study name is required'],
    ['a blank name', { name: '   ' }, 'name', 'Study name is required'],
    [
      'a short password',
      { name: 'S', password: '12345' },
      'password',
      'Password must be at least 6 characters',
    ],
    [
      'a bad collaborator e-mail',
      { name: 'S', collaborators: ['ok@example.org', 'not an email'] },
      'collaborators.1',
      'Invalid email format',
    ],
  ])('refuses %s', async (_label, body, field, message) => {
    const res = await create(owner.token, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields).toContainEqual({ field, message });
  });

  it('adds an approved collaborator at once (told they have access) and mails newcomers the code, password and join link', async () => {
    const newcomer = `newcomer.${Date.now()}@example.org`;
    const res = await create(owner.token, {
      name: 'Heart Rate Study',
      password: 'hr-secret',
      collaborators: [colleague.email.toUpperCase(), ` ${newcomer} `, owner.email],
    });
    const { study } = res.json();
    expect(study.collaborators.sort()).toEqual([colleague.email, newcomer].sort());

    const theirs = await collaborative(colleague.token);
    const listed = theirs.data.find((s: { id: string }) => s.id === study.id);
    expect(listed).toMatchObject({ role: 'collab', name: 'Heart Rate Study' });
    expect(listed).not.toHaveProperty('password');

    const mail = await t.sandbox?.waitForMessage(
      { to: newcomer, subjectIncludes: 'Collaborator Invitation' },
      15_000,
    );
    expect(mail?.subject).toBe('Collaborator Invitation: Heart Rate Study');
    expect(mail?.text).toContain(`Study code: ${study.studyCode}`);
    expect(mail?.text).toContain('Study password: hr-secret');
    expect(mail?.text).toContain(
      `http://localhost:3000/researcher/dashboard?code=${study.studyCode}&password=hr-secret`,
    );
    // Someone who is a member already is not asked to join.
    const added = await t.sandbox?.waitForMessage(
      { to: colleague.email, subjectIncludes: 'Collaborator Invitation' },
      15_000,
    );
    expect(added?.text).toContain('You already have access');
    expect(added?.text).not.toContain('hr-secret');
    // The owner does not invite themself.
    expect(
      t.sandbox?.messages({ to: owner.email }).filter((m) => m.subject?.includes('Collaborator')),
    ).toEqual([]);
  });

  it('lists owned and collaborative studies with totals, newest first, and paginates', async () => {
    const researcher = await researcherWithApplication(t.app, 'approved', master);
    for (const name of ['First', 'Second', 'Third']) await create(researcher.token, { name });
    const all = await owned(researcher.token);
    expect(all.totalCount).toBe(3);
    expect(all.data.map((s: { name: string }) => s.name)).toEqual(['Third', 'Second', 'First']);
    const page = (
      await t.app.inject({
        url: '/api/auth/researcher-studies?limit=2&offset=2',
        headers: as(researcher.token),
      })
    ).json();
    expect(page).toMatchObject({ totalCount: 3, data: [{ name: 'First' }] });
    expect((await collaborative(researcher.token)).totalCount).toBe(0);
  });

  it('joins with code and password; a wrong code and a wrong password get the same answer', async () => {
    const { study } = (
      await create(owner.token, { name: 'Joinable', password: 'join-me-1' })
    ).json();
    const joiner = await researcherWithApplication(t.app, 'approved', master);
    const join = (body: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/join-study',
        headers: as(joiner.token),
        payload: body,
        remoteAddress: someAddress(),
      });

    const wrongPassword = await join({ studyCode: study.studyCode, password: 'nope-nope' });
    const wrongCode = await join({ studyCode: 'ZZZZZZ', password: 'join-me-1' });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json()).toEqual(wrongCode.json());
    expect(wrongPassword.json().message).toBe('Invalid study code or password');

    const ok = await join({ studyCode: study.studyCode.toLowerCase(), password: 'join-me-1' });
    expect(ok.json()).toMatchObject({
      success: true,
      message: 'You have successfully joined the study as a collaborator',
      study: { id: study.id, role: 'collab' },
    });
    expect((await join({ studyCode: study.studyCode, password: 'join-me-1' })).statusCode).toBe(
      200,
    );
    expect((await collaborative(joiner.token)).data.map((s: { id: string }) => s.id)).toContain(
      study.id,
    );

    const own = await t.app.inject({
      method: 'POST',
      url: '/api/auth/join-study',
      headers: as(owner.token),
      payload: { studyCode: study.studyCode, password: 'join-me-1' },
      remoteAddress: someAddress(),
    });
    expect(own.statusCode).toBe(409);
    const empty = await join({ studyCode: '', password: '' });
    expect(empty.json().details.fields).toContainEqual({
      field: 'studyCode',
      message: 'Please enter both study code and password',
    });
  });

  it('throttles repeated wrong joins', async () => {
    const guesser = await researcherWithApplication(t.app, 'approved', master);
    let last = 0;
    for (let i = 0; i < 11; i++) {
      last = (
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/join-study',
          headers: as(guesser.token),
          payload: { studyCode: `AB${i}CDE`.slice(0, 6), password: 'guess-guess' },
          remoteAddress: someAddress(),
        })
      ).statusCode;
    }
    expect(last).toBe(429);
  });

  it('changes the password only with the right current one; only the owner may', async () => {
    const { study } = (
      await create(owner.token, {
        name: 'Passworded',
        password: 'first-pass',
        collaborators: [colleague.email],
      })
    ).json();
    const put = (token: string, body: Record<string, unknown>) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/auth/update-study/${study.id}`,
        headers: as(token),
        payload: body,
      });

    expect((await put(owner.token, { password: 'second-pass' })).json()).toMatchObject({
      code: 'INVALID_CURRENT_PASSWORD',
      message: 'Current password is incorrect',
    });
    expect(
      (await put(owner.token, { password: 'second-pass', currentPassword: 'wrong-pass' }))
        .statusCode,
    ).toBe(400);
    const short = await put(owner.token, { password: '123', currentPassword: 'first-pass' });
    expect(short.json().details.fields).toEqual([
      { field: 'password', message: 'New password must be at least 6 characters long' },
    ]);
    expect(
      (await put(colleague.token, { password: 'second-pass', currentPassword: 'first-pass' }))
        .statusCode,
    ).toBe(403);

    const ok = await put(owner.token, { password: 'second-pass', currentPassword: 'first-pass' });
    expect(ok.json().study.password).toBe('second-pass');
    const renamed = await put(owner.token, {
      name: 'Renamed',
      description: '  trimmed  ',
      duration: '',
    });
    expect(renamed.json().study).toMatchObject({
      name: 'Renamed',
      description: 'trimmed',
      duration: null,
    });
    expect((await put(colleague.token, { name: 'Hijacked' })).statusCode).toBe(403);
    const audit = await t.app.platform.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetId, study.id));
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['study.password_changed', 'study.updated']),
    );
  });

  it('says whether a study has a password (never the password in lists); the owner sets a first one without a current one', async () => {
    const { study } = (
      await create(owner.token, { name: 'Open at first', collaborators: [colleague.email] })
    ).json();
    expect(study).toMatchObject({ password: null, hasPassword: false });
    const listedIn = async (list: { data: { id: string }[] }) =>
      list.data.find((s) => s.id === study.id);
    const before = await listedIn(await owned(owner.token));
    expect(before).toMatchObject({ hasPassword: false });
    expect(before).not.toHaveProperty('password');

    const set = await t.app.inject({
      method: 'PUT',
      url: `/api/auth/update-study/${study.id}`,
      headers: as(owner.token),
      payload: { password: 'first-pass' },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json().study).toMatchObject({ password: 'first-pass', hasPassword: true });

    const after = await listedIn(await owned(owner.token));
    expect(after).toMatchObject({ hasPassword: true });
    expect(after).not.toHaveProperty('password');
    const theirs = await listedIn(await collaborative(colleague.token));
    expect(theirs).toMatchObject({ role: 'collab', hasPassword: true });
    expect(theirs).not.toHaveProperty('password');
    const detail = await t.app.inject({
      url: `/api/studies/${study.id}`,
      headers: as(colleague.token),
    });
    expect(detail.json().study).toMatchObject({ hasPassword: true });
    expect(detail.json().study).not.toHaveProperty('password');
  });

  it('deletes softly: gone from lists, code look-up and detail; only the owner may', async () => {
    const { study } = (
      await create(owner.token, {
        name: 'To delete',
        password: 'delete-me',
        collaborators: [colleague.email],
      })
    ).json();
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/auth/delete-study/${study.id}`,
          headers: as(colleague.token),
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/auth/delete-study/${study.id}`,
          headers: as(owner.token),
        })
      ).json(),
    ).toEqual({ success: true });
    expect((await owned(owner.token)).data.map((s: { id: string }) => s.id)).not.toContain(
      study.id,
    );
    expect(
      (await collaborative(colleague.token)).data.map((s: { id: string }) => s.id),
    ).not.toContain(study.id);
    expect(
      (await t.app.inject({ url: `/api/studies/${study.id}`, headers: as(owner.token) }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/verify-study-code',
          payload: { studyCode: study.studyCode },
        })
      ).statusCode,
    ).toBe(404);
    const [row] = await t.app.platform.db.select().from(studies).where(eq(studies.id, study.id));
    expect(row?.deletedAt).toBeInstanceOf(Date);
  });

  it('looks a study up by code for the public, and mails a participant message to the owner', async () => {
    const { study } = (
      await create(owner.token, { name: 'Public Study', description: 'About sleep' })
    ).json();
    const lookup = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verify-study-code',
      payload: { studyCode: ` ${study.studyCode.toLowerCase()} ` },
    });
    expect(lookup.json()).toEqual({
      success: true,
      study: {
        studyName: 'Public Study',
        studyDescription: 'About sleep',
        studyCode: study.studyCode,
        researcherName: 'Ada Lovelace',
      },
    });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verify-study-code',
      payload: { studyCode: 'AB' },
    });
    expect(bad.json().details.fields).toEqual([
      {
        field: 'studyCode',
        message: 'Study code must be 6-8 characters (letters and numbers only)',
      },
    ]);

    const note = await t.app.inject({
      method: 'POST',
      url: '/api/auth/notify-researcher',
      payload: {
        studyCode: study.studyCode,
        participantEmail: 'pat@example.org',
        message: 'My watch broke.',
      },
      remoteAddress: someAddress(),
    });
    expect(note.json().success).toBe(true);
    const mail = await t.sandbox?.waitForMessage(
      { to: owner.email, subjectIncludes: 'Message from a participant' },
      15_000,
    );
    expect(mail?.text).toContain('My watch broke.');
    expect(mail?.text).toContain('pat@example.org');
  });

  it('gives members a signed bucket page listing the study files with expiring download links', async () => {
    const { study } = (
      await create(owner.token, { name: 'Files', collaborators: [colleague.email] })
    ).json();
    const bucket = `study-${study.id}-data`;
    await t.app.platform.objectStore.putObject(
      bucket,
      'profile/P0123456789ABCDEF.json',
      '{"ok":true}',
      { contentType: 'application/json' },
    );
    const res = await t.app.inject({
      url: `/api/studies/${study.id}/bucket-signed-url`,
      headers: as(colleague.token),
    });
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: 'The link is valid for 15 minutes.' });
    const url = new URL(body.signedUrl);
    expect(url.pathname).toBe(`/api/storage/buckets/${bucket}`);

    const page = await t.app.inject({ url: `${url.pathname}${url.search}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('profile/P0123456789ABCDEF.json');
    const link = /href="([^"]+)"/.exec(page.body)?.[1]?.replaceAll('&amp;', '&') as string;
    const file = await t.app.inject({ url: new URL(link).pathname + new URL(link).search });
    expect(file.body).toBe('{"ok":true}');

    url.searchParams.set('signature', `${url.searchParams.get('signature')?.slice(0, -2)}xx`);
    expect((await t.app.inject({ url: `${url.pathname}${url.search}` })).statusCode).toBe(403);
    const expired = new URL(body.signedUrl);
    expired.searchParams.set('expires', '1000');
    expect((await t.app.inject({ url: `${expired.pathname}${expired.search}` })).statusCode).toBe(
      403,
    );
  });
});
