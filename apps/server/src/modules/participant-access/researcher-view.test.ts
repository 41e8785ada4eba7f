import { describe, expect, it } from 'vitest';
import {
  approvedResearcher,
  createStudy,
  participantEmail,
  post,
  updateInfoWithDocument,
  verifyWithInboxCode,
} from '../../test/enrolment-fixtures.js';
import { SAMPLE_FILES } from '../../test/multipart.js';
import { useTestApp } from '../../test/test-app.js';

/** What the researcher sees on the study screen once a rostered person enrols. */
describe('researcher view of an enrolment', () => {
  const t = useTestApp();

  it('moves the person from Pending Participants to Participants and shows their profile and documents', async () => {
    const owner = await approvedResearcher(t.app);
    const study = await createStudy(t.app, owner);
    const email = participantEmail('roster');
    const added = await t.app.inject({
      method: 'POST',
      url: `/api/studies/${study.id}/pending-participants`,
      headers: owner.headers,
      payload: { participants: [{ email, phoneNumber: '(617) - 5550 - 142' }] },
    });
    expect(added.statusCode).toBe(201);

    const lists = async () => ({
      participants: (
        await t.app.inject({ url: `/api/studies/${study.id}/participants`, headers: owner.headers })
      ).json(),
      pending: (
        await t.app.inject({
          url: `/api/studies/${study.id}/pending-participants`,
          headers: owner.headers,
        })
      ).json(),
    });
    const before = await lists();
    expect(before.participants.totalCount).toBe(0);
    expect(before.pending.pendingParticipants.map((p: { email: string }) => p.email)).toEqual([
      email,
    ]);

    const checked = await post(t.app, '/api/participants/check-pending', {
      studyCode: study.studyCode,
      email,
      phoneNumber: '6175550142',
    });
    const { participantId } = checked.json().participant;
    await post(t.app, '/api/verification/send-email-code', {
      participantId,
      email,
      studyCode: study.studyCode,
    });
    const verified = await verifyWithInboxCode(t, {
      participantId,
      email,
      studyCode: study.studyCode,
    });
    const enrolled = await post(
      t.app,
      '/api/participants/enroll',
      { participantId, studyCode: study.studyCode, email },
      { 'x-participant-session': verified.json().session.sessionId },
    );
    expect(enrolled.statusCode).toBe(200);

    const after = await lists();
    expect(after.pending.totalCount).toBe(0);
    expect(after.participants.participants).toEqual([
      expect.objectContaining({
        participantId,
        participantEmail: email,
        status: 'enrolled',
        authorizationStatus: false,
      }),
    ]);

    // The profile the participant completes shows in Participant Details, documents downloadable.
    const profile = await updateInfoWithDocument(
      t.app,
      verified.json().session.sessionId,
      {
        participantId,
        studyCode: study.studyCode,
        firstName: 'Rosa',
        lastName: 'Parks',
        additionalInfo: 'Night shifts on weekends.',
      },
      'consent form.pdf',
    );
    expect(profile.statusCode).toBe(200);
    const info = await t.app.inject({
      url: `/api/participants/${participantId}/info`,
      headers: owner.headers,
    });
    expect(info.statusCode).toBe(200);
    const details = info.json().participant;
    expect(details).toMatchObject({
      firstName: 'Rosa',
      lastName: 'Parks',
      email,
      status: 'enrolled',
      additionalInfo: 'Night shifts on weekends.',
      informationCompleted: true,
      documents: [
        expect.objectContaining({
          name: 'consent form.pdf',
          type: 'application/pdf',
          size: SAMPLE_FILES.pdf.length,
        }),
      ],
    });
    const download = await t.app.inject({
      url: `/api/participants/${participantId}/documents/${details.documents[0].id}`,
      headers: owner.headers,
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(SAMPLE_FILES.pdf)).toBe(true);
  });
});
