import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  consentWithdrawals,
  datasetPartitions,
  emailMessages,
  emailRecipients,
  participants,
  participantVerifications,
  reminderLog,
  studies,
  wearableConnections,
} from '../../db/schema/index.js';
import { bearer, someAddress } from '../../test/auth-helpers.js';
import { eventually, useTestApp } from '../../test/test-app.js';
import { studyWithParticipants } from '../../test/wearables-kit.js';

/**
 * The daily digest and the participants' reminders, run with a set clock against the sandbox's
 * inbox and SMS log: who gets what, when, and that the stop link stops them.
 */

const t = useTestApp();
const DAY = 86_400_000;
const at = (iso: string) => new Date(iso);
const plus = (date: Date, days: number) => new Date(date.getTime() + days * DAY);

async function newStudy(settings: { riskNoSyncDays?: number; reminderNoSyncDays?: number | null }) {
  const fixture = await studyWithParticipants(t.app);
  const db = t.app.platform.db;
  const [row] = await db.select().from(studies).where(eq(studies.id, fixture.study.id));
  await db
    .update(studies)
    .set({ settings: { ...(row?.settings as typeof studies.$inferSelect.settings), ...settings } })
    .where(eq(studies.id, fixture.study.id));
  return fixture;
}

type Fixture = Awaited<ReturnType<typeof newStudy>>;

/** A participant with a connection (active unless said), verified as asked. */
async function participantIn(
  fixture: Fixture,
  options: {
    connectedAt: Date;
    lastSync?: Date | null;
    status?: 'active' | 'needs_reauthorization' | 'revoked';
    verified?: { email?: boolean; phone?: boolean };
    phone?: string;
    firstName?: string;
  },
) {
  const db = t.app.platform.db;
  const participant = await fixture.addParticipant({
    ...(options.phone ? { phoneNumber: options.phone } : {}),
    ...(options.firstName ? { firstName: options.firstName } : {}),
  });
  await db.insert(wearableConnections).values({
    participantId: participant.id,
    studyId: fixture.study.id,
    healthUserId: `hu-${randomBytes(6).toString('hex')}`,
    status: options.status ?? 'active',
    connectedAt: options.connectedAt,
    lastDeviceSyncAt: options.lastSync ?? null,
  });
  if (options.verified) {
    await db.insert(participantVerifications).values({
      studyId: fixture.study.id,
      email: participant.email.toLowerCase(),
      participantId: participant.id,
      emailVerifiedAt: options.verified.email ? options.connectedAt : null,
      phoneVerifiedAt: options.verified.phone ? options.connectedAt : null,
    });
  }
  return participant;
}

const mailingsOf = (studyId: string) =>
  t.app.platform.db.select().from(emailMessages).where(eq(emailMessages.studyId, studyId));

const recipientsOf = async (messageId: string) =>
  (
    await t.app.platform.db
      .select({ address: emailRecipients.address })
      .from(emailRecipients)
      .where(eq(emailRecipients.messageId, messageId))
  ).map((r) => r.address);

const remindersOf = (participantId: string) =>
  t.app.platform.db.select().from(reminderLog).where(eq(reminderLog.participantId, participantId));

const inbox = (to: string) => t.sandbox?.messages({ to }) ?? [];

const stop = (token: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/participant/reminders/stop',
    payload: { token },
    remoteAddress: someAddress(),
  });

const tokenIn = (text: string) => {
  const token = /reminders\/stop\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
  if (!token) throw new Error('no stop link in the message');
  return token;
};

