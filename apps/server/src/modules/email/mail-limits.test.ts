import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { outboundMessages } from '../../db/schema/index.js';
import {
  bearer,
  createMaster,
  researcherWithApplication,
  someAddress,
} from '../../test/auth-helpers.js';
import { eventually, useTestApp } from '../../test/test-app.js';

type Researcher = Awaited<ReturnType<typeof researcherWithApplication>>;

/** Limits on mail that callers can make the platform send: what reaches the inbox, not only the status. */
describe('mail limits', () => {
  const t = useTestApp();
  let master: { token: string };
  let owner: Researcher;
  let colleague: Researcher;

  beforeAll(async () => {
    master = await createMaster(t.app);
    owner = await researcherWithApplication(t.app, 'approved', master);
    colleague = await researcherWithApplication(t.app, 'approved', master);
  });
  beforeEach(() => t.sandbox?.clear());

  const post = (url: string, payload: Record<string, unknown>, token?: string) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: token ? bearer(token) : {},
      payload,
      remoteAddress: someAddress(),
    });

  async function newStudy(name: string) {
    const res = await post(
      '/api/auth/create-study',
      { name, description: 'About sleep', password: 'study-pass' },
      owner.token,
    );
    return res.json().study as { id: string; studyCode: string; name: string };
  }

  /** Every queued mail has reached the relay (so the inbox shows all there will be). */
  const queueDrained = () =>
    eventually(async () => {
      const queued = await t.app.platform.db
        .select({ id: outboundMessages.id })
        .from(outboundMessages)
        .where(eq(outboundMessages.status, 'queued'));
      return queued.length === 0;
    }, 30_000);

  const mailTo = (to: string) => t.sandbox?.messages({ to, channel: 'email' }) ?? [];

  describe('notify-researcher', () => {
    it('120 messages from 120 addresses and senders mail the owner 10 times; the rest get 429 and nothing', async () => {
      const study = await newStudy('Noisy Study');
      const answers = [];
      for (let i = 0; i < 120; i++)
        answers.push(
          await post('/api/auth/notify-researcher', {
            studyCode: study.studyCode,
            participantEmail: `sender${i}@example.org`,
            message: `Message number ${i}`,
          }),
        );
      const ok = answers.filter((a) => a.statusCode === 200);
      expect(ok).toHaveLength(10);
      expect(ok[0]?.json().message).toBe('Your message was sent to the research team.');
      const refused = answers.filter((a) => a.statusCode === 429);
      expect(refused).toHaveLength(110);
      for (const answer of refused)
        expect(answer.json()).toMatchObject({
          success: false,
          code: 'TOO_MANY_MESSAGES',
          message:
            'The research team of this study has received many messages in the last hour. Please try again later.',
        });
      await queueDrained();
      const mails = mailTo(owner.email).filter((m) => m.subject?.includes('Noisy Study'));
      expect(mails).toHaveLength(10);
      // The ten let through are the first ten.
      expect(mails.map((m) => m.text.match(/Message number (\d+)/)?.[1]).sort()).toEqual(
        ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'].sort(),
      );
    }, 120_000);

    it('one sender gets 3 messages an hour to a study; another sender still gets through', async () => {
      const study = await newStudy('Chatty Sender');
      const send = (participantEmail: string) =>
        post('/api/auth/notify-researcher', {
          studyCode: study.studyCode,
          participantEmail,
          message: 'Hello again',
        });
      for (let i = 0; i < 3; i++) expect((await send('Pat@Example.org')).statusCode).toBe(200);
      const fourth = await send('pat@example.org');
      expect(fourth.statusCode).toBe(429);
      expect(fourth.json()).toMatchObject({
        code: 'TOO_MANY_MESSAGES',
        message:
          'You have already sent 3 messages about this study in the last hour. Please wait an hour before sending another.',
      });
      expect((await send('sam@example.org')).statusCode).toBe(200);
      await queueDrained();
      expect(mailTo(owner.email).filter((m) => m.subject?.includes('Chatty Sender'))).toHaveLength(
        4,
      );
    });
  });

  describe('email/contact', () => {
    it('mails only participants, pending participants and members of the study; any other address is 400 and nothing is sent', async () => {
      const study = await newStudy('Contact Study');
      await post(
        `/api/studies/${study.id}/pending-participants`,
        { participants: [{ email: 'rostered@example.org' }] },
        owner.token,
      );
      await post(
        '/api/auth/join-study',
        { studyCode: study.studyCode, password: 'study-pass' },
        colleague.token,
      );
      const contact = (recipients: string[]) =>
        post(
          '/api/email/contact',
          {
            studyCode: study.studyCode,
            audience: 'participants',
            recipients,
            emailSubject: 'Reminder',
            emailBody: 'Please wear your watch.',
          },
          owner.token,
        );
      const refused = await contact(['rostered@example.org', 'stranger@example.org']);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({
        success: false,
        code: 'NOT_A_STUDY_RECIPIENT',
        message:
          'stranger@example.org is not a participant, pending participant or member of this study',
      });
      const ok = await contact(['Rostered@example.org', colleague.email]);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ sentCount: 2 });
      await queueDrained();
      expect(mailTo('stranger@example.org')).toHaveLength(0);
      // The refused request sent nothing: one mail each, from the accepted one.
      expect(mailTo('rostered@example.org')).toHaveLength(1);
      expect(mailTo(colleague.email)).toHaveLength(1);
    });
  });

  describe('invitations', () => {
    const invitation = (studyCode: string, email: string, body = 'Join us') => ({
      studyCode,
      studyName: 'Invite Study',
      participants: [{ email }],
      emailSubject: 'Invitation to participate in Invite Study',
      emailBody: body,
    });

    it('20 identical invitations at once to one recipient send one mail; the answers say the others were skipped', async () => {
      const study = await newStudy('Invite Study');
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          post(
            '/api/email/invitations',
            invitation(study.studyCode, 'once@example.org'),
            owner.token,
          ),
        ),
      );
      for (const answer of answers) expect(answer.statusCode).toBe(200);
      const bodies = answers.map((a) => a.json());
      const sent = bodies.filter((b) => b.sentCount === 1);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({
        skippedCount: 0,
        message: 'Invitations sent to 1 participant(s)',
      });
      const skipped = bodies.filter((b) => b.sentCount === 0);
      expect(skipped).toHaveLength(19);
      for (const body of skipped)
        expect(body).toMatchObject({
          emailId: null,
          skippedCount: 1,
          message:
            'Invitations sent to 0 participant(s); 1 already sent in the last 24 hours were skipped',
        });
      await queueDrained();
      expect(mailTo('once@example.org')).toHaveLength(1);
      // One mailing in the history, not twenty.
      const history = (
        await t.app.inject({ url: `/api/email/history/${study.id}`, headers: bearer(owner.token) })
      ).json();
      expect(history.emails).toHaveLength(1);
    }, 60_000);

    it('in a mixed list only the repeats are skipped; a recipient gets at most 3 invitations a day', async () => {
      const study = await newStudy('Invite Study Two');
      await post(
        '/api/email/invitations',
        invitation(study.studyCode, 'a@example.org'),
        owner.token,
      );
      const mixed = await post(
        '/api/email/invitations',
        {
          ...invitation(study.studyCode, 'a@example.org'),
          participants: [{ email: 'a@example.org' }, { email: 'b@example.org' }],
        },
        owner.token,
      );
      expect(mixed.json()).toMatchObject({ sentCount: 1, skippedCount: 1 });
      // Reworded invitations are not repeats, but a fourth within the day is one too many.
      const counts = [];
      for (const body of ['Second try', 'Third try', 'Fourth try'])
        counts.push(
          (
            await post(
              '/api/email/invitations',
              invitation(study.studyCode, 'a@example.org', body),
              owner.token,
            )
          ).json().sentCount,
        );
      expect(counts).toEqual([1, 1, 0]);
      await queueDrained();
      expect(mailTo('a@example.org')).toHaveLength(3);
      expect(mailTo('b@example.org')).toHaveLength(1);
    });

    it('repeated collaborator invitations send one mail and count the repeats as skipped', async () => {
      const study = await newStudy('Collab Invite Study');
      const answers = [];
      for (let i = 0; i < 5; i++)
        answers.push(
          (
            await post(
              '/api/email/collaborator-invitations',
              {
                studyCode: study.studyCode,
                studyName: study.name,
                recipients: ['newcomer@example.org'],
              },
              owner.token,
            )
          ).json(),
        );
      expect(answers.map((a) => [a.sentCount, a.skippedCount])).toEqual([
        [1, 0],
        [0, 1],
        [0, 1],
        [0, 1],
        [0, 1],
      ]);
      await queueDrained();
      expect(mailTo('newcomer@example.org')).toHaveLength(1);
    });
  });
});
