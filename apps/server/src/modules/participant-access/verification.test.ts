import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  outboundMessages,
  participantSessions,
  participants,
  pendingParticipants,
  verificationCodes,
} from '../../db/schema/index.js';
import {
  addPending,
  approvedResearcher,
  codeFromInbox,
  createStudy,
  participantEmail,
  post,
  resetClock,
  setClock,
} from '../../test/enrolment-fixtures.js';
import { useTestApp } from '../../test/test-app.js';
import { addParticipant } from './add-participant.js';

const SESSION = 'x-participant-session';
const PHONE = '(617) - 555 - 0142';
const PHONE_E164 = '+16175550142';

describe('pre-approved flow and verification codes', () => {
  const t = useTestApp();
  let owner: Awaited<ReturnType<typeof approvedResearcher>>;
  let study: Awaited<ReturnType<typeof createStudy>>;

  beforeAll(async () => {
    owner = await approvedResearcher(t.app);
    study = await createStudy(t.app, owner);
  });
  beforeEach(() => t.sandbox?.clear());
  afterEach(() => resetClock(t.app));

  /** A rostered person who passed the pending check: their participantId. */
  async function rostered(phoneNumber: string | null = PHONE) {
    const email = participantEmail('rostered');
    await addPending(t.app, study.id, {
      email,
      ...(phoneNumber ? { phoneNumber } : {}),
      invitedBy: owner.user.id,
    });
    const res = await post(t.app, '/api/participants/check-pending', {
      studyCode: study.studyCode.toLowerCase(),
      email,
      phoneNumber: '617-555-0142',
    });
    expect(res.statusCode).toBe(200);
    return { email, participantId: res.json().participant.participantId as string, res };
  }

  const sendEmail = (participantId: string, email: string) =>
    post(t.app, '/api/verification/send-email-code', {
      participantId,
      email,
      studyCode: study.studyCode,
    });
  const verifyEmail = (
    participantId: string,
    email: string,
    verificationCode: string,
    extra = {},
  ) =>
    post(t.app, '/api/verification/verify-email-code', {
      participantId,
      email,
      studyCode: study.studyCode,
      verificationCode,
      ...extra,
    });
  /** A rostered person who verified the e-mail code and enrolled: id, e-mail and session. */
  async function enrolledRostered() {
    const { email, participantId } = await rostered();
    await sendEmail(participantId, email);
    const verified = await verifyEmail(participantId, email, await codeFromInbox(t, email));
    const sessionId = verified.json().session.sessionId as string;
    const enrolled = await post(
      t.app,
      '/api/participants/enroll',
      { participantId, studyCode: study.studyCode, email },
      { [SESSION]: sessionId },
    );
    expect(enrolled.statusCode).toBe(200);
    return { email, participantId, sessionId };
  }
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  it('approves a rostered address and offers the phone on record', async () => {
    const { email, participantId, res } = await rostered();
    expect(res.json()).toEqual({
      success: true,
      pending: true,
      message: 'You are approved for this study! Please choose your verification method.',
      participant: {
        participantId,
        email,
        phoneNumber: PHONE,
        studyCode: study.studyCode,
        studyName: study.name,
        status: 'pending',
        createdAt: expect.any(String),
      },
    });
    expect(participantId).toMatch(/^P[0-9a-f]{16}$/);
  });

  it('answers an enrolled address as an invited one, the phone on record only to who typed it', async () => {
    const { email, participantId } = await enrolledRostered();
    const invited = await rostered();
    const check = (address: string, phoneNumber: string) =>
      post(t.app, '/api/participants/check-pending', {
        studyCode: study.studyCode,
        email: address,
        phoneNumber,
      });
    const shape = (body: { participant: Record<string, unknown> }) => {
      const { participantId: _id, email: _email, createdAt: _at, ...rest } = body.participant;
      return { ...body, participant: rest };
    };
    const enrolledWrongPhone = await check(email, '2125550100');
    const invitedWrongPhone = await check(invited.email, '2125550100');
    expect(enrolledWrongPhone.statusCode).toBe(200);
    expect(shape(enrolledWrongPhone.json())).toEqual(shape(invitedWrongPhone.json()));
    expect(enrolledWrongPhone.json()).toMatchObject({
      pending: true,
      participant: { participantId, phoneNumber: null, status: 'pending' },
    });

    // The number on record, written any way, goes back to whoever typed it.
    const rightPhone = await check(email, '617.555.0142');
    expect(rightPhone.json()).toMatchObject({
      pending: true,
      participant: { participantId, phoneNumber: PHONE, status: 'pending' },
    });
    // The id opens nothing by itself: the wearable and status calls want the session.
    const revoke = await post(t.app, '/api/fitbit/revoke-access', {
      participantId,
      studyCode: study.studyCode,
      email,
    });
    expect(revoke.statusCode).toBe(401);
  });

  it('asks for both contact fields and refuses unknown addresses', async () => {
    const missing = await post(t.app, '/api/participants/check-pending', {
      studyCode: study.studyCode,
      email: participantEmail(),
      phoneNumber: '',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details.fields[0].message).toBe(
      'Please enter both email and phone number',
    );
    const unknown = await post(t.app, '/api/participants/check-pending', {
      studyCode: study.studyCode,
      email: participantEmail('unknown'),
      phoneNumber: '6175550100',
    });
    expect(unknown.json()).toMatchObject({
      pending: false,
      message: 'You are not approved for this study. Please contact the researcher.',
    });
  });

  it('sends the SMS code, ends it after 3 wrong attempts, resends after 30 s, then enrols with the session', async () => {
    const { email, participantId } = await rostered();
    const start = new Date();
    setClock(t.app, start);
    const send = () =>
      post(t.app, '/api/verification/send-phone-code', {
        participantId,
        phoneNumber: PHONE,
        studyCode: study.studyCode,
      });
    const verify = (verificationCode: string) =>
      post(t.app, '/api/verification/verify-phone-code', {
        participantId,
        phoneNumber: PHONE,
        studyCode: study.studyCode,
        verificationCode,
      });

    const sent = await send();
    expect(sent.statusCode).toBe(200);
    expect(sent.json().message).toBe('Verification code sent to your phone!');
    const code = await codeFromInbox(t, PHONE_E164, 'sms');

    const first = await verify(wrong(code));
    expect(first.statusCode).toBe(400);
    expect(first.json()).toMatchObject({
      error: 'Invalid verification code',
      details: { attemptsUsed: 1, maxAttempts: 3 },
    });
    expect((await verify(wrong(code))).json().details.attemptsUsed).toBe(2);
    const third = await verify(wrong(code));
    expect(third.json()).toMatchObject({
      error: 'Too many failed attempts. Please request a new code.',
      details: { attemptsUsed: 3 },
    });
    // The right code no longer works: a new one is needed.
    expect((await verify(code)).json().error).toBe(
      'Too many failed attempts. Please request a new code.',
    );

    const tooSoon = await send();
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json().code).toBe('RESEND_TOO_SOON');
    // The wait is in the envelope's details, as the API reference says.
    expect(tooSoon.json().details.retryAfterSeconds).toBeGreaterThan(0);

    setClock(t.app, new Date(start.getTime() + 31_000));
    t.sandbox?.clear();
    expect((await send()).statusCode).toBe(200);
    const second = await codeFromInbox(t, PHONE_E164, 'sms');
    const ok = await verify(second);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      message: 'Phone verification successful!',
      data: { participantId, email, verificationStatus: 'phone_verified' },
    });
    const sessionId = ok.json().session.sessionId as string;

    // Enrolment needs the session: the id and e-mail alone are not enough.
    const body = { participantId, studyCode: study.studyCode, email };
    const withoutSession = await post(t.app, '/api/participants/enroll', body);
    expect(withoutSession.statusCode).toBe(401);
    const enrolled = await post(t.app, '/api/participants/enroll', body, { [SESSION]: sessionId });
    expect(enrolled.statusCode).toBe(200);
    expect(enrolled.json()).toMatchObject({ participantId, session: { sessionId } });
    expect(enrolled.json().fitbitAuthUrl).toMatch(/^http/);

    // The popup's authorization step takes the same session (and only this participant's).
    const authUrl = (session: string) =>
      t.app.inject({
        url: `/api/fitbit/auth-url?participantId=${participantId}&studyCode=${study.studyCode}&mode=popup`,
        headers: { [SESSION]: session },
        remoteAddress: '198.51.100.9',
      });
    const popup = await authUrl(sessionId);
    expect(popup.statusCode).toBe(200);
    expect(new URL(popup.json().authUrl).searchParams.get('state')).toBeTruthy();
    const stranger = await post(t.app, '/api/secure-auth/verify-participant', {
      studyCode: study.studyCode,
      personalInfo: { email: (await rostered(null)).email },
    });
    expect((await authUrl(stranger.json().session.sessionId)).statusCode).toBe(403);

    const [row] = await t.app.platform.db
      .select()
      .from(participants)
      .where(eq(participants.id, participantId));
    expect(row).toMatchObject({
      email,
      status: 'enrolled',
      invitedBy: owner.user.id,
      phoneNumber: PHONE,
    });
    const [pending] = await t.app.platform.db
      .select()
      .from(pendingParticipants)
      .where(eq(pendingParticipants.email, email));
    expect(pending?.participantId).toBe(participantId);

    // Stored: only a keyed hash of the code, never the code itself.
    const codes = await t.app.platform.db
      .select()
      .from(verificationCodes)
      .where(eq(verificationCodes.participantId, participantId));
    expect(codes.map((c) => c.codeHash)).not.toContain(second);
    expect(codes.every((c) => c.codeHash.length === 64)).toBe(true);
  });

  it('lets a code expire after 10 minutes', async () => {
    const { email, participantId } = await rostered();
    const start = new Date();
    setClock(t.app, start);
    await sendEmail(participantId, email);
    const code = await codeFromInbox(t, email);
    setClock(t.app, new Date(start.getTime() + 10 * 60_000 + 1_000));
    const late = await verifyEmail(participantId, email, code);
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({
      code: 'CODE_EXPIRED',
      error: 'This verification code has expired. Please request a new code.',
    });
  });

  it('moves the verification status from none through email_verified to fully_verified, told only to the session', async () => {
    const { email, participantId } = await rostered();
    let session: string | undefined;
    const status = async (
      headers: Record<string, string> = session ? { [SESSION]: session } : {},
    ) =>
      (
        await t.app.inject({
          url: `/api/verification/status/${participantId}?email=${encodeURIComponent(email)}&studyCode=${study.studyCode}`,
          remoteAddress: '198.51.100.7',
          headers,
        })
      ).json().data;
    expect(await status()).toMatchObject({ verificationStatus: 'none', phoneVerifiedAt: null });

    await sendEmail(participantId, email);
    const ok = await verifyEmail(participantId, email, await codeFromInbox(t, email));
    expect(ok.json().message).toBe('Email verification successful!');
    session = ok.json().session.sessionId as string;
    expect(await status()).toMatchObject({
      participantId,
      email,
      studyCode: study.studyCode,
      verificationStatus: 'email_verified',
      emailVerifiedAt: expect.any(String),
    });
    // Without the session, the same record as for anyone not yet verified.
    expect(await status({})).toMatchObject({
      verificationStatus: 'none',
      emailVerifiedAt: null,
      phoneVerifiedAt: null,
    });

    await post(t.app, '/api/verification/send-phone-code', {
      participantId,
      phoneNumber: PHONE,
      studyCode: study.studyCode,
    });
    await post(t.app, '/api/verification/verify-phone-code', {
      participantId,
      phoneNumber: PHONE,
      studyCode: study.studyCode,
      verificationCode: await codeFromInbox(t, PHONE_E164, 'sms'),
    });
    expect(await status()).toMatchObject({
      verificationStatus: 'fully_verified',
      phoneVerifiedAt: expect.any(String),
    });
  });

  it.each([
    // The README's add-participant example, then numbers abroad typed with their country code.
    ['+15551234567', '(555) 123-4567', '+15551234567'],
    ['+44 7700 900123', '+447700900123', '+447700900123'],
    ['+49 1512 3456789', '+49 151 23456789', '+4915123456789'],
  ])(
    'stores %j from add-participant in E.164 and texts the code there',
    async (given, typed, e164) => {
      const email = participantEmail(`abroad-${e164.slice(1)}`);
      const added = await addParticipant(t.app.platform.db, {
        studyCode: study.studyCode,
        email,
        phoneNumber: given,
      });
      const [row] = await t.app.platform.db
        .select({ phoneNumber: participants.phoneNumber })
        .from(participants)
        .where(eq(participants.id, added.participantId));
      expect(row?.phoneNumber).toBe(e164);
      const pending = await post(t.app, '/api/participants/check-pending', {
        studyCode: study.studyCode,
        email,
        phoneNumber: typed,
      });
      expect(pending.json().participant.phoneNumber).toBe(e164);
      const sent = await post(t.app, '/api/verification/send-phone-code', {
        participantId: added.participantId,
        phoneNumber: typed,
        studyCode: study.studyCode,
      });
      expect(sent.statusCode, sent.body).toBe(200);
      expect(await codeFromInbox(t, e164, 'sms')).toMatch(/^\d{6}$/);
    },
  );

  it('refuses a phone that is not a possible number with the format message', async () => {
    const { participantId } = await rostered();
    const res = await post(t.app, '/api/verification/send-phone-code', {
      participantId,
      phoneNumber: '+44 12',
      studyCode: study.studyCode,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields[0]).toEqual({
      field: 'phoneNumber',
      message: 'Invalid phone number format',
    });
  });

  it('sends codes only to the number on record and answers one text for any mismatch', async () => {
    const { email, participantId } = await rostered();
    const otherNumber = await post(t.app, '/api/verification/send-phone-code', {
      participantId,
      phoneNumber: '(212) - 555 - 0100',
      studyCode: study.studyCode,
    });
    expect(otherNumber.statusCode).toBe(400);
    expect(otherNumber.json().error).toBe(
      'Verification failed. Please check your information and try again.',
    );
    const otherEmail = await sendEmail(participantId, participantEmail('someone-else'));
    const unknownId = await sendEmail('P0123456789abcdef', email);
    expect(otherEmail.json()).toEqual(unknownId.json());
    expect(t.sandbox?.messages()).toHaveLength(0);
  });

  it('checks the code format with the product’s texts', async () => {
    const { email, participantId } = await rostered();
    const short = await verifyEmail(participantId, email, '12a45');
    expect(short.json().details.fields[0]).toEqual({
      field: 'verificationCode',
      message: 'Please enter a valid 6-digit code',
    });
    const empty = await verifyEmail(participantId, email, '');
    expect(empty.json().details.fields[0].message).toBe('Please enter the verification code');
  });

  it('opens a secure-auth session, verifies it by the e-mail code and completes the enrolment', async () => {
    const { email, participantId } = await rostered(null);
    const opened = await post(t.app, '/api/secure-auth/verify-participant', {
      studyCode: study.studyCode,
      personalInfo: { email },
    });
    expect(opened.statusCode).toBe(200);
    const session = opened.json().session;
    expect(session).toMatchObject({ participantId, verified: false, verificationStatus: 'none' });

    const early = await post(t.app, '/api/secure-auth/complete-enrollment', {
      sessionId: session.sessionId,
    });
    expect(early.statusCode).toBe(403);

    const sent = await post(t.app, '/api/secure-auth/send-email-verification', {
      sessionId: session.sessionId,
      email,
    });
    expect(sent.json().message).toBe('Verification code sent to your email!');
    const verified = await verifyEmail(participantId, email, await codeFromInbox(t, email), {
      sessionId: session.sessionId,
    });
    expect(verified.json().session).toMatchObject({ sessionId: session.sessionId, verified: true });

    const valid = await post(t.app, '/api/secure-auth/validate-session', {
      sessionId: session.sessionId,
    });
    expect(valid.json().session).toMatchObject({
      verified: true,
      verificationStatus: 'email_verified',
    });

    const done = await post(t.app, '/api/secure-auth/complete-enrollment', {
      sessionId: session.sessionId,
      fitbitData: {},
    });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ participantId, message: 'Enrollment complete.' });

    const unknown = await post(t.app, '/api/secure-auth/validate-session', { sessionId: 'nope' });
    expect(unknown.statusCode).toBe(401);
  });

  it('ends sessions after 60 minutes', async () => {
    const { email } = await rostered(null);
    const start = new Date();
    setClock(t.app, start);
    const opened = await post(t.app, '/api/secure-auth/verify-participant', {
      studyCode: study.studyCode,
      personalInfo: { email },
    });
    const sessionId = opened.json().session.sessionId as string;
    setClock(t.app, new Date(start.getTime() + 61 * 60_000));
    const res = await post(t.app, '/api/secure-auth/validate-session', { sessionId });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe(
      'Your session has expired. Please verify your email address again.',
    );
    // Only the token's hash is stored.
    const rows = await t.app.platform.db.select().from(participantSessions);
    expect(rows.map((r) => r.tokenHash)).not.toContain(sessionId);
  });

  it('sends one code when parallel requests ask within the 30 seconds', async () => {
    const { email, participantId } = await rostered();
    const queuedCodes = async () =>
      (
        await t.app.platform.db
          .select()
          .from(outboundMessages)
          .where(eq(outboundMessages.purpose, 'verification_code'))
      ).length;
    const queuedBefore = await queuedCodes();
    const statuses = (
      await Promise.all(Array.from({ length: 4 }, () => sendEmail(participantId, email)))
    ).map((res) => res.statusCode);
    expect(statuses.sort()).toEqual([200, 429, 429, 429]);
    const codes = await t.app.platform.db
      .select()
      .from(verificationCodes)
      .where(eq(verificationCodes.participantId, participantId));
    expect(codes).toHaveLength(1);
    expect(await queuedCodes()).toBe(queuedBefore + 1);
    await codeFromInbox(t, email);
  });

  it('sends a new code at once after the last one was accepted, not after a wrong one', async () => {
    const { email, participantId } = await rostered();
    expect((await sendEmail(participantId, email)).statusCode).toBe(200);
    const first = await codeFromInbox(t, email);
    // A wrong guess leaves the code open: the 30 s still hold.
    expect((await verifyEmail(participantId, email, wrong(first))).statusCode).toBe(400);
    const held = await sendEmail(participantId, email);
    expect(held.statusCode).toBe(429);
    expect(held.json().code).toBe('RESEND_TOO_SOON');
    expect((await verifyEmail(participantId, email, first)).statusCode).toBe(200);
    // Verified, then back within the 30 s (another device, a new consent version): a new code.
    t.sandbox?.clear();
    expect((await sendEmail(participantId, email)).statusCode).toBe(200);
    const second = await codeFromInbox(t, email);
    expect((await verifyEmail(participantId, email, second)).statusCode).toBe(200);
  });

  it("answers the secure participant verify only to that participant's verified session", async () => {
    const { email, participantId, sessionId } = await enrolledRostered();
    const verifySecure = (body: object, session?: string) =>
      post(t.app, '/api/participants/verify-secure', body, session ? { [SESSION]: session } : {});

    const anonymous = await verifySecure({ participantId, email });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('PARTICIPANT_SESSION_REQUIRED');
    expect(anonymous.body).not.toContain(study.studyCode);

    // Another participant's verified session, and this participant's unverified one.
    const other = await enrolledRostered();
    const foreign = await verifySecure({ participantId, email }, other.sessionId);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().code).toBe('PARTICIPANT_SESSION_MISMATCH');
    const unverified = await post(t.app, '/api/secure-auth/verify-participant', {
      studyCode: study.studyCode,
      personalInfo: { email },
    });
    const early = await verifySecure(
      { participantId, email },
      unverified.json().session.sessionId as string,
    );
    expect(early.statusCode).toBe(403);
    expect(early.json().code).toBe('VERIFICATION_REQUIRED');

    const wrongEmail = await verifySecure(
      { participantId, email: participantEmail('someone-else') },
      sessionId,
    );
    expect(wrongEmail.statusCode).toBe(404);
    expect(wrongEmail.json().error).toBe(
      'Participant verification failed. Please check your information.',
    );

    const ok = await verifySecure({ participantId, email: ` ${email.toUpperCase()} ` }, sessionId);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({
      success: true,
      data: {
        participantId,
        participantEmail: email,
        studyCode: study.studyCode,
        status: 'enrolled',
        createdAt: expect.any(String),
        fitbitTokens: { accessToken: false },
      },
    });

    // Limited per study and e-mail (the session's), whichever address the calls come from.
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await verifySecure({ participantId, email }, sessionId)).statusCode);
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(9);
  });

  it('sends at most 6 codes an hour to one address', async () => {
    const { email, participantId } = await rostered();
    const start = new Date();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      setClock(t.app, new Date(start.getTime() + i * 31_000));
      statuses.push((await sendEmail(participantId, email)).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
    setClock(t.app, new Date(start.getTime() + 7 * 31_000));
    const res = await sendEmail(participantId, email);
    expect(res.json()).toMatchObject({
      code: 'TOO_MANY_CODES',
      error: 'Too many codes were sent to this address. Please try again in an hour.',
    });
  });
});