describe('the daily adherence digest', () => {
  it('tells the owner what is new since the last digest, and nothing when nothing is new', async () => {
    const fixture = await newStudy({ riskNoSyncDays: 2 });
    const day1 = at('2026-12-01T07:00:00Z');
    const risky = await participantIn(fixture, {
      connectedAt: plus(day1, -20),
      lastSync: plus(day1, -3),
      firstName: 'Robin',
    });
    const fine = await participantIn(fixture, {
      connectedAt: plus(day1, -20),
      lastSync: plus(day1, 3.9),
    });
    const reauth = await participantIn(fixture, {
      connectedAt: plus(day1, -20),
      lastSync: plus(day1, -1),
      status: 'needs_reauthorization',
    });
    await t.app.platform.db.insert(datasetPartitions).values({
      studyId: fixture.study.id,
      participantId: fine.id,
      dataType: 'sleep_log',
      date: '2026-11-30',
      timeZone: 'UTC',
      state: 'failed',
      reason: 'provider_error',
      fetchedAt: plus(day1, -0.5),
    });

    await t.app.services.reminders.runDigest(day1);
    const mail = await t.sandbox?.waitForMessage({ to: fixture.owner.email }, 15_000);
    expect(mail?.subject).toBe('Daily adherence digest: Sleep and Steps');
    expect(mail?.text).toContain(`${risky.id} (Robin Chen): 3 days without a sync`);
    expect(mail?.text).not.toContain(`${fine.id} (`);
    expect(mail?.text).toContain('Connections that need reauthorization (1):');
    expect(mail?.text).toContain(reauth.id);
    expect(mail?.text).toContain(`${fine.id}: sleep_log on 2026-11-30 (provider_error)`);
    expect(mail?.text).toContain(
      `http://localhost:3000/researcher/study/${fixture.study.id}?tab=5`,
    );
    // Collaborators get it only when they ask for it.
    expect(inbox(fixture.collaborator.email)).toHaveLength(0);
    const [history] = await mailingsOf(fixture.study.id);
    expect(history?.kind).toBe('adherence_digest');
    expect(history?.sentBy).toBeNull();
    expect(await recipientsOf(history?.id as string)).toEqual([fixture.owner.email]);

    // The same day again: the day's digest is done.
    await t.app.services.reminders.runDigest(plus(day1, 0.1));
    // The next day: the same participants are not news, and there is no new failure.
    await t.app.services.reminders.runDigest(plus(day1, 1));
    expect(await mailingsOf(fixture.study.id)).toHaveLength(1);

    // The collaborator opts in; the participant syncs, then goes quiet again: news again.
    const optIn = await t.app.inject({
      method: 'PUT',
      url: `/api/studies/${fixture.study.id}/digest`,
      headers: bearer(fixture.collaborator.token),
      payload: { enabled: true },
    });
    expect(optIn.json()).toEqual({ success: true, enabled: true });
    await t.app.platform.db
      .update(wearableConnections)
      .set({ lastDeviceSyncAt: plus(day1, 1.5) })
      .where(eq(wearableConnections.participantId, risky.id));
    await t.app.services.reminders.runDigest(plus(day1, 2));
    expect(await mailingsOf(fixture.study.id)).toHaveLength(1);
    await t.app.services.reminders.runDigest(plus(day1, 4));
    const second = await t.sandbox?.waitForMessage({ to: fixture.collaborator.email }, 15_000);
    expect(second?.text).toContain(`${risky.id} (Robin Chen): 2 days without a sync`);
    expect(second?.text).not.toContain(reauth.id);
    await eventually(async () => inbox(fixture.owner.email).length === 2);
    const mailings = await mailingsOf(fixture.study.id);
    expect(mailings).toHaveLength(2);
  }, 60_000);

  it('goes to nobody when the owner turned it off and no collaborator opted in', async () => {
    const fixture = await newStudy({ riskNoSyncDays: 2 });
    const day = at('2026-12-10T07:00:00Z');
    await participantIn(fixture, { connectedAt: plus(day, -5) });
    const off = await t.app.inject({
      method: 'PUT',
      url: `/api/studies/${fixture.study.id}/digest`,
      headers: bearer(fixture.owner.token),
      payload: { enabled: false },
    });
    expect(off.statusCode).toBe(200);
    await t.app.services.reminders.runDigest(day);
    expect(await mailingsOf(fixture.study.id)).toHaveLength(0);
  }, 30_000);
});

