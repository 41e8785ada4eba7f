import { invitationEmail, VERIFICATION_CODE_TEXTS } from '@research/contracts';
import { describe, expect, it } from 'vitest';
import { adult, approvedResearcher, createStudy, post } from '../../test/enrolment-fixtures.js';
import { eventually, useTestApp } from '../../test/test-app.js';

const BATCH = 300;

describe('mail a person is waiting for, while a large mailing goes out', () => {
  const t = useTestApp();

  it('delivers an invitee’s verification code ahead of the rest of a large invitation batch, and the whole batch after it', async () => {
    const owner = await approvedResearcher(t.app);
    const study = await createStudy(t.app, owner);
    const invitees = Array.from({ length: BATCH }, (_, i) => `invitee${i + 1}@example.org`);
    const invitation = invitationEmail({
      studyName: study.name,
      description: 'Four weeks of sleep data',
      studyCode: study.studyCode,
      baseUrl: t.config.publicUrl,
    });
    const invited = await post(
      t.app,
      '/api/email/invitations',
      {
        studyCode: study.studyCode,
        studyName: study.name,
        participants: invitees.map((email) => ({ email })),
        emailSubject: invitation.subject,
        emailBody: invitation.body,
      },
      owner.headers,
    );
    expect(invited.statusCode).toBe(200);
    const emailId = invited.json().emailId as string;

    // One of them enrols straight away, and is sent a code to type in.
    const enrolling = invitees[BATCH / 2] as string;
    const enrol = await post(t.app, '/api/participants/enroll-direct', {
      email: enrolling,
      firstName: 'Grace',
      lastName: 'Hopper',
      dateOfBirth: adult,
      studyCode: study.studyCode,
    });
    expect(enrol.json()).toMatchObject({ verificationRequired: true });

    // Every invitation still arrives, and the history counts each one as sent.
    await eventually(async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/email/history/${study.id}/${emailId}`,
        headers: owner.headers,
      });
      return res.json().email?.deliveryStatus?.sent === BATCH;
    }, 120_000);
    const inbox = t.sandbox?.messages({ channel: 'email' }) ?? [];
    expect(inbox.filter((m) => m.subject === invitation.subject)).toHaveLength(BATCH);
    // The inbox lists the newest first: the invitations above the code arrived after it.
    const codeSubject = VERIFICATION_CODE_TEXTS.emailSubject(study.name);
    const codeAt = inbox.findIndex((m) => m.to === enrolling && m.subject === codeSubject);
    expect(codeAt).toBeGreaterThan(BATCH / 2);
  }, 180_000);
});
