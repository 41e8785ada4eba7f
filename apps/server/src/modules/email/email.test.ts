import { once } from 'node:events';
import { invitationEmail } from '@research/contracts';
import { startSandbox } from '@research/sandbox';
import { and, count, eq, sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  emailMessages,
  emailRecipients,
  outboundMessages,
  pendingParticipants,
} from '../../db/schema/index.js';
import {
  bearer,
  createMaster,
  researcherWithApplication,
  someAddress,
} from '../../test/auth-helpers.js';
import {
  createTestApp,
  eventually,
  freePort,
  type TestApp,
  useTestApp,
} from '../../test/test-app.js';

type Researcher = Awaited<ReturnType<typeof researcherWithApplication>>;

const post = (t: TestApp, token: string, url: string, payload: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: bearer(token),
    payload,
    remoteAddress: someAddress(),
  });

async function studyOf(t: TestApp, owner: Researcher, extra: Record<string, unknown> = {}) {
  const res = await post(t, owner.token, '/api/auth/create-study', {
    name: 'Sleep & Steps',
    description: 'Four weeks of sleep',
    password: 'study-pass',
    ...extra,
  });
  return res.json().study as { id: string; studyCode: string; name: string };
}

/** Puts addresses on the study's roster (contact mail goes only to people the study knows). */
async function rostered(t: TestApp, owner: Researcher, studyId: string, emails: string[]) {
  const res = await post(t, owner.token, `/api/studies/${studyId}/pending-participants`, {
    participants: emails.map((email) => ({ email })),
  });
  expect(res.statusCode).toBeLessThan(300);
}

/**
 * The counts as a fresh group-by over the recipients (a missing outbound row counts as sent):
 * what the trigger-kept columns must equal, so a broken trigger fails here.
 */
async function groupedCounts(t: TestApp, emailId: string) {
  const status = sql<string>`coalesce(${outboundMessages.status}, 'sent')`;
  const rows = await t.app.platform.db
    .select({ status, n: count() })
    .from(emailRecipients)
    .leftJoin(outboundMessages, eq(outboundMessages.id, emailRecipients.outboundMessageId))
    .where(eq(emailRecipients.messageId, emailId))
    .groupBy(status);
  const counts: Record<string, number> = { queued: 0, sent: 0, failed: 0 };
  for (const row of rows) counts[row.status] = Number(row.n);
  return counts;
}

