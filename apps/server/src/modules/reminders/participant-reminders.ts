import {
  daysWithoutSync,
  REAUTH_MAIL_TEXTS,
  REMINDER_TEXTS,
  SYNC_REMINDER_MAIL_TEXTS,
} from '@research/contracts';
import { randomToken, sha256Hex } from '../../platform/crypto.js';
import { type EmailContent, renderEmail } from '../../platform/mail-templates.js';
import { heldBackAmong } from '../consent/index.js';
import { recordPlatformMailing } from '../email/index.js';
import type { OutboundPayload } from '../messaging/index.js';
import { e164, verifiedChannelsOf } from '../participant-access/index.js';
import { liveContactsOf, type ParticipantContact } from '../participants/index.js';
import { liveStudies } from '../studies/index.js';
import {
  liveConnectionsOfStudy,
  reauthorizeUrl,
  type StudyConnection,
} from '../wearables/index.js';
import * as repo from './reminders.repository.js';
import { DAY_MS, type RemindersContext } from './reminders-context.js';

/** At most one reminder per participant in this many days. */
export const REMINDER_EVERY_DAYS = 3;
/**
 * A scheduled run starts a few seconds later or earlier from one day to the next: a reminder due
 * at the same hour three days on is not put off by a day for that.
 */
const SCHEDULE_SLACK_MS = 60 * 60_000;

type Kind = 'sync' | 'reauthorize';
type Channel = 'email' | 'sms';

interface Due {
  participantId: string;
  kind: Kind;
  channel: Channel;
  to: string;
}

/** The page the stop link opens; the token is random and names no one. */
const stopUrl = (publicUrl: string, token: string) => {
  const url = new URL('/participant/reminders/stop', publicUrl);
  url.searchParams.set('token', token);
  return url.toString();
};

/** How to reach a participant: the e-mail they verified, else the phone they verified. */
function channelOf(
  contact: ParticipantContact,
  verified: { verifiedEmail: string | null; phoneVerified: boolean } | undefined,
): { channel: Channel; to: string } | undefined {
  if (verified?.verifiedEmail && verified.verifiedEmail === contact.email.trim().toLowerCase())
    return { channel: 'email', to: contact.email };
  if (verified?.phoneVerified && contact.phoneNumber)
    return { channel: 'sms', to: e164(contact.phoneNumber) };
  return undefined;
}

/** A reminder's e-mail; `links` are the person's own (placeholders for the history's copy). */
function reminderMailContent(
  kind: Kind,
  study: { name: string; afterDays: number },
  participantId: string,
  links: { stop: string; reconnect: string },
): EmailContent {
  const stop = { label: REMINDER_TEXTS.stopLinkLabel, url: links.stop };
  if (kind === 'reauthorize')
    return {
      title: REAUTH_MAIL_TEXTS.title,
      preheader: REAUTH_MAIL_TEXTS.title,
      paragraphs: [
        REAUTH_MAIL_TEXTS.intro(study.name),
        REAUTH_MAIL_TEXTS.instruction,
        REAUTH_MAIL_TEXTS.participantIdLine(participantId),
      ],
      action: { label: REAUTH_MAIL_TEXTS.action, url: links.reconnect },
      footer: REAUTH_MAIL_TEXTS.footer,
      footerLink: stop,
    };
  return {
    title: SYNC_REMINDER_MAIL_TEXTS.title,
    preheader: SYNC_REMINDER_MAIL_TEXTS.title,
    paragraphs: [
      SYNC_REMINDER_MAIL_TEXTS.intro(study.name, study.afterDays),
      SYNC_REMINDER_MAIL_TEXTS.instruction,
      SYNC_REMINDER_MAIL_TEXTS.participantIdLine(participantId),
    ],
    footer: SYNC_REMINDER_MAIL_TEXTS.footer,
    footerLink: stop,
  };
}

const subjectOf = (kind: Kind, channel: Channel) =>
  channel === 'sms'
    ? kind === 'sync'
      ? REMINDER_TEXTS.syncSmsSubject
      : REMINDER_TEXTS.reauthorizeSmsSubject
    : kind === 'sync'
      ? SYNC_REMINDER_MAIL_TEXTS.subject
      : REAUTH_MAIL_TEXTS.subject;

const smsBody = (
  kind: Kind,
  study: { name: string; afterDays: number },
  links: { stop: string; reconnect: string },
) =>
  kind === 'sync'
    ? REMINDER_TEXTS.syncSms(study.name, study.afterDays, links.stop)
    : REMINDER_TEXTS.reauthorizeSms(study.name, links.reconnect, links.stop);

/**
 * The history's copy of a group of reminders: the message as sent, with every personal link
 * (stop link, reconnect link, participant id) replaced, so it is the same for the whole group.
 */
