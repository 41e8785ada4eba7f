import { CONTACT_MESSAGES, STUDY_DETAIL_MESSAGES } from '@research/contracts';
import { AppError, badRequest } from '../../errors.js';
import type { RequestContext } from '../auth/index.js';
import { existingParticipantEmails, existingPendingEmails } from '../participants/index.js';
import type { StudyAccess } from '../studies/index.js';
import { type Actor, type MailingParts, paragraphsOf, uniqueEmails } from './mailing.js';

type Audience = 'participants' | 'collaborators';

export function createContactMail({ db, studies, accessByCode, send }: MailingParts) {
  /**
   * Only people the study already knows: otherwise the dialog would mail any address on earth
   * under the platform's name. Collaborator mail goes to members only; participant mail to
   * members, participants and people on the roster.
   */
  async function assertKnownRecipients(
    access: StudyAccess,
    audience: Audience,
    recipients: string[],
  ) {
    const members = await studies.memberEmails(access.study.id);
    if (audience === 'collaborators') {
      const outsider = recipients.find((e) => !members.has(e));
      if (outsider)
        throw new AppError(
          400,
          'NOT_A_MEMBER_RECIPIENT',
          STUDY_DETAIL_MESSAGES.recipientNotInStudy(outsider),
        );
      return;
    }
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

  return {
    /** Contact mail to chosen participants (extras allowed) or to members of the study only. */
    async contact(
      input: {
        studyCode: string;
        audience: Audience;
        recipients: string[];
        emailSubject: string;
        emailBody: string;
      },
      actor: Actor,
      ctx: RequestContext,
    ) {
      const access = await accessByCode(input.studyCode, actor.id);
      const recipients = uniqueEmails(input.recipients);
      if (recipients.length === 0) throw badRequest(CONTACT_MESSAGES.selectRecipient);
      await assertKnownRecipients(access, input.audience, recipients);
      const kind =
        input.audience === 'collaborators' ? 'collaborator_contact' : 'participant_contact';
      const result = await send(access, actor, ctx, {
        kind,
        subject: input.emailSubject,
        body: input.emailBody,
        recipients,
        purpose: kind,
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
  };
}