describe('study e-mail', () => {
  const t = useTestApp();
  let master: { token: string };
  let owner: Researcher;
  let collaborator: Researcher;
  let study: { id: string; studyCode: string; name: string };

  beforeAll(async () => {
    master = await createMaster(t.app);
    owner = await researcherWithApplication(t.app, 'approved', master);
    collaborator = await researcherWithApplication(t.app, 'approved', master);
    study = await studyOf(t, owner);
    await post(t, collaborator.token, '/api/auth/join-study', {
      studyCode: study.studyCode,
      password: 'study-pass',
    });
  });
  beforeEach(() => t.sandbox?.clear());

  const history = async (token = owner.token, id = study.id) =>
    (await t.app.inject({ url: `/api/email/history/${id}`, headers: bearer(token) })).json();
  const details = (emailId: string, token = owner.token, id = study.id) =>
    t.app.inject({ url: `/api/email/history/${id}/${emailId}`, headers: bearer(token) });

  it('sends invitations with code and enrol link and makes each address a pending "invited"', async () => {
    await post(t, owner.token, `/api/studies/${study.id}/pending-participants`, {
      participants: [{ email: 'already@example.org', phoneNumber: '1112223333' }],
    });
    const generated = invitationEmail({
      studyName: study.name,
      description: 'Four weeks of sleep',
      studyCode: study.studyCode,
      baseUrl: t.config.publicUrl,
    });
    const res = await post(t, collaborator.token, '/api/email/invitations', {
      studyCode: study.studyCode,
      studyName: study.name,
      participants: [
        { email: 'Typed@Example.org', phoneNumber: '(111) - 0000 - 000' },
        { email: 'already@example.org' },
      ],
      emailSubject: generated.subject,
      emailBody: `${generated.body}\n\nP.S. Edited by hand.`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, sentCount: 2 });
    for (const to of ['typed@example.org', 'already@example.org']) {
      const mail = await t.sandbox?.waitForMessage({ to, channel: 'email' }, 15_000);
      expect(mail?.subject).toBe('Invitation to participate in Sleep & Steps');
      expect(mail?.text).toContain(`Study code: ${study.studyCode}`);
      expect(mail?.text).toContain(
        `http://localhost:3000/participant/enroll?code=${study.studyCode}`,
      );
      expect(mail?.text).toContain('P.S. Edited by hand.');
    }
    const pending = await t.app.platform.db
      .select()
      .from(pendingParticipants)
      .where(eq(pendingParticipants.studyId, study.id));
    expect(pending.map((p) => [p.email, p.status, p.phoneNumber]).sort()).toEqual([
      ['already@example.org', 'invited', '+11112223333'],
      ['typed@example.org', 'invited', '+11110000000'],
    ]);
    // Delivery status comes from the queue: sent once the relay took them.
    const record = await eventually(async () => {
      const h = await history();
      const first = h.emails[0];
      return first?.deliveryStatus.sent === 2 ? first : undefined;
    });
    expect(record).toMatchObject({
      kind: 'invitation',
      emailSubject: 'Invitation to participate in Sleep & Steps',
      sentCount: 2,
      deliveryStatus: { queued: 0, sent: 2, failed: 0 },
    });
    expect(await groupedCounts(t, record.id)).toEqual(record.deliveryStatus);
    // The list row carries no body and no recipients; the details call has them, with status.
    expect(Object.keys(record).sort()).toEqual(
      ['deliveryStatus', 'emailSubject', 'id', 'kind', 'sentAt', 'sentCount'].sort(),
    );
    const one = await details(record.id, collaborator.token);
    expect(one.statusCode).toBe(200);
    expect(one.json().email).toMatchObject({
      id: record.id,
      kind: 'invitation',
      sentCount: 2,
      deliveryStatus: { queued: 0, sent: 2, failed: 0 },
      participants: [
        { participantEmail: 'already@example.org', status: 'sent' },
        { participantEmail: 'typed@example.org', status: 'sent' },
      ],
    });
    expect(one.json().email.emailBody).toContain('P.S. Edited by hand.');
    // A mailing of this study asked for under another study answers 404, as do unknown ids.
    const other = await studyOf(t, owner, { name: 'Other Study' });
    const foreign = await details(record.id, owner.token, other.id);
    expect(foreign.statusCode).toBe(404);
    expect(JSON.stringify(foreign.json())).not.toContain('already@example.org');
    expect((await details('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await details('not-a-uuid')).statusCode).toBe(404);
    const stats = (
      await t.app.inject({ url: `/api/studies/${study.id}/stats`, headers: bearer(owner.token) })
    ).json().stats;
    expect(stats.emails).toBe(1);
    expect(stats.pendingParticipants).toBe(2);
    expect(stats.lastEmailSentAt).toBe(record.sentAt);
  });

  it('adds the code and link when the edited body lost them', async () => {
    await post(t, owner.token, '/api/email/invitations', {
      studyCode: study.studyCode,
      studyName: study.name,
      participants: [{ email: 'short@example.org' }],
      emailSubject: 'Join us',
      emailBody: 'Please join.',
    });
    const mail = await t.sandbox?.waitForMessage({ to: 'short@example.org' }, 15_000);
    expect(mail?.text).toContain(`/participant/enroll?code=${study.studyCode}`);
  });

  it.each([
    [{ participants: [] }, 'Please add at least one participant'],
    [{ participants: [{ email: 'bad' }] }, 'Please enter valid email addresses'],
    [
      { participants: [{ email: 'a@b.co', phoneNumber: '12' }] },
      'Please enter valid phone numbers, such as (555) 123-4567 or +44 7700 900123',
    ],
    [
      { participants: [{ email: 'a@b.co' }], emailSubject: '' },
      'Email title and content are required',
    ],
    [{ participants: [{ email: 'a@b.co' }], studyName: '' }, 'Study name is required'],
    [
      {
        participants: [{ email: 'a@b.co' }],
        emailBody: 'Hello,\n\nStudy description:  \nDuration: 4 weeks',
      },
      'Study description is required',
    ],
  ])('refuses invitations %j with the product’s text', async (change, message) => {
    const res = await post(t, owner.token, '/api/email/invitations', {
      studyCode: study.studyCode,
      studyName: study.name,
      emailSubject: 'Subject',
      emailBody: 'Body',
      ...change,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields[0].message).toBe(message);
  });

  it('sends the generated invitation of a study without a description (its fallback text)', async () => {
    const bare = await studyOf(t, owner, { name: 'No Description Study', description: '' });
    const generated = invitationEmail({
      studyName: bare.name,
      description: null,
      studyCode: bare.studyCode,
      baseUrl: t.config.publicUrl,
    });
    expect(generated.body).toContain('Study description: No description provided');
    const res = await post(t, owner.token, '/api/email/invitations', {
      studyCode: bare.studyCode,
      studyName: bare.name,
      participants: [{ email: 'no.description@example.org' }],
      emailSubject: generated.subject,
      emailBody: generated.body,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().sentCount).toBe(1);
  });

  it('stores a collaborator mailing of the newcomers only, and none when all are members', async () => {
    const before = (await history()).totalCount as number;
    const mixed = await post(t, owner.token, '/api/email/collaborator-invitations', {
      studyCode: study.studyCode,
      studyName: study.name,
      recipients: ['Second.Colleague@example.org', collaborator.email],
      emailSubject: 'Join our team',
    });
    expect(mixed.statusCode).toBe(200);
    expect(mixed.json()).toMatchObject({
      sentCount: 1,
      alreadyMembers: 1,
      message: 'Invitations sent to 1 collaborator(s)',
    });
    const stored = (await details(mixed.json().emailId)).json().email;
    expect(stored.sentCount).toBe(1);
    expect(
      stored.participants.map((p: { participantEmail: string }) => p.participantEmail),
    ).toEqual(['second.colleague@example.org']);

    const members = await post(t, owner.token, '/api/email/collaborator-invitations', {
      studyCode: study.studyCode,
      studyName: study.name,
      recipients: [collaborator.email, owner.email],
      emailSubject: 'Join our team',
    });
    expect(members.statusCode).toBe(200);
    // The collaborator got this very note a moment ago: it is not sent twice (a skipped repeat).
    expect(members.json()).toMatchObject({
      emailId: null,
      sentCount: 0,
      alreadyMembers: 1,
      skippedCount: 1,
    });
    // No empty mailing in the history; the owner is still told they have access.
    expect((await history()).totalCount).toBe(before + 1);
    const past = await t.app.inject({
      url: `/api/email/history/${study.id}?offset=${before + 1}`,
      headers: bearer(owner.token),
    });
    expect(past.json()).toMatchObject({ emails: [], totalCount: before + 1 });
    const [stillMember] = await t.app.platform.db
      .select({ n: count() })
      .from(emailMessages)
      .where(and(eq(emailMessages.studyId, study.id), eq(emailMessages.recipientCount, 0)));
    expect(stillMember?.n).toBe(0);
    const note = await t.sandbox?.waitForMessage(
      { to: owner.email, subjectIncludes: 'Join our team' },
      15_000,
    );
    expect(note?.text).toContain('You already have access');
  });

  it('stores the mailing, its recipients and its queued mails together or not at all', async () => {
    const countRows = async () => {
      const [outbound] = await t.app.platform.db.select({ n: count() }).from(outboundMessages);
      const [mailings] = await t.app.platform.db
        .select({ n: count() })
        .from(emailMessages)
        .where(eq(emailMessages.studyId, study.id));
      const jobs = await t.app.platform.db.execute<{ n: number }>(
        sql`select count(*)::int as n from pgboss.job where name = 'deliver-message'`,
      );
      const jobRows = (Array.isArray(jobs) ? jobs : (jobs as { rows: { n: number }[] }).rows) as {
        n: number;
      }[];
      return { outbound: outbound?.n, mailings: mailings?.n, jobs: jobRows[0]?.n };
    };
    // The history write fails (as a full disk or a lost connection would) after the mailing row.
    await t.app.platform.db.execute(
      sql.raw(`create function fail_recipients() returns trigger language plpgsql as $$
        begin raise exception 'recipients not stored'; end $$`),
    );
    await t.app.platform.db.execute(
      sql.raw(`create trigger fail_recipients before insert on email_recipients
        for each row execute function fail_recipients()`),
    );
    // Contact mail goes only to people the study knows.
    await post(t, owner.token, `/api/studies/${study.id}/pending-participants`, {
      participants: [{ email: 'never.sent@example.org' }],
    });
    try {
      const before = await countRows();
      const res = await post(t, owner.token, '/api/email/contact', {
        studyCode: study.studyCode,
        audience: 'participants',
        recipients: ['never.sent@example.org'],
        emailSubject: 'Lost',
        emailBody: 'This mail must not leave without its history.',
      });
      expect(res.statusCode).toBe(500);
      expect(await countRows()).toEqual(before);
      const invite = await post(t, owner.token, '/api/email/invitations', {
        studyCode: study.studyCode,
        studyName: study.name,
        participants: [{ email: 'never.invited@example.org' }],
        emailSubject: 'Invitation',
        emailBody: 'Join us',
      });
      expect(invite.statusCode).toBe(500);
      expect(await countRows()).toEqual(before);
      // Nor is the invitee made pending by an invitation that was not sent.
      const pending = await t.app.platform.db
        .select()
        .from(pendingParticipants)
        .where(eq(pendingParticipants.email, 'never.invited@example.org'));
      expect(pending).toEqual([]);
    } finally {
      await t.app.platform.db.execute(sql.raw('drop trigger fail_recipients on email_recipients'));
      await t.app.platform.db.execute(sql.raw('drop function fail_recipients()'));
    }
    // Give the queue a moment: nothing may arrive.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(t.sandbox?.messages({ to: 'never.sent@example.org' }) ?? []).toEqual([]);
  });

  it('invites collaborators with code, password and join link the server adds', async () => {
    const res = await post(t, collaborator.token, '/api/email/collaborator-invitations', {
      studyCode: study.studyCode,
      studyName: study.name,
      recipients: ['new.colleague@example.org', collaborator.email],
      invitationType: 'collaborator',
    });
    expect(res.statusCode).toBe(200);
    const mail = await t.sandbox?.waitForMessage({ to: 'new.colleague@example.org' }, 15_000);
    expect(mail?.subject).toBe('Collaborator Invitation: Sleep & Steps');
    expect(mail?.text).toContain(`Study code: ${study.studyCode}`);
    expect(mail?.text).toContain('Study password: study-pass');
    expect(mail?.text).toContain(
      `/researcher/dashboard?code=${study.studyCode}&password=study-pass`,
    );
    expect(mail?.text).toContain('research dashboard');
    // A member is told they already have access, not asked to join.
    const memberMail = await t.sandbox?.waitForMessage(
      { to: collaborator.email, subjectIncludes: 'Collaborator Invitation' },
      15_000,
    );
    expect(memberMail?.text).toContain('You already have access');
    expect(memberMail?.text).not.toContain('study-pass');
    // The history (readable by every member) never holds the password.
    const h = await history(collaborator.token);
    const record = h.emails.find((e: { kind: string }) => e.kind === 'collaborator_invitation');
    const full = (await details(record.id, collaborator.token)).json().email;
    expect(full.emailBody).not.toContain('study-pass');
    expect(JSON.stringify(full)).not.toContain('study-pass');
    expect(JSON.stringify(h)).not.toContain('study-pass');
  });

  it('contacts participants and members; collaborator mail goes to members only', async () => {
    const participants = await post(t, owner.token, '/api/email/contact', {
      studyCode: study.studyCode,
      audience: 'participants',
      recipients: ['typed@example.org'],
      emailSubject: 'Reminder',
      emailBody: 'Please wear your watch tonight.',
    });
    expect(participants.statusCode).toBe(200);
    const mail = await t.sandbox?.waitForMessage({ to: 'typed@example.org' }, 15_000);
    expect(mail?.subject).toBe('Reminder');
    expect(mail?.text).toContain('Please wear your watch tonight.');
    const outsider = await post(t, owner.token, '/api/email/contact', {
      studyCode: study.studyCode,
      audience: 'collaborators',
      recipients: ['stranger@example.org'],
      emailSubject: 'Team',
      emailBody: 'Hi',
    });
    expect(outsider.statusCode).toBe(400);
    const team = await post(t, owner.token, '/api/email/contact', {
      studyCode: study.studyCode,
      audience: 'collaborators',
      recipients: [collaborator.email],
      emailSubject: 'Team',
      emailBody: 'Hi',
    });
    expect(team.statusCode).toBe(200);
    const empty = await post(t, owner.token, '/api/email/contact', {
      studyCode: study.studyCode,
      audience: 'participants',
      recipients: [],
      emailSubject: '',
      emailBody: '',
    });
    expect(empty.json().details.fields.map((f: { message: string }) => f.message)).toEqual([
      'Please select at least one recipient',
      'Email title and content are required',
      'Email title and content are required',
    ]);
    const kinds = (await history()).emails.map((e: { kind: string }) => e.kind);
    expect(kinds.slice(0, 2)).toEqual(['collaborator_contact', 'participant_contact']);
  });

  // Last: its 1,000 mails fill the queue for a while.
  it('accepts 1,000 recipients in one request and answers at once', async () => {
    const participants = Array.from({ length: 1000 }, (_, i) => ({
      email: `many${i}@example.org`,
    }));
    const res = await post(t, owner.token, '/api/email/invitations', {
      studyCode: study.studyCode,
      studyName: study.name,
      participants,
      emailSubject: 'Invitation to participate in Sleep & Steps',
      emailBody: 'Hello',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().sentCount).toBe(1000);
    const [mailing] = await t.app.platform.db
      .select()
      .from(emailMessages)
      .where(eq(emailMessages.id, res.json().emailId));
    expect(mailing?.recipientCount).toBe(1000);
    const recipients = await t.app.platform.db
      .select()
      .from(emailRecipients)
      .where(eq(emailRecipients.messageId, res.json().emailId));
    expect(recipients).toHaveLength(1000);
    expect(recipients.every((r) => r.outboundMessageId)).toBe(true);
    // The history row stays small; the details list every recipient up to the cap of 1,000.
    const row = (await history()).emails.find((e: { id: string }) => e.id === res.json().emailId);
    expect(row).toMatchObject({ sentCount: 1000 });
    expect(row.participants).toBeUndefined();
    const full = (await details(res.json().emailId)).json().email;
    expect(full.sentCount).toBe(1000);
    expect(full.participants).toHaveLength(1000);
    expect(full.participants[0]).toMatchObject({ participantEmail: 'many0@example.org' });
  }, 60_000);
});

describe('joining and study passwords', () => {
  const t = useTestApp();
  let master: { token: string };
  beforeAll(async () => {
    master = await createMaster(t.app);
  });

  it('answers an already-joined collaborator with alreadyMember, also after a password change', async () => {
    const owner = await researcherWithApplication(t.app, 'approved', master);
    const colleague = await researcherWithApplication(t.app, 'approved', master);
    const study = await studyOf(t, owner);
    const first = await post(t, colleague.token, '/api/auth/join-study', {
      studyCode: study.studyCode,
      password: 'study-pass',
    });
    expect(first.json()).toMatchObject({ alreadyMember: false });
    await t.app.inject({
      method: 'PUT',
      url: `/api/studies/${study.id}`,
      headers: bearer(owner.token),
      payload: { password: 'new-pass-1', currentPassword: 'study-pass' },
    });
    const again = await post(t, colleague.token, '/api/auth/join-study', {
      studyCode: study.studyCode,
      password: 'study-pass',
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({
      alreadyMember: true,
      message: 'You are already a collaborator on this study.',
      study: { id: study.id },
    });
  });

  it('sets a first password without a current one and refuses an invented current one', async () => {
    const owner = await researcherWithApplication(t.app, 'approved', master);
    const res = await post(t, owner.token, '/api/auth/create-study', { name: 'No password' });
    const id = res.json().study.id;
    const invented = await t.app.inject({
      method: 'PUT',
      url: `/api/studies/${id}`,
      headers: bearer(owner.token),
      payload: { password: 'first-pass', currentPassword: 'anything' },
    });
    expect(invented.statusCode).toBe(400);
    expect(invented.json().error).toBe('Current password is incorrect');
    const first = await t.app.inject({
      method: 'PUT',
      url: `/api/studies/${id}`,
      headers: bearer(owner.token),
      payload: { password: 'first-pass' },
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().study.password).toBe('first-pass');
  });

  it('adds collaborators at creation only when their address is confirmed, and tells them so', async () => {
    const owner = await researcherWithApplication(t.app, 'approved', master);
    const confirmed = await researcherWithApplication(t.app, 'approved', master);
    const unconfirmed = await researcherWithApplication(t.app, 'approved', master);
    const { users } = await import('../../db/schema/index.js');
    await t.app.platform.db
      .update(users)
      .set({ emailVerifiedAt: new Date() })
      .where(eq(users.id, confirmed.user.id));
    await t.app.platform.db
      .update(users)
      .set({ emailVerifiedAt: null })
      .where(eq(users.id, unconfirmed.user.id));
    t.sandbox?.clear();
    const study = await studyOf(t, owner, { collaborators: [confirmed.email, unconfirmed.email] });
    const members = (
      await t.app.inject({ url: `/api/studies/${study.id}/members`, headers: bearer(owner.token) })
    ).json().members;
    expect(members.map((m: { email: string }) => m.email).sort()).toEqual(
      [owner.email, confirmed.email].sort(),
    );
    const added = await t.sandbox?.waitForMessage(
      { to: confirmed.email, subjectIncludes: 'Collaborator Invitation' },
      15_000,
    );
    expect(added?.text).toContain('You already have access');
    const invited = await t.sandbox?.waitForMessage(
      { to: unconfirmed.email, subjectIncludes: 'Collaborator Invitation' },
      15_000,
    );
    expect(invited?.text).toContain('Study password: study-pass');
  });
});

describe('when the relay is down', () => {
  it('shows the mailing queued, then sent once the relay is back', async () => {
    const smtpPort = await freePort();
    const t = await createTestApp({ withoutSandbox: true, smtpPort });
    try {
      const master = await createMaster(t.app);
      const owner = await researcherWithApplication(t.app, 'approved', master);
      const study = await studyOf(t, owner);
      await rostered(t, owner, study.id, ['late@example.org']);
      const res = await post(t, owner.token, '/api/email/contact', {
        studyCode: study.studyCode,
        audience: 'participants',
        recipients: ['late@example.org'],
        emailSubject: 'Later',
        emailBody: 'Delivered late',
      });
      expect(res.statusCode).toBe(200);
      const read = async () =>
        (
          await t.app.inject({
            url: `/api/email/history/${study.id}`,
            headers: bearer(owner.token),
          })
        ).json().emails[0];
      expect((await read()).deliveryStatus).toEqual({ queued: 1, sent: 0, failed: 0 });
      const recipientsOf = async () =>
        (
          await t.app.inject({
            url: `/api/email/history/${study.id}/${res.json().emailId}`,
            headers: bearer(owner.token),
          })
        ).json().email.participants;
      expect(await recipientsOf()).toEqual([
        { participantEmail: 'late@example.org', status: 'queued' },
      ]);
      const sandbox = await startSandbox({ httpPort: 0, smtpPort });
      try {
        await sandbox.waitForMessage({ to: 'late@example.org' }, 30_000);
        const sent = await eventually(async () => {
          const record = await read();
          return record.deliveryStatus.sent === 1 ? record : undefined;
        }, 30_000);
        expect(sent.deliveryStatus.queued).toBe(0);
        expect((await recipientsOf())[0].status).toBe('sent');
      } finally {
        await sandbox.close();
      }
    } finally {
      await t.close();
    }
  }, 90_000);
});

/** A real SMTP relay on a free port that refuses `ghost*` recipients for good (550). */
async function refusingRelay(port: number) {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      callback(
        address.address.startsWith('ghost')
          ? Object.assign(new Error('No such user'), { responseCode: 550 })
          : null,
      );
    },
    onData(stream, _session, callback) {
      stream.on('end', () => callback());
      stream.resume();
    },
  });
  server.listen(port, '127.0.0.1');
  await once(server.server, 'listening');
  return { close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('when the relay refuses a recipient', () => {
  it('counts it failed, the others sent, and a purged failed row as sent', async () => {
    const smtpPort = await freePort();
    const relay = await refusingRelay(smtpPort);
    const t = await createTestApp({ withoutSandbox: true, smtpPort });
    try {
      const master = await createMaster(t.app);
      const owner = await researcherWithApplication(t.app, 'approved', master);
      const study = await studyOf(t, owner);
      await rostered(t, owner, study.id, [
        'ghost@example.org',
        'fine@example.org',
        'also.fine@example.org',
      ]);
      const res = await post(t, owner.token, '/api/email/contact', {
        studyCode: study.studyCode,
        audience: 'participants',
        recipients: ['ghost@example.org', 'fine@example.org', 'also.fine@example.org'],
        emailSubject: 'Mixed',
        emailBody: 'One of these bounces',
      });
      expect(res.statusCode).toBe(200);
      const emailId = res.json().emailId as string;
      const read = async () =>
        (
          await t.app.inject({
            url: `/api/email/history/${study.id}`,
            headers: bearer(owner.token),
          })
        ).json().emails[0];
      const settled = await eventually(async () => {
        const record = await read();
        return record.deliveryStatus.queued === 0 ? record : undefined;
      }, 30_000);
      expect(settled.deliveryStatus).toEqual({ queued: 0, sent: 2, failed: 1 });
      expect(await groupedCounts(t, emailId)).toEqual(settled.deliveryStatus);
      const one = await t.app.inject({
        url: `/api/email/history/${study.id}/${emailId}`,
        headers: bearer(owner.token),
      });
      expect(one.json().email.deliveryStatus).toEqual(settled.deliveryStatus);

      // A purge of the failed queue row: its recipient then counts as sent, as it always did.
      await t.app.platform.db.delete(outboundMessages).where(eq(outboundMessages.status, 'failed'));
      expect((await read()).deliveryStatus).toEqual({ queued: 0, sent: 3, failed: 0 });
      expect(await groupedCounts(t, emailId)).toEqual({ queued: 0, sent: 3, failed: 0 });
    } finally {
      await t.close();
      await relay.close();
    }
  }, 90_000);
});
