import {
  collaboratorCredentialsBlock,
  collaboratorInvitationDefaults,
  collaboratorJoinLink,
  STUDY_DETAIL_MESSAGES,
  STUDY_MAIL_TEXTS,
} from '@research/contracts';
import { renderEmail } from '../../platform/mail-templates.js';
import type { RequestContext } from '../auth/index.js';
import type { StudyAccess } from '../studies/index.js';
import {
  type Actor,
  type MailingParts,
  paragraphsOf,
  uniqueEmails,
  withoutRepeats,
} from './mailing.js';

export interface InvitationInput {
  studyCode: string;
  recipients: string[];
  emailSubject?: string | undefined;
  emailBody?: string | undefined;
}

/** The invitation's subject and text (the study's defaults when left blank) and its password. */
interface InvitationTexts {
  subject: string;
  text: string;
  password: string | null;
}

export function createCollaboratorInvitations(parts: MailingParts) {
  const { db, config, messaging, studies, accessByCode, send } = parts;

  function textsOf(access: StudyAccess, input: InvitationInput): InvitationTexts {
    const defaults = collaboratorInvitationDefaults(access.study.name);
    return {
      subject: input.emailSubject?.trim() || defaults.subject,
      text: input.emailBody?.trim() || defaults.body,
      password: studies.passwordOf(access.study),
    };
  }

  /** The invitation proper, with code, password and join link, to people not yet members. */
  async function inviteNewcomers(
    access: StudyAccess,
    newcomers: string[],
    { subject, text, password }: InvitationTexts,
    actor: Actor,
    ctx: RequestContext,
  ) {
    const { studyCode } = access.study;
    const baseUrl = config.publicUrl;
    const credentials = collaboratorCredentialsBlock({ studyCode, password, baseUrl });
    // The stored body never holds the password: history is readable by every member.
    const storedBody = `${text}\n\n${collaboratorCredentialsBlock({ studyCode, password: null, baseUrl })}`;
    const joinUrl = collaboratorJoinLink(baseUrl, studyCode, password);
    const invited = await send(access, actor, ctx, {
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
    return invited;
  }

  /**
   * People already members are told they have access, with a link to the study, instead of a
   * second invitation; this note is not a mailing of the study's history. Returns how many were
   * told (repeats within the window are skipped, as for invitations).
   */
  async function tellMembers(access: StudyAccess, members: string[], subject: string) {
    const dashboard = `${config.publicUrl}/researcher/study/${access.study.id}`;
    const paragraphs = STUDY_MAIL_TEXTS.alreadyMember(access.study.name);
    const mail = renderEmail({
      title: subject,
      paragraphs,
      action: { label: STUDY_MAIL_TEXTS.openAction, url: dashboard },
    });
    const told = await db.transaction(async (tx) => {
      const toTell = await withoutRepeats(
        tx,
        access.study.id,
        { kind: 'collaborator_already_member', subject, body: paragraphs.join('\n') },
        members,
      );
      await messaging.queueEmails(
        'collaborator_already_member',
        toTell.map((to) => ({ to, subject, ...mail })),
        tx,
      );
      return toTell.length;
    });
    if (told > 0) messaging.deliverQueued();
    return told;
  }

  return {
    /**
     * Collaborator invitations: the server adds code, password and join link (the browser never
     * handles the password). People who are already members are told they have access instead;
     * they are not part of the mailing, whose size is the answer's sentCount. When everyone is
     * a member no mailing is stored (emailId null).
     */
    async inviteCollaborators(input: InvitationInput, actor: Actor, ctx: RequestContext) {
      const access = await accessByCode(input.studyCode, actor.id);
      const texts = textsOf(access, input);
      const recipients = uniqueEmails(input.recipients);
      const members = await studies.memberEmails(access.study.id);
      const newcomers = recipients.filter((e) => !members.has(e));
      const already = recipients.filter((e) => members.has(e));
      const invited =
        newcomers.length > 0
          ? await inviteNewcomers(access, newcomers, texts, actor, ctx)
          : { emailId: null as string | null, sentCount: 0, skippedCount: 0 };
      const told = already.length > 0 ? await tellMembers(access, already, texts.subject) : 0;
      return {
        emailId: invited.emailId,
        sentCount: invited.sentCount,
        alreadyMembers: told,
        skippedCount: invited.skippedCount + (already.length - told),
        message: STUDY_DETAIL_MESSAGES.collaboratorInvitationsSent(invited.sentCount),
      };
    },
  };
}
