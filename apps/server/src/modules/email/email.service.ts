import { STUDY_MESSAGES } from '@research/contracts';
import { notFound } from '../../errors.js';
import type { StudyAccess } from '../studies/index.js';
import { findLiveStudyByCode } from '../studies/index.js';
import { createCollaboratorInvitations } from './collaborator-invitations.js';
import { createContactMail } from './contact-mail.js';
import { createMailHistory } from './mail-history.js';
import { createMailingSender, type EmailDeps, type MailingParts } from './mailing.js';
import { createParticipantInvitations } from './participant-invitations.js';

export type { Actor, EmailDeps } from './mailing.js';

/**
 * A study's mail: participant and collaborator invitations, contact mail and the history. Every
 * mailing leaves through one sender (mailing.ts); each kind is its own file, the service their
 * union.
 */
export function createEmailService(deps: EmailDeps) {
  /** Study by code, then membership: 404 unknown code, 403 non-member. */
  async function accessByCode(studyCode: string, userId: string): Promise<StudyAccess> {
    const found = await findLiveStudyByCode(deps.db, studyCode);
    if (!found) throw notFound(STUDY_MESSAGES.notFound, 'STUDY_NOT_FOUND');
    return deps.studies.access(found.study.id, userId);
  }
  const parts: MailingParts = { ...deps, accessByCode, send: createMailingSender(deps) };

  return {
    accessByCode,
    ...createParticipantInvitations(parts),
    ...createCollaboratorInvitations(parts),
    ...createContactMail(parts),
    ...createMailHistory(deps),
  };
}

export type EmailService = ReturnType<typeof createEmailService>;
