import {
  ENROLL_TEXTS,
  NOTIFY_RESEARCHER_LIMITS,
  NOTIFY_RESEARCHER_MESSAGES,
} from '@research/contracts';
import { notFound, tooManyRequests } from '../../errors.js';
import { renderEmail } from '../../platform/mail-templates.js';
import { countSends, sendKey, uncountSends } from '../../platform/send-counters.js';
import { recordAudit } from '../audit/index.js';
import type { RequestContext } from '../auth/index.js';
import * as repo from './studies.repository.js';
import type { StudiesDeps } from './studies-shared.js';

const HOUR_MS = 60 * 60_000;

/** What anyone with a study code may do without an account: look it up, write to its owner. */
export function createStudyPublicOperations({ db, messaging }: StudiesDeps) {
  /**
   * Counts a participant's message before anything is mailed. The call is public, so the sender
   * address proves nothing: the per-sender limit keeps one person fair, and the per-study one
   * caps what the owner receives when every request comes with a new address and network.
   */
  async function countParticipantMessage(studyId: string, senderEmail: string) {
    const sender = sendKey(studyId, senderEmail.trim().toLowerCase());
    const fromSender = await countSends(db, 'notify_sender', [sender], HOUR_MS);
    if ((fromSender.get(sender) ?? 0) > NOTIFY_RESEARCHER_LIMITS.perSenderPerHour)
      throw tooManyRequests(NOTIFY_RESEARCHER_MESSAGES.tooManyFromSender, 'TOO_MANY_MESSAGES');
    const study = sendKey(studyId);
    const forStudy = await countSends(db, 'notify_study', [study], HOUR_MS);
    if ((forStudy.get(study) ?? 0) > NOTIFY_RESEARCHER_LIMITS.perStudyPerHour) {
      // Nothing was sent: the sender may try again once the study's hour is over.
      await uncountSends(db, 'notify_sender', [sender]);
      throw tooManyRequests(NOTIFY_RESEARCHER_MESSAGES.tooManyForStudy, 'TOO_MANY_MESSAGES');
    }
  }

  return {
    /** Public look-up by code (participant enrolment, join dialog). */
    async lookup(studyCode: string) {
      const found = await repo.findLiveStudyByCode(db, studyCode);
      if (!found)
        throw notFound('Study not found. Please check the study code.', 'STUDY_NOT_FOUND');
      return {
        studyName: found.study.name,
        studyDescription: found.study.description,
        studyCode: found.study.studyCode,
        researcherName: found.ownerName || ENROLL_TEXTS.defaultResearcher,
      };
    },

    /** A participant's message to the study owner, by e-mail. */
    async notifyResearcher(
      input: { studyCode: string; participantEmail: string; message: string },
      ctx: RequestContext,
    ) {
      const found = await repo.findLiveStudyByCode(db, input.studyCode);
      if (!found)
        throw notFound('Study not found. Please check the study code.', 'STUDY_NOT_FOUND');
      await countParticipantMessage(found.study.id, input.participantEmail);
      const mail = renderEmail({
        title: `A participant wrote about ${found.study.name}`,
        paragraphs: [
          `A participant (${input.participantEmail}) sent a message about the study "${found.study.name}" (code ${found.study.studyCode}):`,
          input.message,
        ],
      });
      await messaging.queueEmail('participant_message', {
        to: found.ownerEmail,
        subject: `Message from a participant: ${found.study.name}`,
        replyTo: input.participantEmail,
        ...mail,
      });
      await recordAudit(db, {
        actorId: null,
        studyId: found.study.id,
        action: 'study.participant_message',
        targetType: 'study',
        targetId: found.study.id,
        ip: ctx.ip,
      });
    },
  };
}
