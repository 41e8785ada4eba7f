import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { participantVerifications } from '../../db/schema/index.js';
import {
  adult,
  approvedResearcher,
  codeFromInbox,
  createStudy,
  enrolDirectWithCode,
  participantEmail,
  post,
} from '../../test/enrolment-fixtures.js';
import { useTestApp } from '../../test/test-app.js';

const SESSION = 'x-participant-session';
const person = (studyCode: string, email: string) => ({
  email,
  firstName: 'Sam',
  lastName: 'Jones',
  dateOfBirth: adult,
  studyCode,
});

/**
 * A researcher corrects a participant's e-mail address (a typo, a new mailbox). From then on the
 * new address is the participant's and the old one proves nothing: whoever reads the old mailbox
 * cannot verify as the participant, keep a session, or use a code sent there before.
 */
describe("a participant's address changed by the research team", () => {
  const t = useTestApp();

  it('moves who the participant is to the new address; the old one loses every way in', async () => {
    const owner = await approvedResearcher(t.app);
    const study = await createStudy(t.app, owner, { allowSelfEnrollment: true });
    const oldEmail = participantEmail('typo');
    const newEmail = participantEmail('fixed');
    const enrolled = await enrolDirectWithCode(t, person(study.studyCode, oldEmail));
    expect(enrolled.response.statusCode).toBe(200);
    const { participantId, sessionId } = enrolled;

    // A code sent to the old address and not yet used.
    t.sandbox?.clear();
    const sent = await post(t.app, '/api/verification/send-email-code', {
      participantId,
      email: oldEmail,
      studyCode: study.studyCode,
    });
    expect(sent.statusCode).toBe(200);
    const oldCode = await codeFromInbox(t, oldEmail);

    const changed = await t.app.inject({
      method: 'PUT',
      url: `/api/participants/${participantId}`,
      headers: owner.headers,
      payload: { firstName: 'Sam', lastName: 'Jones', participantEmail: newEmail },
    });
    expect(changed.statusCode).toBe(200);
    const [subject] = await t.app.platform.db
      .select()
      .from(participantVerifications)
      .where(eq(participantVerifications.participantId, participantId));
    expect(subject).toMatchObject({ email: newEmail, emailVerifiedAt: null });

    // The session opened with the old address has ended.
    const secure = await post(
      t.app,
      '/api/participants/verify-secure',
      { participantId, email: newEmail },
      { [SESSION]: sessionId },
    );
    expect(secure.statusCode).toBe(401);
    expect(secure.json().code).toBe('PARTICIPANT_SESSION_REQUIRED');

    // The code sent to the old address counts for nothing, with either address.
    for (const email of [oldEmail, newEmail]) {
      const reused = await post(t.app, '/api/verification/verify-email-code', {
        participantId,
        email,
        studyCode: study.studyCode,
        verificationCode: oldCode,
      });
      expect(reused.statusCode).toBe(400);
      expect(reused.json()).not.toHaveProperty('session');
    }

    // The old address, in a study open to anyone, enrols as a new person: never as this one.
    const stranger = await post(
      t.app,
      '/api/participants/enroll-direct',
      person(study.studyCode, oldEmail),
    );
    expect(stranger.statusCode).toBe(200);
    expect(stranger.json().participantId).not.toBe(participantId);

    // The new address is the participant: a code mailed there verifies them, as themselves.
    t.sandbox?.clear();
    const back = await enrolDirectWithCode(t, person(study.studyCode, newEmail));
    expect(back.response.statusCode).toBe(200);
    expect(back.participantId).toBe(participantId);
    expect(back.response.json()).toMatchObject({ participantId });
  });
});
