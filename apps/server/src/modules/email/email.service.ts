import {
  CONTACT_MESSAGES,
  collaboratorCredentialsBlock,
  collaboratorInvitationDefaults,
  collaboratorJoinLink,
  EMAIL_DETAILS_RECIPIENTS_MAX,
  type EmailDetails,
  type EmailKind,
  type EmailRecord,
  enrollLink,
  INVITATION_REPEAT_LIMITS,
  STUDY_DETAIL_MESSAGES,
  STUDY_MAIL_TEXTS,
  STUDY_MESSAGES,
  storedPhone,
} from '@research/contracts';
import type { AppConfig } from '../../config.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { AppError, badRequest, notFound } from '../../errors.js';
import { sha256Hex } from '../../platform/crypto.js';
import { renderEmail } from '../../platform/mail-templates.js';
import { countSends, sendKey } from '../../platform/send-counters.js';
import { recordAudit } from '../audit/index.js';
import type { RequestContext } from '../auth/index.js';
import type { Messaging } from '../messaging/index.js';
import {
  existingParticipantEmails,
  existingPendingEmails,
  insertPending,
  markInvited,
} from '../participants/index.js';
import type { StudiesService, StudyAccess } from '../studies/index.js';
import { findLiveStudyByCode } from '../studies/index.js';
import * as repo from './email.repository.js';

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
const paragraphsOf = (body: string) =>
  body
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter(Boolean);

const unique = (emails: readonly string[]) => [
  ...new Set(emails.map((e) => e.trim().toLowerCase())),
];

/** The mailing's delivery counts, kept on its row by database triggers (migration 0007). */
const deliveryStatusOf = (row: {
  queuedCount: number;
  sentCount: number;
  failedCount: number;
}) => ({
  queued: row.queuedCount,
  sent: row.sentCount,
  failed: row.failedCount,
});

const REPEAT_WINDOW_MS = INVITATION_REPEAT_LIMITS.windowHours * 60 * 60_000;

/**
 * The recipients an invitation may still go to, counting it for them (inside the caller's
 * transaction, so a mailing that is not stored counts for no one). Skipped: those who got the
 * identical invitation (same kind, subject and text) within the window, and those who got as
 * many invitations of this study as the limit allows. A double click, a retried request or a
 * script repeating the call sends each person one mail, not one per request.
 */
