import { randomBytes } from 'node:crypto';
import { participantDisplayStatus, ROSTER_MAX_ROWS } from '@research/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEvents,
  participantDocuments,
  participants,
  pendingParticipants,
  wearableConnections,
} from '../../db/schema/index.js';
import {
  bearer,
  createMaster,
  researcherWithApplication,
  someAddress,
} from '../../test/auth-helpers.js';
import { injectMultipart } from '../../test/multipart.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const pid = () => `P${randomBytes(8).toString('hex')}`;

describe('study detail: participants, pending participants, roster, members, stats', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof researcherWithApplication>>;
  let collaborator: Awaited<ReturnType<typeof researcherWithApplication>>;
  let studyId: string;
  let studyCode: string;
  let otherStudyId: string;

  const call = (
    token: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
  ) =>
    t.app.inject({
      method,
      url,
      headers: bearer(token),
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
      remoteAddress: someAddress(),
    });

  const roster = (csv: string | Buffer, name = 'roster.csv', extra: Record<string, string> = {}) =>
    injectMultipart(t.app, {
      url: `/api/studies/${studyId}/roster`,
      headers: bearer(owner.token),
      fields: { studyCode, ...extra },
      files: [
        {
          field: 'csvFile',
          name,
          data: Buffer.isBuffer(csv) ? csv : Buffer.from(csv),
          type: 'text/csv',
        },
      ],
    });

  const pendingEmails = async (id = studyId) =>
    (
      await t.app.platform.db
        .select({ email: pendingParticipants.email })
        .from(pendingParticipants)
        .where(eq(pendingParticipants.studyId, id))
    )
      .map((r) => r.email)
      .sort();

  beforeAll(async () => {
    t = await createTestApp();
    const master = await createMaster(t.app);
    owner = await researcherWithApplication(t.app, 'approved', master);
    collaborator = await researcherWithApplication(t.app, 'approved', master);
    const created = await call(owner.token, 'POST', '/api/auth/create-study', {
      name: 'Sleep & Steps',
      password: 'study-pass',
    });
    studyId = created.json().study.id;
    studyCode = created.json().study.studyCode;
    const join = await call(collaborator.token, 'POST', '/api/auth/join-study', {
      studyCode,
      password: 'study-pass',
    });
    expect(join.statusCode).toBe(200);
    const other = await call(collaborator.token, 'POST', '/api/auth/create-study', {
      name: 'Other study',
    });
    otherStudyId = other.json().study.id;
  });
  afterAll(() => t.close());

  it('lists participants a page at a time, sorted and searched, without tokens', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({
      id: pid(),
      studyId,
      email: `person${String(i).padStart(2, '0')}@example.org`,
      firstName: `First${i}`,
      lastName: `Last${String(29 - i).padStart(2, '0')}`,
      phoneNumber: '6175550100',
    }));
    await t.app.platform.db.insert(participants).values(rows);
    const first = await call(
      owner.token,
      'GET',
      `/api/studies/${studyId}/participants?limit=10&sort=email&order=desc`,
    );
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.totalCount).toBe(30);
    expect(body.participants).toHaveLength(10);
    expect(body.participants[0]).toMatchObject({
      participantEmail: 'person29@example.org',
      authorizationStatus: false,
      hasAccessToken: false,
      tokenExpiresAt: null,
      fitbitUserId: null,
      status: 'enrolled',
    });
    expect(body.participants[0].id).toBe(body.participants[0].participantId);
    const byName = (
      await call(owner.token, 'GET', `/api/studies/${studyId}/participants?sort=name&limit=1`)
    ).json();
    expect(byName.participants[0].lastName).toBe('Last00');
    const searched = (
      await call(collaborator.token, 'GET', `/api/studies/${studyId}/participants?search=person07`)
    ).json();
    expect(searched.totalCount).toBe(1);
    expect(searched.participants[0].firstName).toBe('First7');
    const wildcard = (
      await call(owner.token, 'GET', `/api/studies/${studyId}/participants?search=%25`)
    ).json();
    expect(wildcard.totalCount).toBe(0);
    // A page past the end is empty and still reports the total.
    const past = (
      await call(owner.token, 'GET', `/api/studies/${studyId}/participants?limit=10&offset=40`)
    ).json();
    expect(past).toMatchObject({ participants: [], totalCount: 30 });
    const pastSearch = (
      await call(
        owner.token,
        'GET',
        `/api/studies/${studyId}/participants?search=person0&offset=10`,
      )
    ).json();
    expect(pastSearch).toMatchObject({ participants: [], totalCount: 10 });
  });

  it('reports wearable authorization from the stored connection, never the token', async () => {
    const id = pid();
    await t.app.platform.db
      .insert(participants)
      .values({ id, studyId, email: 'worn@example.org', firstName: 'Wes', lastName: 'Worn' });
    await t.app.platform.db.insert(wearableConnections).values({
      participantId: id,
      studyId,
      healthUserId: 'health-user-42',
      accessTokenEncrypted: 'ciphertext-not-a-token',
      refreshExpiresAt: new Date('2030-01-01T00:00:00Z'),
      status: 'active',
    });
    const res = await call(owner.token, 'GET', `/api/studies/${studyId}/participants?search=worn@`);
    expect(res.json().participants[0]).toMatchObject({
      participantId: id,
      authorizationStatus: true,
      hasAccessToken: true,
      tokenExpiresAt: '2030-01-01T00:00:00.000Z',
      fitbitUserId: 'health-user-42',
    });
    expect(res.body).not.toContain('ciphertext-not-a-token');
    const stats = (await call(owner.token, 'GET', `/api/studies/${studyId}/stats`)).json().stats;
    expect(stats.authorizedParticipants).toBe(1);
    await t.app.platform.db
      .delete(wearableConnections)
      .where(eq(wearableConnections.participantId, id));
    await t.app.platform.db.delete(participants).where(eq(participants.id, id));
  });

  it('sorts by the active/inactive status the table shows, not the stored enrolment status', async () => {
    const created = await call(owner.token, 'POST', '/api/auth/create-study', {
      name: 'Status sort',
    });
    const sortStudy = created.json().study.id as string;
    const now = new Date();
    const hour = 60 * 60 * 1000;
    // Ids in this order interleave the statuses, so an order by id (every stored status is
    // 'enrolled') is not the order by display status.
    const cases = [
      { n: 1, connection: null },
      { n: 2, connection: { status: 'active', token: true, expiry: now.getTime() + 24 * hour } },
      { n: 3, connection: { status: 'active', token: true, expiry: now.getTime() - hour } },
      { n: 4, connection: { status: 'active', token: true, expiry: null } },
      { n: 5, connection: { status: 'revoked', token: true, expiry: now.getTime() + 24 * hour } },
      { n: 6, connection: { status: 'active', token: false, expiry: now.getTime() - hour } },
      { n: 7, connection: { status: 'needs_reauthorization', token: true, expiry: null } },
    ] as const;
    const idOf = (n: number) => `P${String(n).padStart(16, '0')}`;
    await t.app.platform.db.insert(participants).values(
      cases.map(({ n }) => ({
        id: idOf(n),
        studyId: sortStudy,
        email: `status${n}@example.org`,
        firstName: `S${n}`,
        lastName: 'Sort',
      })),
    );
    for (const { n, connection } of cases) {
      if (!connection) continue;
      await t.app.platform.db.insert(wearableConnections).values({
        participantId: idOf(n),
        studyId: sortStudy,
        healthUserId: `health-${n}`,
        accessTokenEncrypted: connection.token ? 'ciphertext' : null,
        refreshExpiresAt: connection.expiry === null ? null : new Date(connection.expiry),
        status: connection.status,
      });
    }
    // The rule of the contracts, applied to what each case stores.
    const expected = new Map(
      cases.map(({ n, connection }) => [
        idOf(n),
        participantDisplayStatus(
          {
            authorizationStatus: connection?.status === 'active',
            accessToken: connection?.token ? 'present' : null,
            expiresAt: connection?.expiry ?? null,
          },
          now,
        ),
      ]),
    );
    const list = async (query: string) =>
      (
        await call(owner.token, 'GET', `/api/studies/${sortStudy}/participants?${query}`)
      ).json() as { participants: { participantId: string; displayStatus: string }[] };
    const asc = await list('sort=status&order=asc&limit=50');
    // The list shows the same status the sort uses, and it is the active/inactive display status.
    for (const row of asc.participants)
      expect([row.participantId, row.displayStatus]).toEqual([
        row.participantId,
        expected.get(row.participantId),
      ]);
    expect(asc.participants.map((p) => p.participantId)).toEqual([2, 4, 6, 1, 3, 5, 7].map(idOf));
    const desc = await list('sort=status&order=desc&limit=50');
    expect(desc.participants.map((p) => p.participantId)).toEqual([7, 5, 3, 1, 6, 4, 2].map(idOf));
    // Pages follow the same order.
    const second = await list('sort=status&order=asc&limit=3&offset=3');
    expect(second.participants.map((p) => p.displayStatus)).toEqual([
      'inactive',
      'inactive',
      'inactive',
    ]);
  });

  it('shows participant details with documents and lets members download them', async () => {
    const id = pid();
    await t.app.platform.db.insert(participants).values({
      id,
      studyId,
      email: 'detail@example.org',
      firstName: 'Dee',
      lastName: 'Tail',
      additionalInfo: 'Night shifts',
      informationCompletedAt: new Date('2026-11-01T10:00:00Z'),
    });
    const bucket = t.app.services.studies.bucketOf(studyId);
    await t.app.platform.objectStore.ensureBucket(bucket);
    await t.app.platform.objectStore.putObject(
      bucket,
      `participants/${id}/consent.pdf`,
      Buffer.from('%PDF-1.4 consent'),
      {
        contentType: 'application/pdf',
      },
    );
    const [doc] = await t.app.platform.db
      .insert(participantDocuments)
      .values({
        participantId: id,
        studyId,
        name: 'consent.pdf',
        mimeType: 'application/pdf',
        sizeBytes: 16,
        objectKey: `participants/${id}/consent.pdf`,
      })
      .returning();
    const info = await call(collaborator.token, 'GET', `/api/participants/${id}/info`);
    expect(info.statusCode).toBe(200);
    expect(info.json().participant).toMatchObject({
      participantId: id,
      email: 'detail@example.org',
      studyCode,
      status: 'enrolled',
      additionalInfo: 'Night shifts',
      informationCompleted: true,
      informationCompletedAt: '2026-11-01T10:00:00.000Z',
      authorizedAt: null,
      documents: [{ id: doc?.id, name: 'consent.pdf', type: 'application/pdf', size: 16 }],
    });
    const download = await call(owner.token, 'GET', `/api/participants/${id}/documents/${doc?.id}`);
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('%PDF-1.4 consent');
    expect(download.headers['content-disposition']).toContain('consent.pdf');
    // A researcher of another study learns nothing.
    const stranger = await researcherWithApplication(t.app, 'approved', await createMaster(t.app));
    expect((await call(stranger.token, 'GET', `/api/participants/${id}/info`)).statusCode).toBe(
      404,
    );
    expect(
      (await call(stranger.token, 'GET', `/api/participants/${id}/documents/${doc?.id}`))
        .statusCode,
    ).toBe(404);
  });

  it('edits a participant: names required, e-mail unique in the study, audited', async () => {
    const id = pid();
    await t.app.platform.db.insert(participants).values({ id, studyId, email: 'edit@example.org' });
    const blank = await call(collaborator.token, 'PUT', `/api/participants/${id}`, {
      firstName: '',
      lastName: 'X',
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().details.fields[0].message).toBe('First name and last name are required');
    const taken = await call(owner.token, 'PUT', `/api/participants/${id}`, {
      firstName: 'Ed',
      lastName: 'It',
      participantEmail: 'person01@example.org',
    });
    expect(taken.statusCode).toBe(409);
    const wrongCode = await call(owner.token, 'PUT', `/api/participants/${id}`, {
      firstName: 'Ed',
      lastName: 'It',
      studyCode: 'ZZZZZZ',
    });
    expect(wrongCode.statusCode).toBe(400);
    const ok = await call(collaborator.token, 'PUT', `/api/participants/${id}`, {
      firstName: ' Ed ',
      lastName: 'It',
      participantEmail: 'Edited@Example.org',
      studyCode,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().participant).toMatchObject({
      firstName: 'Ed',
      lastName: 'It',
      email: 'edited@example.org',
    });
    const audit = await t.app.platform.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetId, id));
    expect(audit.map((a) => a.action)).toEqual(['participant.updated']);
  });

  it('deletes participants softly, for the owner only', async () => {
    const id = pid();
    await t.app.platform.db.insert(participants).values({ id, studyId, email: 'gone@example.org' });
    const refused = await call(collaborator.token, 'DELETE', `/api/participants/${id}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('Only the study owner can delete participants.');
    const deleted = await call(owner.token, 'DELETE', `/api/participants/${id}`);
    expect(deleted.statusCode).toBe(200);
    const [row] = await t.app.platform.db
      .select()
      .from(participants)
      .where(eq(participants.id, id));
    expect(row?.deletedAt).toBeInstanceOf(Date);
    expect((await call(owner.token, 'GET', `/api/participants/${id}/info`)).statusCode).toBe(404);
    const list = (
      await call(owner.token, 'GET', `/api/studies/${studyId}/participants?search=gone@`)
    ).json();
    expect(list.totalCount).toBe(0);
  });

  it('adds pending participants from JSON, checking every row first', async () => {
    const bad = await call(owner.token, 'POST', `/api/studies/${studyId}/pending-participants`, {
      participants: [
        { email: 'fine@example.org' },
        { email: '' },
        { email: 'nope', phoneNumber: '123' },
        { email: 'long@example.org', firstName: 'a'.repeat(101), lastName: 'b'.repeat(101) },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.fields.map((f: { message: string }) => f.message)).toEqual([
      'Participant 2: Email is required',
      'Participant 3: Invalid email format',
      'Participant 3: Invalid phone number format',
      'Participant 4: First name is too long (max 100 characters)',
      'Participant 4: Last name is too long (max 100 characters)',
    ]);
    const empty = await call(owner.token, 'POST', `/api/studies/${studyId}/pending-participants`, {
      participants: [],
    });
    expect(empty.json().details.fields[0].message).toBe('At least one participant is required');
    expect(await pendingEmails()).toEqual([]);

    const ok = await call(
      collaborator.token,
      'POST',
      `/api/studies/${studyId}/pending-participants`,
      {
        participants: [
          { email: 'New.One@example.org', phoneNumber: '(111) - 0000 - 000' },
          { email: 'new.one@example.org' },
          { email: 'person03@example.org' },
        ],
      },
    );
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ created: 1, totalRows: 3 });
    expect(
      ok.json().duplicates.map((d: { row: number; reason: string }) => [d.row, d.reason]),
    ).toEqual([
      [2, 'file'],
      [3, 'participant'],
    ]);
    const again = await call(owner.token, 'POST', `/api/studies/${studyId}/pending-participants`, {
      participants: [{ email: 'new.one@example.org' }],
    });
    expect(again.json()).toMatchObject({ created: 0, duplicates: [{ reason: 'pending' }] });
    expect(await pendingEmails()).toEqual(['new.one@example.org']);
    const list = (
      await call(owner.token, 'GET', `/api/studies/${studyId}/pending-participants`)
    ).json();
    expect(list.pendingParticipants[0]).toMatchObject({
      email: 'new.one@example.org',
      phoneNumber: '+11110000000',
      status: 'pre-enrolled',
      studyCode,
      studyName: 'Sleep & Steps',
      participantId: null,
    });
    expect(list.totalCount).toBe(1);
    const past = (
      await call(owner.token, 'GET', `/api/studies/${studyId}/pending-participants?offset=5`)
    ).json();
    expect(past).toMatchObject({ pendingParticipants: [], totalCount: 1 });
  });

  it('edits and removes pending participants of its own study only', async () => {
    const list = (
      await call(owner.token, 'GET', `/api/studies/${studyId}/pending-participants`)
    ).json();
    const pending = list.pendingParticipants[0];
    const badPhone = await call(
      owner.token,
      'PUT',
      `/api/studies/${studyId}/pending-participants/${pending.id}`,
      {
        phoneNumber: '12',
      },
    );
    expect(badPhone.statusCode).toBe(400);
    expect(badPhone.json().details.fields[0].message).toBe('Invalid phone number format');
    const edited = await call(
      collaborator.token,
      'PUT',
      `/api/studies/${studyId}/pending-participants/${pending.id}`,
      {
        phoneNumber: '(222) - 3333 - 444',
      },
    );
    expect(edited.json().pendingParticipant.phoneNumber).toBe('+12223333444');
    // A body without the phone changes nothing: the stored number stays.
    const untouched = await call(
      owner.token,
      'PUT',
      `/api/studies/${studyId}/pending-participants/${pending.id}`,
      {},
    );
    expect(untouched.statusCode).toBe(200);
    expect(untouched.json().pendingParticipant.phoneNumber).toBe('+12223333444');
    const [stored] = await t.app.platform.db
      .select({ phoneNumber: pendingParticipants.phoneNumber })
      .from(pendingParticipants)
      .where(eq(pendingParticipants.id, pending.id));
    expect(stored?.phoneNumber).toBe('+12223333444');
    // Numbers abroad, typed with their country code, are stored in E.164 too.
    for (const [typed, e164] of [
      ['+44 7700 900123', '+447700900123'],
      ['+49 1512 3456789', '+4915123456789'],
    ]) {
      const abroad = await call(
        owner.token,
        'PUT',
        `/api/studies/${studyId}/pending-participants/${pending.id}`,
        { phoneNumber: typed },
      );
      expect(abroad.json().pendingParticipant.phoneNumber).toBe(e164);
    }
    const notAPhone = await call(
      owner.token,
      'PUT',
      `/api/studies/${studyId}/pending-participants/${pending.id}`,
      { phoneNumber: '+44 12' },
    );
    expect(notAPhone.statusCode).toBe(400);
    expect(notAPhone.json().details.fields[0].message).toBe('Invalid phone number format');
    const cleared = await call(
      owner.token,
      'PUT',
      `/api/studies/${studyId}/pending-participants/${pending.id}`,
      {
        phoneNumber: '',
      },
    );
    expect(cleared.json().pendingParticipant.phoneNumber).toBeNull();
    // Through another study's path: 404, nothing changes.
    const foreign = await call(
      collaborator.token,
      'DELETE',
      `/api/studies/${otherStudyId}/pending-participants/${pending.id}`,
    );
    expect(foreign.statusCode).toBe(404);
    expect(await pendingEmails()).toEqual(['new.one@example.org']);
    const removed = await call(
      collaborator.token,
      'DELETE',
      `/api/studies/${studyId}/pending-participants/${pending.id}`,
    );
    expect(removed.statusCode).toBe(200);
    expect(await pendingEmails()).toEqual([]);
  });

  describe('roster CSV', () => {
    it('reads BOM, CRLF, quoted commas, semicolons and loose headers', async () => {
      const csv =
        '\ufeff"E-mail";"Phone Number";"First Name";"Last name"\r\n' +
        'a.csv@example.org;(333) 444-5555;"Smith; Jr";Ann\r\n' +
        '"b.csv@example.org";;Bo;"O\'Neil, B"\r\n';
      const res = await roster(csv);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ created: 2, duplicates: [], dryRun: false });
      const [a] = await t.app.platform.db
        .select()
        .from(pendingParticipants)
        .where(
          and(
            eq(pendingParticipants.studyId, studyId),
            eq(pendingParticipants.email, 'a.csv@example.org'),
          ),
        );
      expect(a).toMatchObject({
        phoneNumber: '+13334445555',
        firstName: 'Smith; Jr',
        lastName: 'Ann',
        status: 'pre-enrolled',
      });
      const comma = await roster('email,phone,first,last\nc.csv@example.org,,"Lee, Jr",Chan\n');
      expect(comma.json().created).toBe(1);
    });

    it('answers a dry run with the rows and stores nothing', async () => {
      const res = await roster(
        'email,phone\nd.csv@example.org,1112223333\na.csv@example.org,\n',
        'r.csv',
        { dryRun: 'true' },
      );
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        created: 0,
        dryRun: true,
        participants: [{ email: 'd.csv@example.org', phoneNumber: '1112223333' }],
        duplicates: [{ row: 2, reason: 'pending' }],
      });
      expect(await pendingEmails()).not.toContain('d.csv@example.org');
    });

    it('checks a file for the invite dialog: pending people stay invitable, participants are left out', async () => {
      const res = await roster(
        'email,phone\nd.csv@example.org,1112223333\nA.CSV@example.org,5556667777\nperson03@example.org,\n',
        'invite.csv',
        { dryRun: 'true', intent: 'invite' },
      );
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        created: 0,
        dryRun: true,
        participants: [
          { email: 'd.csv@example.org', phoneNumber: '1112223333' },
          // Already pending: invited again (the invitation makes its status 'invited').
          { email: 'a.csv@example.org', phoneNumber: '5556667777' },
        ],
        duplicates: [{ row: 3, reason: 'participant' }],
      });
      expect(res.json().duplicates).toHaveLength(1);
      expect(await pendingEmails()).not.toContain('d.csv@example.org');
    });

    it('refuses a file with any invalid row and reports every row', async () => {
      const res = await roster('email,phone\ngood@example.org,\nbad-address,\n,1234\n');
      expect(res.statusCode).toBe(400);
      expect(res.json().details.fields.map((f: { message: string }) => f.message)).toEqual([
        'Participant 2: Invalid email format',
        'Participant 3: Email is required',
        'Participant 3: Invalid phone number format',
      ]);
      expect(await pendingEmails()).not.toContain('good@example.org');
    });

    it.each([
      ['an empty file', '', 'CSV file is empty', 400],
      ['a header only', 'email,phone\r\n', 'CSV file is empty', 400],
      ['blank lines', '\n\n  \n', 'CSV file is empty', 400],
      ['an unclosed quote', 'email\n"a@b.co\n', 'Failed to parse CSV file', 400],
    ])('refuses %s', async (_name, csv, message, status) => {
      const res = await roster(csv);
      expect(res.statusCode).toBe(status);
      expect(res.json().error).toBe(message);
    });

    it('refuses a binary file named .csv and a file that is not a CSV', async () => {
      const png = Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
        'base64',
      );
      const binary = await roster(png, 'photo.csv');
      expect(binary.statusCode).toBe(415);
      expect(binary.json().error).toBe('File must be a CSV file');
      const named = await injectMultipart(t.app, {
        url: `/api/studies/${studyId}/roster`,
        headers: bearer(owner.token),
        fields: { studyCode },
        files: [
          {
            field: 'csvFile',
            name: 'roster.txt',
            data: Buffer.from('email\na@b.co\n'),
            type: 'text/plain',
          },
        ],
      });
      expect(named.json().error).toBe('File must be a CSV file');
    });

    it('refuses 5 MB and more with 413', async () => {
      const header = 'email\n';
      const big = Buffer.alloc(5_242_880 + 1, 'a');
      big.write(header);
      const res = await roster(big);
      expect(res.statusCode).toBe(413);
      expect(res.json().error).toBe('File size must be less than 5MB');
    });

    it('takes a file just under 5 MB and refuses one of exactly 5 MB (5,242,880 bytes)', async () => {
      // 'The size must be under 5 MB': the maximum of 5,242,880 bytes is itself refused.
      const sized = (bytes: number) => {
        const file = Buffer.alloc(bytes, '\n');
        file.write('email\nedge.size@example.org\n');
        return file;
      };
      const under = await roster(sized(5_242_879), 'under.csv', { dryRun: 'true' });
      expect(under.statusCode).toBe(200);
      expect(under.json().participants).toEqual([
        { email: 'edge.size@example.org', phoneNumber: null, firstName: null, lastName: null },
      ]);
      const exactly = await roster(sized(5_242_880), 'exactly.csv', { dryRun: 'true' });
      expect(exactly.statusCode).toBe(413);
      expect(exactly.json().error).toBe('File size must be less than 5MB');
    });

    it('refuses more rows than one roster may add, with the CSV message', async () => {
      const file = (rows: number) => {
        const lines = ['email'];
        for (let i = 0; i < rows; i++) lines.push(`cap${i}@example.org`);
        return lines.join('\n');
      };
      const over = await roster(file(ROSTER_MAX_ROWS + 1), 'over.csv', { dryRun: 'true' });
      expect(over.statusCode).toBe(400);
      expect(over.json().error).toBe(`The CSV file has more than ${ROSTER_MAX_ROWS} participants`);
      const at = await roster(file(ROSTER_MAX_ROWS), 'at.csv', { dryRun: 'true' });
      expect(at.statusCode).toBe(200);
      expect(at.json().participants).toHaveLength(ROSTER_MAX_ROWS);
    }, 60_000);

    it('takes 10,000 rows in one upload', async () => {
      const lines = ['email,phone'];
      for (let i = 0; i < 10_000; i++) lines.push(`bulk${i}@example.org,${String(1000000000 + i)}`);
      const res = await roster(lines.join('\n'));
      expect(res.statusCode).toBe(201);
      expect(res.json().created).toBe(10_000);
      const stats = (await call(owner.token, 'GET', `/api/studies/${studyId}/stats`)).json().stats;
      expect(stats.pendingParticipants).toBe(10_003);
    }, 60_000);
  });

  it('lists members and lets only the owner remove a collaborator, who loses access at once', async () => {
    const members = (
      await call(collaborator.token, 'GET', `/api/studies/${studyId}/members`)
    ).json().members;
    expect(members).toHaveLength(2);
    expect(members[0]).toMatchObject({
      id: owner.user.id,
      role: 'main',
      status: 'active',
      email: owner.email,
      name: 'Ada Lovelace',
    });
    // The application's phone, stored in E.164 (the screen shows it with displayPhone).
    expect(members[0].phone).toBe('+16175550199');
    expect(members[1]).toMatchObject({ id: collaborator.user.id, role: 'collab' });
    expect(members[1].joinedDate).toMatch(/^\d{4}-/);
    const refused = await call(
      collaborator.token,
      'DELETE',
      `/api/studies/${studyId}/members/${owner.user.id}`,
    );
    expect(refused.statusCode).toBe(403);
    const self = await call(
      owner.token,
      'DELETE',
      `/api/studies/${studyId}/members/${owner.user.id}`,
    );
    expect(self.statusCode).toBe(400);
    const unknown = await call(
      owner.token,
      'DELETE',
      `/api/studies/${studyId}/members/00000000-0000-4000-8000-000000000000`,
    );
    expect(unknown.statusCode).toBe(404);
    // A member of this study, named through another study (where they are not a member): 404.
    const foreign = await call(
      collaborator.token,
      'DELETE',
      `/api/studies/${otherStudyId}/members/${owner.user.id}`,
    );
    expect(foreign.statusCode).toBe(404);
    const removed = await call(
      owner.token,
      'DELETE',
      `/api/studies/${studyId}/members/${collaborator.user.id}`,
    );
    expect(removed.statusCode).toBe(200);
    expect(
      (await call(collaborator.token, 'GET', `/api/studies/${studyId}/participants`)).statusCode,
    ).toBe(403);
    const audit = await t.app.platform.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.targetId, studyId), eq(auditEvents.action, 'study.member_removed')),
      );
    expect(audit[0]?.details).toEqual({ userId: collaborator.user.id });
    const stats = (await call(owner.token, 'GET', `/api/studies/${studyId}/stats`)).json().stats;
    expect(stats).toMatchObject({
      members: 1,
      participants: 32,
      emails: 0,
      authorizedParticipants: 0,
      atRisk: 0,
      lastEmailSentAt: null,
    });
  });
});
