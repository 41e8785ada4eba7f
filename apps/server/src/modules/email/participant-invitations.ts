import {
  enrollLink,
  STUDY_DETAIL_MESSAGES,
  STUDY_MAIL_TEXTS,
  storedPhone,
} from '@research/contracts';
import type { DbOrTx } from '../../db/client.js';
import type { RequestContext } from '../auth/index.js';
import {
  existingParticipantEmails,
  existingPendingEmails,
  insertPending,
  markInvited,
} from '../participants/index.js';
import { type Actor, type MailingParts, paragraphsOf } from './mailing.js';

/** Each invitee's address (lower-cased, once) with the phone given with it, if any. */
function phonesOf(participants: { email: string; phoneNumber?: string | undefined }[]) {
  const phones = new Map<string, string | null>();
  for (const p of participants) {
    const email = p.email.trim().toLowerCase();
    const digits = storedPhone(p.phoneNumber);
    if (!phones.has(email) || digits) phones.set(email, digits || null);
  }
  return phones;
}

/** The body as edited, with the code and enrol link added back when the edit lost them. */
const withEnrolLines = (body: string, studyCode: string, link: string) =>
  body.includes(link)
    ? body
    : [body, '', ...STUDY_MAIL_TEXTS.enrolLines(studyCode, link)].join('\n');

export function createParticipantInvitations({ db, config, accessByCode, send }: MailingParts) {
  return {
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
      const studyId = access.study.id;
      const phones = phonesOf(input.participants);
      const recipients = [...phones.keys()];
      const link = enrollLink(config.publicUrl, access.study.studyCode);
      const body = withEnrolLines(input.emailBody, access.study.studyCode, link);

      const enrolled = await existingParticipantEmails(db, studyId, recipients);
      const toPend = recipients.filter((email) => !enrolled.has(email));
      // Pending rows change only with a mailing that is stored and queued.
      const pend = async (tx: DbOrTx) => {
        const existing = await existingPendingEmails(tx, studyId, toPend);
        await markInvited(tx, studyId, [...existing], actor.id);
        await insertPending(
          tx,
          toPend
            .filter((email) => !existing.has(email))
            .map((email) => ({
              studyId,
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
  };
}
