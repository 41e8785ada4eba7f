import { ENROLMENT_SERVER_MESSAGES } from '@research/contracts';
import { findLiveStudy } from '../studies/index.js';
import type { EnrolSteps } from './enrol-in-study.js';
import {
  type EnrolmentDeps,
  notApproved,
  sessionView,
  verificationFailed,
} from './enrolment-shared.js';
import * as verificationRepo from './verification.repository.js';
import { type Context, newParticipantId, statusOf } from './verification.service.js';

/**
 * /api/secure-auth/*: enrolment as a session first (opened unverified for a rostered or enrolled
 * address), then a mailed code, then completion on the verified session.
 */
export function createSecureAuthOperations(
  { db, verification }: Pick<EnrolmentDeps, 'db' | 'verification'>,
  steps: EnrolSteps,
) {
  async function studyOf(studyId: string) {
    const row = await findLiveStudy(db, studyId);
    if (!row) throw verificationFailed();
    return { study: row };
  }

  return {
    /** Opens a session for a rostered or enrolled address; verified only after a code. */
    async secureVerifyParticipant(input: { studyCode: string; personalInfo: { email: string } }) {
      const { study } = await verification.studyByCode(input.studyCode);
      const email = input.personalInfo.email;
      const { participant, pending } = await verification.membershipOf(db, study.id, email);
      if (!participant && !pending) throw notApproved();
      const subject = await verificationRepo.upsertSubject(db, {
        studyId: study.id,
        email,
        participantId: participant?.id ?? newParticipantId(),
      });
      // Unverified whatever the study's settings, and the status of an unproven caller is 'none':
      // what has been verified before is the participant's business, not the address holder's.
      const session = await verification.issueSession(db, study, subject.participantId, false);
      return { session: { ...session, verificationStatus: 'none' as const } };
    },

    async secureSendEmail(input: { sessionId: string; email: string }, ctx: Context) {
      const session = await verification.requireSession(input.sessionId, {}, { verified: false });
      const subject = await verificationRepo.findSubjectById(db, session.participantId);
      if (!subject || subject.email !== input.email) throw verificationFailed();
      const { study } = await studyOf(session.studyId);
      return verification.sendCode(
        'email',
        { participantId: subject.participantId, studyCode: study.studyCode, email: subject.email },
        ctx,
      );
    },

    async secureValidateSession(input: { sessionId: string }) {
      const session = await verification.requireSession(input.sessionId, {}, { verified: false });
      const subject = await verificationRepo.findSubjectById(db, session.participantId);
      const { study } = await studyOf(session.studyId);
      return {
        session: {
          ...sessionView(input.sessionId, session, study),
          verificationStatus: subject && session.verifiedAt ? statusOf(subject) : ('none' as const),
        },
        message: ENROLMENT_SERVER_MESSAGES.sessionValid,
      };
    },

    async secureCompleteEnrollment(input: { sessionId: string }, ctx: Context) {
      const session = await verification.requireSession(input.sessionId, {});
      const subject = await verificationRepo.findSubjectById(db, session.participantId);
      if (!subject) throw verificationFailed();
      const { study } = await studyOf(session.studyId);
      const { alreadyEnrolled: _, ...result } = await steps.enrolVerified(
        study,
        subject,
        input.sessionId,
        ctx,
      );
      return { ...result, message: ENROLMENT_SERVER_MESSAGES.enrollmentCompleted };
    },
  };
}