function historyBody(kind: Kind, channel: Channel, study: { name: string; afterDays: number }) {
  const placeholder = REMINDER_TEXTS.historyLinkPlaceholder;
  const links = { stop: placeholder, reconnect: placeholder };
  if (channel === 'sms') return smsBody(kind, study, links);
  const content = reminderMailContent(kind, study, placeholder, links);
  return [
    ...content.paragraphs,
    ...(content.action ? [`${content.action.label}: ${placeholder}`] : []),
    content.footer ?? '',
    `${REMINDER_TEXTS.stopLinkLabel}: ${placeholder}`,
  ].join('\n\n');
}

/**
 * The reminder run: in every live study with reminders on (`reminderNoSyncDays`), each live,
 * connected participant whose device has not synced for that many days (counted from the
 * connection when it never synced) gets a reminder, unless they stopped them or got one in the
 * last REMINDER_EVERY_DAYS calendar days. A connection needing reauthorization gets the reconnect
 * link instead. Mail when their e-mail is verified, else SMS when their phone is; nobody else.
 * Every reminder is listed in the study's e-mail history.
 */
export function createParticipantReminders(ctx: RemindersContext) {
  const { db, config, messaging } = ctx;

  async function remindStudy(
    study: { id: string; name: string; afterDays: number },
    now: Date,
  ): Promise<number> {
    return db.transaction(async (tx) => {
      // Two runs at once (two workers, a manual run) see each other's reminders.
      await repo.lockStudy(tx, 'reminders', study.id);
      const due = (await liveConnectionsOfStudy(tx, study.id)).filter(
        (c: StudyConnection) =>
          (daysWithoutSync(c.lastDeviceSyncAt ?? c.connectedAt, now) ?? 0) >= study.afterDays,
      );
      if (due.length === 0) return 0;
      const ids = due.map((c) => c.participantId);
      const [held, contacts, stopped, last, verified] = [
        // No notification touches a participant held back for consent (or withdrawn).
        await heldBackAmong(tx, study.id, ids),
        await liveContactsOf(tx, study.id, ids),
        await repo.stoppedAmong(tx, ids),
        await repo.lastRemindedAt(tx, ids),
        await verifiedChannelsOf(tx, ids),
      ];
      const latestAllowed = now.getTime() - REMINDER_EVERY_DAYS * DAY_MS + SCHEDULE_SLACK_MS;
      const recipients: Due[] = [];
      for (const connection of due) {
        const id = connection.participantId;
        const contact = contacts.get(id);
        if (!contact || stopped.has(id) || held.has(id)) continue;
        const lastAt = last.get(id);
        if (lastAt && lastAt.getTime() > latestAllowed) continue;
        const reach = channelOf(contact, verified.get(id));
        if (!reach) continue;
        const kind = connection.status === 'needs_reauthorization' ? 'reauthorize' : 'sync';
        recipients.push({ participantId: id, kind, ...reach });
      }
      if (recipients.length === 0) return 0;

      const sent = recipients.map((r) => {
        const token = randomToken();
        const links = {
          stop: stopUrl(config.publicUrl, token),
          reconnect: reauthorizeUrl(config.publicUrl, r.participantId),
        };
        const payload: OutboundPayload =
          r.channel === 'sms'
            ? { channel: 'sms', to: r.to, body: smsBody(r.kind, study, links) }
            : {
                channel: 'email',
                to: r.to,
                subject: subjectOf(r.kind, 'email'),
                ...renderEmail(reminderMailContent(r.kind, study, r.participantId, links)),
              };
        return { ...r, tokenHash: sha256Hex(token), payload };
      });
      const outboundIds = await messaging.queueMessages(
        'participant-reminder',
        sent.map((s) => s.payload),
        tx,
      );
      await repo.insertReminders(
        tx,
        sent.map((s) => ({
          participantId: s.participantId,
          studyId: study.id,
          kind: s.kind,
          channel: s.channel,
          sentAt: now,
          stopTokenHash: s.tokenHash,
        })),
      );
      // One history entry per kind and channel, each recipient with its delivery status.
      for (const kind of ['sync', 'reauthorize'] as const)
        for (const channel of ['email', 'sms'] as const) {
          const group = sent.flatMap((s, i) =>
            s.kind === kind && s.channel === channel
              ? [{ address: s.to, outboundMessageId: outboundIds[i] as string }]
              : [],
          );
          if (group.length === 0) continue;
          await recordPlatformMailing(tx, {
            studyId: study.id,
            kind: kind === 'sync' ? 'sync_reminder' : 'reauthorization_reminder',
            subject: subjectOf(kind, channel),
            body: historyBody(kind, channel, study),
            recipients: group,
          });
        }
      return sent.length;
    });
  }

  /** One run over every study with reminders on; answers the number of reminders queued. */
  return async function runReminders(now = ctx.now()): Promise<number> {
    let sent = 0;
    for (const study of await liveStudies(db)) {
      const afterDays = study.settings.reminderNoSyncDays;
      if (afterDays === null || afterDays === undefined) continue;
      sent += await remindStudy({ id: study.id, name: study.name, afterDays }, now);
    }
    if (sent > 0) messaging.deliverQueued();
    return sent;
  };
}