async function withoutRepeats(
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

export function createEmailService({ db, config, messaging, studies }: EmailDeps) {
  /** Study by code, then membership: 404 unknown code, 403 non-member. */
  async function accessByCode(studyCode: string, userId: string): Promise<StudyAccess> {
    const found = await findLiveStudyByCode(db, studyCode);
    if (!found) throw notFound(STUDY_MESSAGES.notFound, 'STUDY_NOT_FOUND');
    return studies.access(found.study.id, userId);
  }

  /**
   * Queues one mail per address and stores the mailing with its recipients, in one transaction:
   * no mail leaves without its history record, and no record lists mail that was never queued.
   * `alongside` writes what the mailing implies (e.g. pending invitees) in the same transaction.
   */
  async function send(
    access: StudyAccess,
    actor: Actor,
    ctx: RequestContext,
    mailing: {
      kind: EmailKind;
      subject: string;
      body: string;
      recipients: string[];
      render: { paragraphs: string[]; action?: { label: string; url: string } };
      purpose: string;
      /** Invitations: repeats within the window are skipped (see withoutRepeats). */
      skipRepeats?: boolean;
    },
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
    return {
      emailId,
      sentCount: recipients.length,
      skippedCount: mailing.recipients.length - recipients.length,
    };
  }

  return {
    accessByCode,

    /**
     * Participant invitations: every address becomes (or stays) a pending participant with
     * status 'invited', and gets the mail. The code and enrol link are added when the edited
     * body lost them, so a mail always carries the way in.
     */
    async invite(
      input: {
        studyCode: string;
        participants: { email: string; phoneNumber?: string | undefined }[];
        emailSubject: string;
        emailBody: string;
      },
      actor: Actor,
      ctx: RequestContext,
    ) {
      const access = await accessByCode(input.studyCode, actor.id);
      const phones = new Map<string, string | null>();
      for (const p of input.participants) {
        const email = p.email.trim().toLowerCase();
        const digits = storedPhone(p.phoneNumber);
        if (!phones.has(email) || digits) phones.set(email, digits || null);
      }
      const recipients = [...phones.keys()];
      const link = enrollLink(config.publicUrl, access.study.studyCode);
      const body = input.emailBody.includes(link)
        ? input.emailBody
        : [input.emailBody, '', ...STUDY_MAIL_TEXTS.enrolLines(access.study.studyCode, link)].join(
            '\n',
          );

      const enrolled = await existingParticipantEmails(db, access.study.id, recipients);
      const toPend = recipients.filter((email) => !enrolled.has(email));
      // Pending rows change only with a mailing that is stored and queued.
      const pend = async (tx: DbOrTx) => {
        const existing = await existingPendingEmails(tx, access.study.id, toPend);
        await markInvited(tx, access.study.id, [...existing], actor.id);
        await insertPending(
          tx,
          toPend
            .filter((email) => !existing.has(email))
            .map((email) => ({
              studyId: access.study.id,
              email,
              phoneNumber: phones.get(email) ?? null,
              status: 'invited',
              invitedBy: actor.id,
              invitedAt: new Date(),
            })),
        );
      };
      const result = await send(
        access,
        actor,
        ctx,
        {
          kind: 'invitation',
          subject: input.emailSubject,
          body,
          recipients,
          purpose: 'participant_invitation',
          skipRepeats: true,
          render: {
            paragraphs: paragraphsOf(body),
            action: { label: STUDY_MAIL_TEXTS.joinAction, url: link },
          },
        },
        pend,
      );
      return {
        ...result,
        message: STUDY_DETAIL_MESSAGES.invitationOutcome(result.sentCount, result.skippedCount),
      };
    },

    /**
     * Collaborator invitations: the server adds code, password and join link (the browser never
     * handles the password). People who are already members are told they have access instead;
     * they are not part of the mailing, whose size is the answer's sentCount. When everyone is
     * a member no mailing is stored (emailId null).
     */
    async inviteCollaborators(
      input: {
        studyCode: string;
        recipients: string[];
        emailSubject?: string | undefined;
        emailBody?: string | undefined;
      },
      actor: Actor,
      ctx: RequestContext,
    ) {
      const access = await accessByCode(input.studyCode, actor.id);
      const defaults = collaboratorInvitationDefaults(access.study.name);
      const subject = input.emailSubject?.trim() || defaults.subject;
      const text = input.emailBody?.trim() || defaults.body;
      const password = studies.passwordOf(access.study);
      const credentials = collaboratorCredentialsBlock({
        studyCode: access.study.studyCode,
        password,
        baseUrl: config.publicUrl,
      });
      const recipients = unique(input.recipients);
      const members = await studies.memberEmails(access.study.id);
      const newcomers = recipients.filter((e) => !members.has(e));
      const already = recipients.filter((e) => members.has(e));
      // The stored body never holds the password: history is readable by every member.
      const storedBody = `${text}\n\n${collaboratorCredentialsBlock({
        studyCode: access.study.studyCode,
        password: null,
        baseUrl: config.publicUrl,
      })}`;
      const joinUrl = collaboratorJoinLink(config.publicUrl, access.study.studyCode, password);
      let invited = { emailId: null as string | null, sentCount: 0, skippedCount: 0 };
      if (newcomers.length > 0) {
        invited = await send(access, actor, ctx, {
          kind: 'collaborator_invitation',
          subject,
          body: storedBody,
          recipients: newcomers,
          purpose: 'collaborator_invitation',
          skipRepeats: true,
          render: {
            paragraphs: [...paragraphsOf(text), credentials],
            action: { label: STUDY_MAIL_TEXTS.joinAction, url: joinUrl },
          },
        });
        await studies.recordCollaboratorInvitations(access.study.id, newcomers, actor.id);
      }
      let told = 0;
      if (already.length > 0) {
        const dashboard = `${config.publicUrl}/researcher/study/${access.study.id}`;
        const paragraphs = STUDY_MAIL_TEXTS.alreadyMember(access.study.name);
        const mail = renderEmail({
          title: subject,
          paragraphs,
          action: { label: STUDY_MAIL_TEXTS.openAction, url: dashboard },
        });
        told = await db.transaction(async (tx) => {
          const toTell = await withoutRepeats(
            tx,
            access.study.id,
            { kind: 'collaborator_already_member', subject, body: paragraphs.join('\n') },
            already,
          );
          await messaging.queueEmails(
            'collaborator_already_member',
            toTell.map((to) => ({ to, subject, ...mail })),
            tx,
          );
          return toTell.length;
        });
      }
      return {
        emailId: invited.emailId,
        sentCount: invited.sentCount,
        alreadyMembers: told,
        skippedCount: invited.skippedCount + (already.length - told),
        message: STUDY_DETAIL_MESSAGES.collaboratorInvitationsSent(invited.sentCount),
      };
    },

    /** Contact mail to chosen participants (extras allowed) or to members of the study only. */
    async contact(
      input: {
        studyCode: string;
        audience: 'participants' | 'collaborators';
        recipients: string[];
        emailSubject: string;
        emailBody: string;
      },
      actor: Actor,
      ctx: RequestContext,
    ) {
      const access = await accessByCode(input.studyCode, actor.id);
      const recipients = unique(input.recipients);
      if (recipients.length === 0) throw badRequest(CONTACT_MESSAGES.selectRecipient);
      // Only people the study already knows: otherwise the dialog would mail any address on
      // earth under the platform's name.
      const members = await studies.memberEmails(access.study.id);
      if (input.audience === 'collaborators') {
        const outsider = recipients.find((e) => !members.has(e));
        if (outsider)
          throw new AppError(
            400,
            'NOT_A_MEMBER_RECIPIENT',
            STUDY_DETAIL_MESSAGES.recipientNotInStudy(outsider),
          );
      } else {
        const others = recipients.filter((e) => !members.has(e));
        const enrolled = await existingParticipantEmails(db, access.study.id, others);
        const pending = await existingPendingEmails(
          db,
          access.study.id,
          others.filter((e) => !enrolled.has(e)),
        );
        const outsider = others.find((e) => !enrolled.has(e) && !pending.has(e));
        if (outsider)
          throw new AppError(
            400,
            'NOT_A_STUDY_RECIPIENT',
            STUDY_DETAIL_MESSAGES.recipientNotKnownToStudy(outsider),
          );
      }
      const result = await send(access, actor, ctx, {
        kind: input.audience === 'collaborators' ? 'collaborator_contact' : 'participant_contact',
        subject: input.emailSubject,
        body: input.emailBody,
        recipients,
        purpose:
          input.audience === 'collaborators' ? 'collaborator_contact' : 'participant_contact',
        render: { paragraphs: paragraphsOf(input.emailBody) },
      });
      // Recipients are never empty here and contact mail skips no one, so a mailing is stored.
      if (result.emailId === null) throw new Error('contact mailing not stored');
      return {
        emailId: result.emailId,
        sentCount: result.sentCount,
        message: STUDY_DETAIL_MESSAGES.emailsSent(result.sentCount),
      };
    },

    async history(
      access: StudyAccess,
      page: { limit: number; offset: number },
    ): Promise<{ emails: EmailRecord[]; totalCount: number }> {
      const { rows, totalCount } = await repo.listMailings(db, access.study.id, page);
      return {
        totalCount,
        emails: rows.map((row) => ({
          id: row.id,
          kind: row.kind,
          emailSubject: row.subject,
          sentCount: row.recipientCount,
          sentAt: row.sentAt.toISOString(),
          deliveryStatus: deliveryStatusOf(row),
        })),
      };
    },

    /** One mailing with its body and its first recipients by address, each with its status. */
    async details(access: StudyAccess, emailId: string): Promise<EmailDetails> {
      const row = /^[0-9a-f-]{36}$/i.test(emailId)
        ? await repo.findMailing(db, access.study.id, emailId)
        : undefined;
      if (!row) throw notFound(STUDY_DETAIL_MESSAGES.emailNotFound, 'EMAIL_NOT_FOUND');
      const recipients = await repo.recipientsOf(db, [row.id], EMAIL_DETAILS_RECIPIENTS_MAX);
      return {
        id: row.id,
        kind: row.kind,
        emailSubject: row.subject,
        emailBody: row.body,
        sentCount: row.recipientCount,
        sentAt: row.sentAt.toISOString(),
        deliveryStatus: deliveryStatusOf(row),
        participants: recipients.get(row.id) ?? [],
      };
    },
  };
}

export type EmailService = ReturnType<typeof createEmailService>;
