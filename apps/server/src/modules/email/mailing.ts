import { type EmailKind, INVITATION_REPEAT_LIMITS } from '@research/contracts';
import type { AppConfig } from '../../config.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { sha256Hex } from '../../platform/crypto.js';
import { renderEmail } from '../../platform/mail-templates.js';
import { countSends, sendKey } from '../../platform/send-counters.js';
import { recordAudit } from '../audit/index.js';
import type { RequestContext } from '../auth/index.js';
import type { Messaging } from '../messaging/index.js';
import type { StudiesService, StudyAccess } from '../studies/index.js';
import * as repo from './email.repository.js';

/** How a study mailing leaves: checked for repeats, queued and stored in one transaction. */

export interface EmailDeps {
  db: Db;
  config: AppConfig;
  messaging: Messaging;
  studies: StudiesService;
}

export interface Actor {
  id: string;
  email: string;
  displayName: string;
}

/** The user's text as mail paragraphs: blank lines separate them, single breaks are kept. */
export const paragraphsOf = (body: string) =>
  body
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter(Boolean);

export const uniqueEmails = (emails: readonly string[]) => [
  ...new Set(emails.map((e) => e.trim().toLowerCase())),
];

const REPEAT_WINDOW_MS = INVITATION_REPEAT_LIMITS.windowHours * 60 * 60_000;

/**
 * The recipients an invitation may still go to, counting it for them (inside the caller's
 * transaction, so a mailing that is not stored counts for no one). Skipped: those who got the
 * identical invitation (same kind, subject and text) within the window, and those who got as
 * many invitations of this study as the limit allows. A double click, a retried request or a
 * script repeating the call sends each person one mail, not one per request.
 */
export async function withoutRepeats(
  tx: DbOrTx,
  studyId: string,
  invitation: { kind: string; subject: string; body: string },
  recipients: readonly string[],
): Promise<string[]> {
  const content = sha256Hex(`${invitation.subject}\n${invitation.body}`);
  const contentKey = (to: string) => sendKey(studyId, invitation.kind, to, content);
  const recipientKey = (to: string) => sendKey(studyId, invitation.kind, to);
  const seen = await countSends(
    tx,
    'invitation_content',
    recipients.map(contentKey),
    REPEAT_WINDOW_MS,
  );
  const fresh = recipients.filter((to) => seen.get(contentKey(to)) === 1);
  const sent = await countSends(
    tx,
    'invitation_recipient',
    fresh.map(recipientKey),
    REPEAT_WINDOW_MS,
  );
  return fresh.filter(
    (to) => (sent.get(recipientKey(to)) ?? 0) <= INVITATION_REPEAT_LIMITS.perRecipient,
  );
}

export interface Mailing {
  kind: EmailKind;
  subject: string;
  body: string;
  recipients: string[];
  render: { paragraphs: string[]; action?: { label: string; url: string } };
  purpose: string;
  /** Invitations: repeats within the window are skipped (see withoutRepeats). */
  skipRepeats?: boolean;
}

export function createMailingSender({ db, messaging }: Pick<EmailDeps, 'db' | 'messaging'>) {
  /**
   * Queues one mail per address and stores the mailing with its recipients, in one transaction:
   * no mail leaves without its history record, and no record lists mail that was never queued.
   * `alongside` writes what the mailing implies (e.g. pending invitees) in the same transaction.
   */
  return async function send(
    access: StudyAccess,
    actor: Actor,
    ctx: RequestContext,
    mailing: Mailing,
    alongside?: (tx: DbOrTx) => Promise<void>,
  ) {
    const mail = renderEmail({ title: mailing.subject, ...mailing.render });
    const { emailId, recipients } = await db.transaction(async (tx) => {
      await alongside?.(tx);
      const recipients = mailing.skipRepeats
        ? await withoutRepeats(tx, access.study.id, mailing, mailing.recipients)
        : mailing.recipients;
      // Every recipient skipped: nothing to send, so no mailing to list in the history.
      if (recipients.length === 0) return { emailId: null, recipients };
      const outboundIds = await messaging.queueEmails(
        mailing.purpose,
        recipients.map((to) => ({ to, subject: mailing.subject, ...mail })),
        tx,
      );
      const id = await repo.insertMailing(tx, {
        studyId: access.study.id,
        kind: mailing.kind,
        subject: mailing.subject,
        body: mailing.body,
        recipientCount: recipients.length,
        sentBy: actor.id,
        recipients: recipients.map((address, i) => ({
          address,
          outboundMessageId: outboundIds[i] ?? null,
        })),
      });
      await recordAudit(tx, {
        actorId: actor.id,
        studyId: access.study.id,
        action: `email.${mailing.kind}`,
        targetType: 'study',
        targetId: access.study.id,
        details: {
          emailId: id,
          recipients: recipients.length,
          skipped: mailing.recipients.length - recipients.length,
        },
        ip: ctx.ip,
      });
      return { emailId: id, recipients };
    });
    if (emailId) messaging.deliverQueued();
    return {
      emailId,
      sentCount: recipients.length,
      skippedCount: mailing.recipients.length - recipients.length,
    };
  };
}

/** What every part of the e-mail service is built from. */
export interface MailingParts extends EmailDeps {
  /** Study by code, then membership: 404 unknown code, 403 non-member. */
  accessByCode: (studyCode: string, userId: string) => Promise<StudyAccess>;
  send: ReturnType<typeof createMailingSender>;
}
