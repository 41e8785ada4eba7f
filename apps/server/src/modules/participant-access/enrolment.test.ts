import {
  ENROLMENT_MESSAGES,
  PARTICIPANT_LIST_MESSAGES,
  STUDY_CODE_MESSAGES,
} from '@research/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  auditEvents,
  participants,
  pendingParticipants,
  studyMembers,
} from '../../db/schema/index.js';
import {
  addPending,
  adult,
  approvedResearcher,
  codeFromInbox,
  createStudy,
  enrolDirectWithCode,
  participantEmail,
  post,
  resetClock,
  setClock,
} from '../../test/enrolment-fixtures.js';
import { createTestApp, logCapture, useTestApp } from '../../test/test-app.js';

const SESSION = 'x-participant-session';

describe('direct enrolment', () => {
  const t = useTestApp();
  let owner: Awaited<ReturnType<typeof approvedResearcher>>;

  beforeAll(async () => {
    owner = await approvedResearcher(t.app);
  });
  beforeEach(() => t.sandbox?.clear());

  const person = (studyCode: string, email: string, extra: Record<string, unknown> = {}) => ({
    email,
    firstName: 'Grace',
    lastName: 'Hopper',
    dateOfBirth: adult,
    studyCode,
    ...extra,
  });
  const participantRows = (studyId: string) =>
    t.app.platform.db.select().from(participants).where(eq(participants.studyId, studyId));

  it('refuses an address that is not on the roster of a roster-only study (the default)', async () => {
    const study = await createStudy(t.app, owner);
    const res = await post(
      t.app,
      '/api/participants/enroll-direct',
      person(study.studyCode, participantEmail()),
    );
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      success: false,
      error: 'You are not approved for this study. Please contact the researcher.',
      code: 'NOT_APPROVED',
    });
    expect(await participantRows(study.id)).toHaveLength(0);
  });

  it('enrols an invited address, asks for the e-mail code, then answers the wearable address with the session', async () => {
    const study = await createStudy(t.app, owner);
    const email = participantEmail('invited');
    const pending = await addPending(t.app, study.id, {
      email,
      invitedBy: owner.user.id,
      status: 'invited',
    });

    const first = await post(
      t.app,
      '/api/participants/enroll-direct',
      person(study.studyCode, `  ${email.toUpperCase()} `),
    );
    expect(first.statusCode).toBe(200);
    const enrolled = first.json();
    expect(enrolled).toMatchObject({
      success: true,
      message: 'Verification code sent to your email!',
      verificationRequired: true,
    });
    expect(enrolled.participantId).toMatch(/^P[0-9a-f]{16}$/);
    expect(enrolled.fitbitAuthUrl).toBeUndefined();
    expect(enrolled.session).toBeUndefined();

    // Before a code is verified nothing changes: no participant, the roster entry as it was.
    expect(await participantRows(study.id)).toHaveLength(0);
    const rosterEntry = async () =>
      (
        await t.app.platform.db
          .select()
          .from(pendingParticipants)
          .where(eq(pendingParticipants.id, pending.id))
      )[0];
    expect(await rosterEntry()).toMatchObject({ participantId: null, status: 'invited' });

    // Enrolling again without a session only resends nothing new and reveals no address.
    const again = await post(
      t.app,
      '/api/participants/enroll-direct',
      person(study.studyCode, email),
    );
    expect(again.json()).toMatchObject({
      participantId: enrolled.participantId,
      verificationRequired: true,
    });

    const code = await codeFromInbox(t, email);
    const verified = await post(t.app, '/api/verification/verify-email-code', {
      participantId: enrolled.participantId,
      email,
      studyCode: study.studyCode,
      verificationCode: code,
    });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({
      message: 'Email verification successful!',
      data: { verificationStatus: 'email_verified' },
      session: { participantId: enrolled.participantId, verified: true },
    });
    const sessionId = verified.json().session.sessionId as string;

    const resumed = await post(
      t.app,
      '/api/participants/enroll-direct',
      person(study.studyCode, email),
      { [SESSION]: sessionId },
    );
    expect(resumed.statusCode).toBe(200);
    const body = resumed.json();
    expect(body).toMatchObject({
      participantId: enrolled.participantId,
      verificationRequired: false,
      session: { sessionId, participantId: enrolled.participantId },
    });
    const authUrl = new URL(body.fitbitAuthUrl);
    expect(authUrl.searchParams.get('state')).toBeTruthy();
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
    // Enrolled with the session: the participant (names given, inviter kept), roster linked.
    const [row] = await participantRows(study.id);
    expect(row).toMatchObject({
      id: enrolled.participantId,
      email,
      firstName: 'Grace',
      lastName: 'Hopper',
      status: 'enrolled',
      invitedBy: owner.user.id,
      pendingParticipantId: pending.id,
    });
    expect((await rosterEntry())?.participantId).toBe(enrolled.participantId);
    expect(await participantRows(study.id)).toHaveLength(1);
  });

  it('tells an enrolled person who enrols again that they are enrolled, and changes nothing', async () => {
    const study = await createStudy(t.app, owner);
    const email = participantEmail('re-enrol');
    await addPending(t.app, study.id, { email, status: 'invited' });
    const first = await enrolDirectWithCode(t, person(study.studyCode, email));
    expect(first.response.json()).toMatchObject({ alreadyEnrolled: false });
    // Past the 30 s in which a new code is not sent.
    setClock(t.app, new Date(Date.now() + 60_000));
    try {
      t.sandbox?.clear();
      const again = await enrolDirectWithCode(
        t,
        person(study.studyCode, email, { firstName: 'Amazing', lastName: 'Grace' }),
      );
      expect(again.response.statusCode).toBe(200);
      expect(again.response.json()).toMatchObject({
        message: 'You are already enrolled in this study. Nothing was changed.',
        participantId: first.participantId,
        verificationRequired: false,
        alreadyEnrolled: true,
        wearableConnected: false,
        session: { sessionId: again.sessionId, verified: true },
      });
      const [row] = await participantRows(study.id);
      expect(row).toMatchObject({ firstName: 'Grace', lastName: 'Hopper' });
      // The roster flow's enrolment says the same.
      const rosterFlow = await post(
        t.app,
        '/api/participants/enroll',
        { participantId: first.participantId, studyCode: study.studyCode, email },
        { [SESSION]: again.sessionId },
      );
      expect(rosterFlow.json()).toMatchObject({
        message: 'You are already enrolled in this study. Nothing was changed.',
        alreadyEnrolled: true,
      });
    } finally {
      resetClock(t.app);
    }
  });

  it('lets anyone with the code enrol when the study allows self-enrolment without verification', async () => {
    const study = await createStudy(t.app, owner, {
      allowSelfEnrollment: true,
      requireVerification: false,
    });
    const email = participantEmail('walk-in');
    const res = await post(
      t.app,
      '/api/participants/enroll-direct',
      person(study.studyCode, email),
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      success: true,
      verificationRequired: false,
      session: { verified: true, studyCode: study.studyCode },
    });
    expect(body.fitbitAuthUrl).toMatch(/^http/);
    const [row] = await participantRows(study.id);
    expect(row).toMatchObject({
      id: body.participantId,
      invitedBy: null,
      pendingParticipantId: null,
    });
    // No code was needed, so none was sent.
    expect(t.sandbox?.messages({ to: email })).toHaveLength(0);
  });

  it('keeps one participant per study and address under parallel enrolments', async () => {
    const study = await createStudy(t.app, owner, {
      allowSelfEnrollment: true,
      requireVerification: false,
    });
    const email = participantEmail('twice');
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        post(t.app, '/api/participants/enroll-direct', person(study.studyCode, email)),
      ),
    );
    const ids = new Set(answers.map((a) => a.json().participantId));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(ids.size).toBe(1);
    expect(await participantRows(study.id)).toHaveLength(1);
  });

  it('enrols a deleted participant afresh with a new id (self-enrolment), never through the used roster entry', async () => {
    const open = await createStudy(t.app, owner, {
      allowSelfEnrollment: true,
      requireVerification: false,
    });
    const email = participantEmail('returning');
    const first = (
      await post(t.app, '/api/participants/enroll-direct', person(open.studyCode, email))
    ).json();
    await t.app.platform.db
      .update(participants)
      .set({ deletedAt: new Date() })
      .where(eq(participants.id, first.participantId));
    const again = await post(
      t.app,
      '/api/participants/enroll-direct',
      person(open.studyCode, email),
    );
    expect(again.statusCode).toBe(200);
    expect(again.json().participantId).not.toBe(first.participantId);

    const closed = await createStudy(t.app, owner, { requireVerification: false });
    const rostered = participantEmail('used-roster');
    await addPending(t.app, closed.id, { email: rostered });
    // A roster entry needs a code even when the study requires no verification.
    const enrolled = await enrolDirectWithCode(t, person(closed.studyCode, rostered));
    expect(enrolled.response.statusCode).toBe(200);
    await t.app.platform.db
      .update(participants)
      .set({ deletedAt: new Date() })
      .where(eq(participants.id, enrolled.participantId));
    const refused = await post(
      t.app,
      '/api/participants/enroll-direct',
      person(closed.studyCode, rostered),
    );
    expect(refused.statusCode).toBe(403);
  });

  it('answers an invited, an enrolled and a verified address alike before a code, and changes nothing', async () => {
    const study = await createStudy(t.app, owner, { requireVerification: false });
    const invited = participantEmail('same-invited');
    const enrolledEmail = participantEmail('same-enrolled');
    await addPending(t.app, study.id, { email: invited, status: 'invited' });
    await addPending(t.app, study.id, { email: enrolledEmail, status: 'invited' });
    const enrolled = await enrolDirectWithCode(t, person(study.studyCode, enrolledEmail));
    expect(enrolled.response.statusCode).toBe(200);
    const before = await participantRows(study.id);
    // Past the 30 s in which a new code is not sent (the enrolment above just sent one).
    setClock(t.app, new Date(Date.now() + 60_000));

    // Another person's names, with only the study code and the address.
    const shapes: unknown[] = [];
    for (const email of [invited, enrolledEmail]) {
      t.sandbox?.clear();
      const direct = await post(
        t.app,
        '/api/participants/enroll-direct',
        person(study.studyCode, email, { firstName: 'Mallory', lastName: 'Intruder' }),
      );
      const secure = await post(t.app, '/api/secure-auth/verify-participant', {
        studyCode: study.studyCode,
        personalInfo: { email },
      });
      const pending = await post(t.app, '/api/participants/check-pending', {
        studyCode: study.studyCode,
        email,
        phoneNumber: '(650) 555-0100',
      });
      expect([direct.statusCode, secure.statusCode, pending.statusCode]).toEqual([200, 200, 200]);
      const { participantId: _d, ...directBody } = direct.json();
      const { sessionId: _s, participantId: _p, expiresAt: _e, ...session } = secure.json().session;
      const { participantId: _q, email: _m, createdAt: _c, ...view } = pending.json().participant;
      shapes.push({ directBody, session, view, pending: pending.json().pending });
      // The code went to the address, and only there.
      await t.sandbox?.waitForMessage({ to: email, channel: 'email' }, 20_000);
      expect(t.sandbox?.messages({ to: email })).toHaveLength(1);
    }
    expect(shapes[0]).toEqual(shapes[1]);
    expect(shapes[0]).toMatchObject({
      directBody: { success: true, verificationRequired: true },
      session: { verified: false, verificationStatus: 'none' },
      view: { status: 'pending', phoneNumber: null },
      pending: true,
    });
    resetClock(t.app);
    // Nobody became a participant, and the enrolled one kept their names.
    expect(await participantRows(study.id)).toEqual(before);
    expect(before.map((p) => p.firstName)).toEqual(['Grace']);
  });

  it('never hands an existing participant a session without a code, even without verification', async () => {
    const study = await createStudy(t.app, owner, {
      allowSelfEnrollment: true,
      requireVerification: false,
    });
    const email = participantEmail('existing');
    const first = await post(
      t.app,
      '/api/participants/enroll-direct',
      person(study.studyCode, email),
    );
    expect(first.json()).toMatchObject({
      verificationRequired: false,
      session: { verified: true },
    });

    const again = await post(
      t.app,
      '/api/participants/enroll-direct',
      person(study.studyCode, email),
    );
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({
      message: 'Verification code sent to your email!',
      verificationRequired: true,
    });
    expect(again.json().session).toBeUndefined();
    expect(again.json().fitbitAuthUrl).toBeUndefined();
    // Nor through the pre-approved or the secure-auth path.
    const enrol = await post(t.app, '/api/participants/enroll', {
      participantId: first.json().participantId,
      studyCode: study.studyCode,
      email,
    });
    expect(enrol.statusCode).toBe(401);
    const secure = await post(t.app, '/api/secure-auth/verify-participant', {
      studyCode: study.studyCode,
      personalInfo: { email },
    });
    expect(secure.json().session).toMatchObject({ verified: false });
    const complete = await post(t.app, '/api/secure-auth/complete-enrollment', {
      sessionId: secure.json().session.sessionId,
    });
    expect(complete.statusCode).toBe(403);
  });

  it('answers the product’s texts for missing, malformed and unknown input', async () => {
    const study = await createStudy(t.app, owner, { allowSelfEnrollment: true });
    const message = async (body: Record<string, unknown>) =>
      (await post(t.app, '/api/participants/enroll-direct', body)).json().details?.fields?.[0]
        ?.message;

    expect(await message(person(study.studyCode, participantEmail(), { firstName: '' }))).toBe(
      ENROLMENT_MESSAGES.fillRequiredFields,
    );
    expect(await message({ studyCode: study.studyCode })).toBe(
      ENROLMENT_MESSAGES.fillRequiredFields,
    );
    expect(
      await message(person(study.studyCode, participantEmail(), { dateOfBirth: '2015-01-01' })),
    ).toBe('You must be at least 18 years old to participate');
    expect(
      await message(person(study.studyCode, participantEmail(), { firstName: 'x'.repeat(101) })),
    ).toBe(PARTICIPANT_LIST_MESSAGES.firstNameTooLong);
    expect(await message(person('AB-1', participantEmail()))).toBe(
      'Study code must be 6-8 characters (letters and numbers only)',
    );
    expect(await message(person('', participantEmail()))).toBe('Please enter a study code');

    const unknown = await post(
      t.app,
      '/api/participants/enroll-direct',
      person('ZZZZ99', participantEmail()),
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe(STUDY_CODE_MESSAGES.notFound);
  });

  it('does not reveal that an address is enrolled in another study', async () => {
    const open = await createStudy(t.app, owner, {
      allowSelfEnrollment: true,
      requireVerification: false,
    });
    const closed = await createStudy(t.app, owner);
    const email = participantEmail('elsewhere');
    await post(t.app, '/api/participants/enroll-direct', person(open.studyCode, email));

    const known = await post(
      t.app,
      '/api/participants/enroll-direct',
      person(closed.studyCode, email),
    );
    const stranger = await post(
      t.app,
      '/api/participants/enroll-direct',
      person(closed.studyCode, participantEmail('stranger')),
    );
    expect(known.statusCode).toBe(stranger.statusCode);
    expect(known.json()).toEqual(stranger.json());

    const pendingKnown = await post(t.app, '/api/participants/check-pending', {
      studyCode: closed.studyCode,
      email,
      phoneNumber: '6175550100',
    });
    expect(pendingKnown.json()).toEqual({
      success: true,
      pending: false,
      participant: null,
      message: ENROLMENT_MESSAGES.notApproved,
    });
  });

  it('limits enrolment attempts per study code and e-mail across client addresses', async () => {
    const study = await createStudy(t.app, owner);
    const email = participantEmail('hammer');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push(
        (await post(t.app, '/api/participants/enroll-direct', person(study.studyCode, email)))
          .statusCode,
      );
    }
    expect(statuses.slice(0, 10).every((s) => s === 403)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('records enrolment in the audit log without personal data', async () => {
    const study = await createStudy(t.app, owner, {
      allowSelfEnrollment: true,
      requireVerification: false,
    });
    const email = participantEmail('audited');
    const res = await post(
      t.app,
      '/api/participants/enroll-direct',
      person(study.studyCode, email),
    );
    const events = await t.app.platform.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, 'participant.enrolled'),
          eq(auditEvents.targetId, res.json().participantId),
        ),
      );
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events[0])).not.toContain(email);
  });

  it('looks the study up by its code for the study information step', async () => {
    const study = await createStudy(t.app, owner);
    const res = await post(t.app, '/api/auth/verify-study-code', {
      studyCode: study.studyCode.toLowerCase(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      study: {
        studyName: 'Sleep & Steps',
        studyDescription: 'Four weeks of sleep data',
        studyCode: study.studyCode,
        researcherName: 'Ada Lovelace',
      },
    });
    const unnamed = await approvedResearcher(t.app, '');
    const other = await createStudy(t.app, unnamed);
    const lookup = await post(t.app, '/api/auth/verify-study-code', { studyCode: other.studyCode });
    expect(lookup.json().study.researcherName).toBe('Research Team');
  });

  it('lets the owner (only) open the study to self-enrolment from the study settings', async () => {
    const study = await createStudy(t.app, owner);
    const colleague = await approvedResearcher(t.app);
    await t.app.platform.db
      .insert(studyMembers)
      .values({ studyId: study.id, userId: colleague.user.id, role: 'collab' });
    const email = participantEmail('walk-in');
    const before = await post(
      t.app,
      '/api/participants/enroll-direct',
      person(study.studyCode, email),
    );
    expect(before.statusCode).toBe(403);

    const put = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/studies/${study.id}`,
        headers,
        payload: { settings: { allowSelfEnrollment: true } },
      });
    const byColleague = await put(colleague.headers);
    expect(byColleague.statusCode).toBe(403);
    const byOwner = await put(owner.headers);
    expect(byOwner.statusCode).toBe(200);
    expect(byOwner.json().study.settings).toEqual({
      allowSelfEnrollment: true,
      requireVerification: true,
      dataRetentionDays: 365,
      removeDataDeletedAtSource: false,
      validDayMinHours: 10,
      riskNoSyncDays: 2,
      reminderNoSyncDays: null,
      consentRequired: false,
      withdrawalData: 'keep',
    });

    const after = await post(
      t.app,
      '/api/participants/enroll-direct',
      person(study.studyCode, email),
    );
    expect(after.statusCode).toBe(200);
    expect(after.json().verificationRequired).toBe(true);
  });

  it('leaves no half-enrolled rows when a step of the enrolment fails', async () => {
    const study = await createStudy(t.app, owner, { requireVerification: false });
    const email = participantEmail('atomic');
    await addPending(t.app, study.id, { email });
    const db = t.app.platform.db;
    // The last write of the enrolment (linking the roster entry) fails for this address.
    await db.execute(
      sql.raw(`create or replace function fail_enrolment_link() returns trigger language plpgsql as $$
        begin
          if new.email = '${email}' then raise exception 'link failed'; end if;
          return new;
        end $$`),
    );
    await db.execute(
      sql.raw(
        'create trigger fail_enrolment_link before update on pending_participants for each row execute function fail_enrolment_link()',
      ),
    );
    let sessionId = '';
    try {
      const failed = await enrolDirectWithCode(t, person(study.studyCode, email));
      sessionId = failed.sessionId;
      expect(failed.response.statusCode).toBe(500);
      expect(failed.response.body).not.toContain('link failed');
      expect(await participantRows(study.id)).toHaveLength(0);
      const [roster] = await db
        .select()
        .from(pendingParticipants)
        .where(eq(pendingParticipants.email, email));
      expect(roster?.participantId).toBeNull();
    } finally {
      await db.execute(sql.raw('drop trigger fail_enrolment_link on pending_participants'));
    }
    const retried = await post(
      t.app,
      '/api/participants/enroll-direct',
      person(study.studyCode, email),
      { [SESSION]: sessionId },
    );
    expect(retried.statusCode).toBe(200);
    expect(await participantRows(study.id)).toHaveLength(1);
  });
});

describe('OpenAPI', () => {
  it('documents every participant call and the session header', async () => {
    const t = await createTestApp();
    try {
      const res = await t.app.inject('/api/docs/json');
      expect(res.statusCode).toBe(200);
      const spec = res.json() as {
        paths: Record<
          string,
          Record<
            string,
            {
              parameters?: { name: string; in: string }[];
              security?: Record<string, string[]>[];
            }
          >
        >;
        components: { securitySchemes: Record<string, { in?: string; name?: string }> };
      };
      for (const [path, method] of [
        ['/api/participants/enroll-direct', 'post'],
        ['/api/participants/check-pending', 'post'],
        ['/api/participants/enroll', 'post'],
        ['/api/participants/update-info', 'post'],
        ['/api/verification/send-email-code', 'post'],
        ['/api/verification/verify-email-code', 'post'],
        ['/api/verification/send-phone-code', 'post'],
        ['/api/verification/verify-phone-code', 'post'],
        ['/api/verification/status/{participantId}', 'get'],
        ['/api/secure-auth/verify-participant', 'post'],
        ['/api/secure-auth/send-email-verification', 'post'],
        ['/api/secure-auth/validate-session', 'post'],
        ['/api/secure-auth/complete-enrollment', 'post'],
        ['/api/participants/verify-secure', 'post'],
      ] as const) {
        expect(spec.paths[path]?.[method], `${method} ${path}`).toBeDefined();
      }
      // The calls that require the session name it as their security scheme, the header.
      expect(spec.components.securitySchemes.participantSession).toMatchObject({
        in: 'header',
        name: 'x-participant-session',
      });
      for (const path of [
        '/api/participants/update-info',
        '/api/participants/verify-secure',
        '/api/participants/enroll',
      ]) {
        expect(spec.paths[path]?.post?.security, path).toContainEqual({ participantSession: [] });
      }
      // Where the session is optional, the header is a parameter.
      expect(spec.paths['/api/participants/enroll-direct']?.post?.parameters).toContainEqual(
        expect.objectContaining({ name: 'x-participant-session', in: 'header' }),
      );
    } finally {
      await t.close();
    }
  });
});

describe('request logs of the participant calls', () => {
  it('carry no e-mail addresses, names, codes or session tokens', async () => {
    const { lines, stream: logStream } = logCapture();
    const t = await createTestApp({ env: { LOG_LEVEL: 'debug' }, logStream });
    try {
      const owner = await approvedResearcher(t.app);
      const study = await createStudy(t.app, owner);
      const email = participantEmail('quiet');
      await addPending(t.app, study.id, { email });
      const enrolled = await post(t.app, '/api/participants/enroll-direct', {
        email,
        firstName: 'Quietly',
        lastName: 'Private',
        dateOfBirth: adult,
        studyCode: study.studyCode,
      });
      const participantId = enrolled.json().participantId as string;
      const code = await codeFromInbox(t, email);
      const verified = await post(t.app, '/api/verification/verify-email-code', {
        participantId,
        email,
        studyCode: study.studyCode,
        verificationCode: code,
      });
      const sessionId = verified.json().session.sessionId as string;
      await t.app.inject({
        url: `/api/verification/status/${participantId}?email=${encodeURIComponent(email)}&studyCode=${study.studyCode}`,
      });
      const log = lines.join('\n');
      expect(log).toContain('/api/participants/enroll-direct');
      for (const secret of [
        email,
        'Quietly',
        'Private',
        code,
        sessionId,
        encodeURIComponent(email),
      ])
        expect(log).not.toContain(secret);
    } finally {
      await t.close();
    }
  });
});
