import { DOCUMENT_MAX_FILES } from '@research/contracts';
import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditEvents, researcherApplications } from '../../db/schema/index.js';
import {
  applicationFor,
  bearer,
  createMaster,
  registerUser,
  researcherWithApplication,
  someAddress,
} from '../../test/auth-helpers.js';
import { injectMultipart, SAMPLE_FILES } from '../../test/multipart.js';
import { useTestApp } from '../../test/test-app.js';

describe('researcher applications', () => {
  const t = useTestApp();
  let master: { token: string; email: string };
  beforeAll(async () => {
    master = await createMaster(t.app);
  });
  beforeEach(() => t.sandbox?.clear());

  const submitJson = (token: string, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/admin/researcher-applications',
      headers: bearer(token),
      payload: body,
      remoteAddress: someAddress(),
    });
  const statusOf = (token: string) =>
    t.app.inject({ url: '/api/auth/application-status', headers: bearer(token) });
  const profileOf = async (token: string) =>
    (await t.app.inject({ url: '/api/auth/profile', headers: bearer(token) })).json().researcher;

  it('submits as JSON: 201 with the id, status pending, a confirmation e-mail, and an audit entry', async () => {
    const account = await registerUser(t.app);
    expect((await statusOf(account.token)).json()).toEqual({ success: true, application: null });
    const res = await submitJson(account.token, applicationFor(account.email));
    expect(res.statusCode).toBe(201);
    const { applicationId } = res.json();
    expect(applicationId).toMatch(/^[0-9a-f-]{36}$/);

    const status = (await statusOf(account.token)).json().application;
    expect(status).toMatchObject({
      id: applicationId,
      status: 'pending',
      firstName: 'Ada',
      institution: 'Analytical Engine University',
      // Sent as '(617) - 555 - 0199', stored like every phone: E.164.
      phoneNumber: '+16175550199',
      reviewedAt: null,
      verificationDocuments: [],
    });
    expect(await profileOf(account.token)).toMatchObject({
      status: 'pending',
      firstName: 'Ada',
      lastName: 'Lovelace',
      position: 'Associate Professor',
    });
    // Sign-up mailed a confirmation link to the same address first; this is the application's.
    const mail = await t.sandbox?.waitForMessage(
      { to: account.email, subjectIncludes: 'We received your researcher application' },
      15_000,
    );
    expect(mail?.subject).toBe('We received your researcher application');
    const audit = await t.app.platform.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetId, applicationId));
    expect(audit.map((a) => a.action)).toEqual(['application.submitted']);
  });

  it('refuses a second application while one is pending', async () => {
    const account = await registerUser(t.app);
    await submitJson(account.token, applicationFor(account.email));
    const again = await submitJson(account.token, applicationFor(account.email));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'APPLICATION_PENDING',
      message:
        'You already have an application under review. Please wait for the decision before applying again.',
    });
  });

  it.each([
    [
      'missing fields',
      {},
      ['firstName', 'lastName', 'email', 'dateOfBirth', 'phoneNumber', 'institution', 'position'],
    ],
    ['blank names', { firstName: '   ', lastName: '' }, ['firstName', 'lastName']],
    ['a bad phone', { phoneNumber: '555-0199' }, ['phoneNumber']],
    ['a bad date', { dateOfBirth: '1985-13-45' }, ['dateOfBirth']],
    [
      'oversized text',
      { institution: 'x'.repeat(201), description: 'y'.repeat(2001) },
      ['institution', 'description'],
    ],
  ])('refuses %s with 400 naming each field', async (_label, overrides, fields) => {
    const account = await registerUser(t.app);
    const body =
      Object.keys(overrides).length === 0 ? {} : { ...applicationFor(account.email), ...overrides };
    const res = await submitJson(account.token, body);
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .details.fields.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual([...fields].sort());
  });

  it('requires the e-mail of the signed-in account', async () => {
    const account = await registerUser(t.app);
    const res = await submitJson(account.token, applicationFor('someone.else@example.org'));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The email address must be the one you signed in with.');
  });

  it('takes as many documents as the limit', async () => {
    const account = await registerUser(t.app);
    const res = await injectMultipart(t.app, {
      url: '/api/admin/researcher-applications',
      headers: bearer(account.token),
      fields: applicationFor(account.email),
      files: Array.from({ length: DOCUMENT_MAX_FILES }, (_, i) => ({
        field: 'documents',
        name: `doc${i}.pdf`,
        data: SAMPLE_FILES.pdf,
      })),
    });
    expect(res.statusCode, res.body).toBe(201);
    const view = (await statusOf(account.token)).json().application;
    expect(view.verificationDocuments).toHaveLength(5);
  });

  it('takes documents as multipart, checked by content, and lets only the master download them', async () => {
    const account = await registerUser(t.app);
    const res = await injectMultipart(t.app, {
      url: '/api/admin/researcher-applications',
      headers: bearer(account.token),
      fields: applicationFor(account.email),
      files: [
        {
          field: 'documents',
          name: 'id-card.pdf',
          data: SAMPLE_FILES.pdf,
          type: 'application/pdf',
        },
        { field: 'documents', name: 'badge.png', data: SAMPLE_FILES.png, type: 'image/png' },
      ],
    });
    expect(res.statusCode).toBe(201);
    const view = (await statusOf(account.token)).json().application;
    expect(view.verificationDocuments).toEqual([
      expect.objectContaining({
        name: 'id-card.pdf',
        size: SAMPLE_FILES.pdf.length,
        type: 'application/pdf',
      }),
      expect.objectContaining({
        name: 'badge.png',
        size: SAMPLE_FILES.png.length,
        type: 'image/png',
      }),
    ]);
    const pdf = view.verificationDocuments[0];
    const url = `/api/admin/researcher-applications/${view.id}/documents/${pdf.id}`;
    const download = await t.app.inject({ url, headers: bearer(master.token) });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toContain('id-card.pdf');
    expect(download.rawPayload.equals(SAMPLE_FILES.pdf)).toBe(true);
    expect((await t.app.inject({ url, headers: bearer(account.token) })).statusCode).toBe(403);
    expect((await t.app.inject({ url })).statusCode).toBe(401);
  });

  it.each([
    [
      'an executable renamed to .pdf',
      [{ name: 'scan.pdf', data: SAMPLE_FILES.exe }],
      415,
      '"scan.pdf" is not a PDF, PNG or JPEG file.',
    ],
    [
      'a PNG named .pdf',
      [{ name: 'scan.pdf', data: SAMPLE_FILES.png }],
      415,
      '"scan.pdf" does not match its content (PNG).',
    ],
    [
      'a file over 10 MB',
      [
        {
          name: 'big.pdf',
          data: Buffer.concat([SAMPLE_FILES.pdf, Buffer.alloc(10 * 1024 * 1024)]),
        },
      ],
      413,
      'Each file must be at most 10 MB.',
    ],
    [
      'one file over the limit',
      Array.from({ length: DOCUMENT_MAX_FILES + 1 }, (_, i) => ({
        name: `doc${i}.pdf`,
        data: SAMPLE_FILES.pdf,
      })),
      413,
      'You can attach at most 5 documents.',
    ],
    [
      'two files over the limit',
      Array.from({ length: DOCUMENT_MAX_FILES + 2 }, (_, i) => ({
        name: `doc${i}.pdf`,
        data: SAMPLE_FILES.pdf,
      })),
      413,
      'You can attach at most 5 documents.',
    ],
  ])('refuses %s and stores nothing', async (_label, files, status, message) => {
    const account = await registerUser(t.app);
    const res = await injectMultipart(t.app, {
      url: '/api/admin/researcher-applications',
      headers: bearer(account.token),
      fields: applicationFor(account.email),
      files: files.map((f) => ({ field: 'documents', ...f })),
    });
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toBe(message);
    expect((await statusOf(account.token)).json().application).toBeNull();
  });

  it('approves: status approved with notes, approval e-mail, profile approved', async () => {
    const applicant = await researcherWithApplication(t.app, 'pending');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/researcher-applications/${applicant.applicationId}/approve`,
      headers: bearer(master.token),
      payload: { reviewNotes: 'Welcome aboard' },
    });
    expect(res.json()).toEqual({ success: true });
    const profile = await profileOf(applicant.token);
    expect(profile).toMatchObject({
      status: 'approved',
      institution: 'Analytical Engine University',
    });
    expect(profile.approvedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const mail = await t.sandbox?.waitForMessage(
      { to: applicant.email, subjectIncludes: 'approved' },
      15_000,
    );
    expect(mail?.text).toContain('Welcome aboard');
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/admin/researcher-applications/${applicant.applicationId}/approve`,
      headers: bearer(master.token),
      payload: {},
    });
    expect(again.statusCode).toBe(409);
  });

  it('rejects only with a reason, mails it, shows it on the status page; reset lets the person apply again', async () => {
    const applicant = await researcherWithApplication(t.app, 'pending');
    const url = `/api/admin/researcher-applications/${applicant.applicationId}/review`;
    const blank = await t.app.inject({
      method: 'PUT',
      url,
      headers: bearer(master.token),
      payload: { action: 'reject', reviewNotes: '   ' },
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().details.fields).toEqual([
      {
        field: 'reviewNotes',
        message: 'Rejection reason is required when rejecting an application.',
      },
    ]);
    const rejected = await t.app.inject({
      method: 'PUT',
      url,
      headers: bearer(master.token),
      payload: { action: 'reject', reviewNotes: 'Please attach proof of affiliation' },
    });
    expect(rejected.json()).toEqual({ success: true });
    const status = (await statusOf(applicant.token)).json().application;
    expect(status).toMatchObject({
      status: 'rejected',
      reviewNotes: 'Please attach proof of affiliation',
    });
    expect(status.reviewedAt).toBeTruthy();
    const mail = await t.sandbox?.waitForMessage(
      { to: applicant.email, subjectIncludes: 'not approved' },
      15_000,
    );
    expect(mail?.text).toContain('Reason: Please attach proof of affiliation');

    const reset = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/researcher-applications/${applicant.applicationId}/reset`,
      headers: bearer(master.token),
    });
    expect(reset.json()).toEqual({ success: true });
    expect(await profileOf(applicant.token)).toMatchObject({ status: 'noprofile' });
    const rejectedList = await t.app.inject({
      url: '/api/admin/researcher-applications?status=rejected&limit=100',
      headers: bearer(master.token),
    });
    expect(rejectedList.json().applications.map((a: { id: string }) => a.id)).not.toContain(
      applicant.applicationId,
    );

    const resubmitted = await submitJson(applicant.token, applicationFor(applicant.email));
    expect(resubmitted.statusCode).toBe(201);
    expect(await profileOf(applicant.token)).toMatchObject({ status: 'pending' });
    const history = await t.app.platform.db
      .select()
      .from(researcherApplications)
      .where(eq(researcherApplications.userId, applicant.user.id));
    expect(history).toHaveLength(2);
  });

  it('gives the owner, and only them, every field of their latest rejected application, also after a reset', async () => {
    const previousOf = (token?: string) =>
      t.app.inject({
        url: '/api/auth/previous-application',
        ...(token ? { headers: bearer(token) } : {}),
      });
    const reject = (id: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/admin/researcher-applications/${id}/review`,
        headers: bearer(master.token),
        payload: { action: 'reject', reviewNotes: 'Missing proof of affiliation' },
      });
    const account = await registerUser(t.app);
    const given = {
      firstName: 'Grace',
      lastName: 'Hopper',
      dateOfBirth: '1976-12-09',
      phoneNumber: '(212) - 555 - 0142',
      institution: 'Yale University',
      position: 'Research Fellow',
      department: 'Computer Science',
      researchArea: 'Circadian rhythms',
      description: 'Sleep of night-shift nurses',
    };
    const { applicationId } = (
      await submitJson(account.token, { ...given, email: account.email })
    ).json();
    expect((await previousOf(account.token)).json()).toEqual({ success: true, application: null });

    await reject(applicationId);
    // The phone comes back as stored (E.164); the form shows it grouped again.
    const stored = { ...given, phoneNumber: '+12125550142' };
    expect((await previousOf(account.token)).json()).toEqual({
      success: true,
      application: stored,
    });
    await t.app.inject({
      method: 'PUT',
      url: `/api/admin/researcher-applications/${applicationId}/reset`,
      headers: bearer(master.token),
    });
    // Archived: no current application and a fresh status, but nothing the applicant said is lost.
    expect((await statusOf(account.token)).json().application).toBeNull();
    expect(await profileOf(account.token)).toMatchObject({ status: 'noprofile' });
    expect((await previousOf(account.token)).json().application).toEqual(stored);

    // Nobody else sees it; signed out is 401.
    const stranger = await registerUser(t.app);
    expect((await previousOf(stranger.token)).json()).toEqual({ success: true, application: null });
    expect((await previousOf()).statusCode).toBe(401);

    // The latest rejected application wins; optional fields left out come back as null.
    const second = (
      await submitJson(account.token, {
        ...given,
        email: account.email,
        institution: 'Harvard University',
        department: '',
        researchArea: '',
        description: '',
      })
    ).json();
    await reject(second.applicationId);
    expect((await previousOf(account.token)).json().application).toEqual({
      ...stored,
      institution: 'Harvard University',
      department: null,
      researchArea: null,
      description: null,
    });
  });

  it('a rejected researcher may also apply again without a reset', async () => {
    const applicant = await researcherWithApplication(t.app, 'rejected', master);
    const res = await submitJson(applicant.token, applicationFor(applicant.email));
    expect(res.statusCode).toBe(201);
    expect(await profileOf(applicant.token)).toMatchObject({ status: 'pending' });
  });

  it('refuses to reset a pending application and to review an unknown one', async () => {
    const applicant = await researcherWithApplication(t.app, 'pending');
    const reset = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/researcher-applications/${applicant.applicationId}/reset`,
      headers: bearer(master.token),
    });
    expect(reset.statusCode).toBe(409);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/admin/researcher-applications/00000000-0000-4000-8000-000000000000/approve',
      headers: bearer(master.token),
      payload: {},
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('master lists and counts', () => {
  const t = useTestApp();
  let master: { token: string };
  beforeAll(async () => {
    master = await createMaster(t.app);
    for (const state of [
      'pending',
      'pending',
      'pending',
      'approved',
      'approved',
      'rejected',
    ] as const) {
      await researcherWithApplication(t.app, state, master);
    }
  });

  const get = (url: string) => t.app.inject({ url, headers: bearer(master.token) });

  it('counts with limit=1 match the lists, and the total is pending + approved + rejected', async () => {
    const counts: Record<string, number> = {};
    for (const status of ['pending', 'approved', 'rejected']) {
      const one = (await get(`/api/admin/researcher-applications?status=${status}&limit=1`)).json();
      const all = (
        await get(`/api/admin/researcher-applications?status=${status}&limit=100`)
      ).json();
      expect(one.applications).toHaveLength(1);
      expect(one.totalCount).toBe(all.applications.length);
      counts[status] = one.totalCount;
    }
    expect(counts).toEqual({ pending: 3, approved: 2, rejected: 1 });
    const total = (await get('/api/admin/researcher-applications?limit=1')).json().totalCount;
    expect(total).toBe(6);
  });

  it('paginates newest first without overlap', async () => {
    const first = (
      await get('/api/admin/researcher-applications?status=pending&limit=2&offset=0')
    ).json();
    const second = (
      await get('/api/admin/researcher-applications?status=pending&limit=2&offset=2')
    ).json();
    expect(first.applications).toHaveLength(2);
    expect(second.applications).toHaveLength(1);
    const ids = [...first.applications, ...second.applications].map((a: { id: string }) => a.id);
    expect(new Set(ids).size).toBe(3);
    const times = first.applications.map((a: { submittedAt: string }) => a.submittedAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect((await get('/api/admin/researcher-applications?limit=500')).statusCode).toBe(400);
  });

  it('finds applications by e-mail', async () => {
    const applicant = await researcherWithApplication(t.app, 'pending');
    const res = (
      await get(
        `/api/admin/researcher-applications?email=${encodeURIComponent(applicant.email.toUpperCase())}`,
      )
    ).json();
    expect(res.totalCount).toBe(1);
    expect(res.applications[0].email).toBe(applicant.email);
  });

  it('lists researchers with last login, approved only or all', async () => {
    const approved = (await get('/api/admin/researchers?status=approved')).json();
    expect(approved.totalCount).toBe(2);
    expect(approved.researchers[0]).toMatchObject({
      status: 'approved',
      institution: 'Analytical Engine University',
      department: 'Mathematics',
      researchArea: 'Sleep and activity',
    });
    expect(approved.researchers[0].approvedAt).toBeTruthy();
    expect(approved.researchers[0].lastLoginAt).toBeTruthy();
    const all = (await get('/api/admin/researchers?status=all&limit=1')).json();
    expect(all.totalCount).toBeGreaterThanOrEqual(6);
  });
});