describe('participant reminders', () => {
  it('reminds after N days, at most once in 3 days, until the stop link stops them', async () => {
    const fixture = await newStudy({ reminderNoSyncDays: 2 });
    const start = at('2026-12-01T16:00:00Z');
    const person = await participantIn(fixture, {
      connectedAt: plus(start, -10),
      lastSync: start,
      verified: { email: true },
    });
    const run = (days: number) => t.app.services.reminders.runReminders(plus(start, days));

    await run(1);
    expect(await remindersOf(person.id)).toHaveLength(0);
    await run(2);
    const first = await t.sandbox?.waitForMessage({ to: person.email }, 15_000);
    expect(first?.subject).toBe('Please sync your Fitbit device');
    expect(first?.text).toContain('"Sleep and Steps" in 2 days or more');
    const token = tokenIn(first?.text ?? '');
    // The link names no one: a random token, stored only as its hash.
    expect(token).not.toContain(person.id);
    expect(JSON.stringify(await remindersOf(person.id))).not.toContain(token);

    await run(3);
    await run(4.9);
    expect(await remindersOf(person.id)).toHaveLength(1);
    await run(5);
    expect(await remindersOf(person.id)).toHaveLength(2);
    await eventually(async () => inbox(person.email).length === 2);

    // Listed in the study's e-mail history, without the personal link.
    const history = (await mailingsOf(fixture.study.id)).filter((m) => m.kind === 'sync_reminder');
    expect(history).toHaveLength(2);
    expect(history[0]?.body).toContain('[personal link]');
    expect(history[0]?.body).not.toContain(token);
    expect(await recipientsOf(history[0]?.id as string)).toEqual([person.email]);

    const stopped = await stop(token);
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json()).toEqual({
      success: true,
      message: 'You will not get any more reminders from this study.',
    });
    expect((await stop(token)).statusCode).toBe(200);
    await run(9);
    await run(20);
    expect(await remindersOf(person.id)).toHaveLength(2);

    const invalid = await stop('not-a-real-token');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ success: false, code: 'REMINDER_LINK_INVALID' });
  }, 60_000);

  it('texts those who verified only their phone, sends the reconnect link, and skips the rest', async () => {
    const fixture = await newStudy({ reminderNoSyncDays: 3 });
    const now = at('2026-12-20T16:00:00Z');
    const phone = '+16175550142';
    const texted = await participantIn(fixture, {
      connectedAt: plus(now, -4),
      lastSync: null,
      verified: { phone: true },
      phone,
    });
    const reconnect = await participantIn(fixture, {
      connectedAt: plus(now, -30),
      lastSync: plus(now, -3),
      status: 'needs_reauthorization',
      verified: { email: true },
    });
    const unverified = await participantIn(fixture, {
      connectedAt: plus(now, -30),
      lastSync: plus(now, -10),
    });
    const deleted = await participantIn(fixture, {
      connectedAt: plus(now, -30),
      lastSync: plus(now, -10),
      verified: { email: true },
    });
    await t.app.platform.db
      .update(participants)
      .set({ deletedAt: plus(now, -1) })
      .where(eq(participants.id, deleted.id));
    const revoked = await participantIn(fixture, {
      connectedAt: plus(now, -30),
      lastSync: plus(now, -10),
      status: 'revoked',
      verified: { email: true },
    });
    const recent = await participantIn(fixture, {
      connectedAt: plus(now, -30),
      lastSync: plus(now, -2.5),
      verified: { email: true },
    });
    // Withdrawn (the consent gate holds them back), though their row still says enrolled.
    const withdrawn = await participantIn(fixture, {
      connectedAt: plus(now, -30),
      lastSync: plus(now, -10),
      verified: { email: true },
    });
    await t.app.platform.db.insert(consentWithdrawals).values({
      participantId: withdrawn.id,
      studyId: fixture.study.id,
      withdrawnAt: plus(now, -1),
      recordedBy: 'participant',
      dataAction: 'keep',
    });
    // A study without reminders reminds no one.
    const quiet = await newStudy({ reminderNoSyncDays: null });
    const notOn = await participantIn(quiet, {
      connectedAt: plus(now, -30),
      lastSync: plus(now, -10),
      verified: { email: true },
    });

    await t.app.services.reminders.runReminders(now);

    const sms = await t.sandbox?.waitForMessage({ to: phone, channel: 'sms' }, 15_000);
    expect(sms?.text).toContain('Sleep and Steps: your Fitbit has not synced in 3 days or more.');
    expect((await stop(tokenIn(sms?.text ?? ''))).statusCode).toBe(200);

    const mail = await t.sandbox?.waitForMessage({ to: reconnect.email }, 15_000);
    expect(mail?.subject).toBe('Please reconnect your Fitbit device');
    expect(mail?.text).toContain(
      `http://localhost:3000/fitbit/reauthorize?participantId=${reconnect.id}`,
    );
    expect(mail?.text).toContain('Stop these reminders: http://localhost:3000/participant/');

    const logged = await t.app.platform.db
      .select({ participantId: reminderLog.participantId, kind: reminderLog.kind })
      .from(reminderLog)
      .where(eq(reminderLog.studyId, fixture.study.id));
    expect(logged).toHaveLength(2);
    expect(logged).toEqual(
      expect.arrayContaining([
        { participantId: texted.id, kind: 'sync' },
        { participantId: reconnect.id, kind: 'reauthorize' },
      ]),
    );
    for (const skipped of [unverified, deleted, revoked, recent, withdrawn, notOn])
      expect(await remindersOf(skipped.id)).toHaveLength(0);

    const kinds = (await mailingsOf(fixture.study.id)).map((m) => [m.kind, m.subject]);
    expect(kinds).toEqual(
      expect.arrayContaining([
        ['sync_reminder', 'Sync reminder (SMS)'],
        ['reauthorization_reminder', 'Please reconnect your Fitbit device'],
      ]),
    );
    const [smsHistory] = await t.app.platform.db
      .select({ address: emailRecipients.address })
      .from(emailRecipients)
      .innerJoin(emailMessages, eq(emailMessages.id, emailRecipients.messageId))
      .where(
        and(eq(emailMessages.studyId, fixture.study.id), eq(emailMessages.kind, 'sync_reminder')),
      );
    expect(smsHistory?.address).toBe(phone);
  }, 60_000);
});
