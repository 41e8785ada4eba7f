import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { participants, wearableConnections } from '../../db/schema/index.js';
import {
  addPending,
  adult,
  approvedResearcher,
  createStudy,
  participantEmail,
  post,
  updateInfoWithDocument,
  verifyWithInboxCode,
} from '../../test/enrolment-fixtures.js';
import { useTestApp } from '../../test/test-app.js';
import { consentAt } from '../../test/wearables-kit.js';

const SESSION = 'x-participant-session';

/**
 * The direct flow from end to end on the real components: an invited address enrols, reads the
 * e-mail code in the sandbox inbox, connects a simulated Google account on the sandbox consent
 * page, and completes the profile with the session the callback hands back.
 */
describe('direct enrolment journey', () => {
  const t = useTestApp();

  it('goes from invitation to a completed profile with a connected wearable', async () => {
    const owner = await approvedResearcher(t.app);
    const study = await createStudy(t.app, owner);
    const email = participantEmail('journey');
    await addPending(t.app, study.id, {
      email,
      phoneNumber: '+16505550123',
      invitedBy: owner.user.id,
      status: 'invited',
    });
    const person = {
      email,
      firstName: 'Sam',
      lastName: 'Jones',
      dateOfBirth: adult,
      studyCode: study.studyCode,
    };

    const first = await post(t.app, '/api/participants/enroll-direct', person);
    const { participantId } = first.json();
    // Knowing an address is not enough to read the number on record.
    expect(first.json()).not.toHaveProperty('phoneNumber');
    const verified = await verifyWithInboxCode(t, {
      participantId,
      email,
      studyCode: study.studyCode,
    });
    const enrolled = await post(t.app, '/api/participants/enroll-direct', person, {
      [SESSION]: verified.json().session.sessionId,
    });
    const { fitbitAuthUrl } = enrolled.json();
    // With the verified session: the number the research team has, for the profile page.
    expect(enrolled.json().phoneNumber).toBe('+16505550123');

    const consent = await consentAt(fitbitAuthUrl, { account: 'sam.jones@gmail.test' });
    expect(consent.error).toBeNull();
    // A new browser tab comes back from Google: it holds no session yet, the callback gives one.
    const callback = await post(t.app, '/api/fitbit/callback', {
      code: consent.code,
      state: consent.state,
    });
    expect(callback.statusCode).toBe(200);
    expect(callback.json()).toMatchObject({
      participantId,
      studyCode: study.studyCode,
      session: { participantId, verified: true },
    });

    const profile = await updateInfoWithDocument(
      t.app,
      callback.json().session.sessionId,
      {
        participantId,
        studyCode: study.studyCode,
        firstName: 'Sam',
        lastName: 'Jones',
        additionalInfo: '',
      },
      'consent.pdf',
    );
    expect(profile.statusCode).toBe(200);
    expect(profile.json().documents).toHaveLength(1);

    const [row] = await t.app.platform.db
      .select()
      .from(participants)
      .where(eq(participants.id, participantId));
    expect(row?.informationCompletedAt).toBeInstanceOf(Date);
    const connections = await t.app.platform.db
      .select()
      .from(wearableConnections)
      .where(eq(wearableConnections.participantId, participantId));
    expect(connections).toHaveLength(1);
  });
});
