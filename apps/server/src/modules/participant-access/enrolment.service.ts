import {
  ENROLMENT_MESSAGES,
  ENROLMENT_SERVER_MESSAGES,
  type EnrollDirectResponse,
  isAtLeastAge,
  REAUTH_MESSAGES,
  samePhone,
  VERIFICATION_MESSAGES,
} from '@research/contracts';
import { AppError, badRequest } from '../../errors.js';
import { findLiveParticipantInStudy } from '../participants/index.js';
import { findLiveStudy, type StudyRow } from '../studies/index.js';
import { createEnrolSteps } from './enrol-in-study.js';
import {
  type EnrolmentDeps,
  notApproved,
  sessionView,
  verificationFailed,
} from './enrolment-shared.js';
import { createParticipantProfile } from './participant-profile.js';
import type { SessionHolder } from './participant-session.js';
import { createSecureAuthOperations } from './secure-auth.js';
import * as verificationRepo from './verification.repository.js';
import { type Context, newParticipantId } from './verification.service.js';

export type { EnrolmentDeps } from './enrolment-shared.js';

/**
 * A participant's way into a study: enrolment (direct, pre-approved, or through secure-auth in
 * its own file), the roster check, and the checks a participant session is put through. The one
 * transaction that enrols is in enrol-in-study.
 */
export function createEnrolmentService(deps: EnrolmentDeps) {
  const { db, config, objectStore, verification } = deps;
  const clock = verification.clock;
  const profile = createParticipantProfile({ db, config, objectStore, verification });
  const steps = createEnrolSteps(deps);
  const { enrolInTx, enrolOrFail, enrolVerified, authUrlFor } = steps;

  /** The presented session if it is this participant's and verified. */
  async function verifiedSessionOf(token: string | undefined, participantId: string) {
    const row = await verification.readSession(token);
    if (!row || !token || row.participantId !== participantId || !row.verifiedAt) return undefined;
    return row;
  }

  /**
   * A newcomer in a study that requires no verification enrols at once, with a verified
   * session; undefined when the address became known meanwhile (a parallel call): it needs a
   * code too.
   */
  async function enrolNewcomer(
    study: StudyRow,
    email: string,
    names: { firstName: string; lastName: string; selfEnrolment: true },
    ctx: Context,
  ) {
    const enrolled = await db.transaction((tx) =>
      enrolInTx(tx, study, email, { ...names, newcomerOnly: true }, ctx),
    );
    if (!enrolled) return undefined;
    const session = await verification.issueSession(db, study, enrolled.participant.id, true);
    return {
      message: ENROLMENT_SERVER_MESSAGES.enrolled,
      participantId: enrolled.participant.id,
      verificationRequired: false,
      fitbitAuthUrl: await authUrlFor(enrolled.participant),
      session,
      phoneNumber: enrolled.participant.phoneNumber,
    };
  }

  /** The code comes first; a code sent under 30 s ago is still on its way and still valid. */
  async function sendEnrolmentCode(
    study: StudyRow,
    subject: verificationRepo.SubjectRow,
    ctx: Context,
  ) {
    try {
      await verification.sendCode(
        'email',
        {
          participantId: subject.participantId,
          studyCode: study.studyCode,
          email: subject.email,
        },
        ctx,
      );
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'RESEND_TOO_SOON')) throw error;
    }
  }

  return {
    /**
     * POST /api/participants/enroll-direct. Before a code is verified the answer is the same for
     * an invited, an enrolled and a verified address (a code is mailed, the subject's id returned,
     * nothing changed); the id opens nothing without the session the code gives. Only an address
     * the study has never seen may enrol at once, in a study that requires no verification.
     */
    async enrollDirect(
      input: {
        email: string;
        firstName: string;
        lastName: string;
        dateOfBirth: string;
        studyCode: string;
      },
      token: string | undefined,
      ctx: Context,
    ): Promise<Omit<EnrollDirectResponse, 'success'>> {
      const { study } = await verification.studyByCode(input.studyCode);
      if (!isAtLeastAge(input.dateOfBirth, clock.now()))
        throw badRequest(ENROLMENT_MESSAGES.underAge, 'UNDER_AGE');
      const member = await verification.membershipOf(db, study.id, input.email);
      const newcomer = !member.participant && !member.pending;
      if (newcomer && !study.settings.allowSelfEnrollment) throw notApproved();
      const names = {
        firstName: input.firstName,
        lastName: input.lastName,
        selfEnrolment: true as const,
      };

      const subject = await verificationRepo.upsertSubject(db, {
        studyId: study.id,
        email: input.email,
        participantId: member.participant?.id ?? newParticipantId(),
      });
      const presented = await verifiedSessionOf(token, subject.participantId);
      if (presented && token) {
        const { participant, resumed } = await enrolOrFail(study, input.email, names, ctx);
        // Someone enrolled already is told so (names as given are not applied: they can update
        // their details with this session) instead of being sent to Google without a word. Only
        // after a verified code: before that the answer is the same for every address.
        return {
          message: resumed
            ? ENROLMENT_SERVER_MESSAGES.alreadyEnrolled
            : ENROLMENT_SERVER_MESSAGES.enrolled,
          participantId: participant.id,
          verificationRequired: false,
          fitbitAuthUrl: await authUrlFor(participant),
          session: sessionView(token, presented, study),
          alreadyEnrolled: resumed,
          wearableConnected: resumed && (await deps.hasWearableAccessToken(participant.id)),
          phoneNumber: participant.phoneNumber,
        };
      }
      if (newcomer && !study.settings.requireVerification) {
        const enrolled = await enrolNewcomer(study, input.email, names, ctx);
        if (enrolled) return enrolled;
      }
      await sendEnrolmentCode(study, subject, ctx);
      return {
        message: VERIFICATION_MESSAGES.codeSent('email'),
        participantId: subject.participantId,
        verificationRequired: true,
      };
    },

    /**
     * POST /api/participants/check-pending: is this address on the study's roster? An invited and
     * an enrolled address get the same answer (the id stays the same through enrolment and opens
     * nothing before a code is verified); the number on record only goes back to someone who
     * typed it.
     */
    async checkPending(input: { studyCode: string; email: string; phoneNumber: string }) {
      const { study } = await verification.studyByCode(input.studyCode);
      const { participant, pending } = await verification.membershipOf(db, study.id, input.email);
      if (!participant && !pending)
        return { pending: false, participant: null, message: ENROLMENT_MESSAGES.notApproved };
      const onRecord = participant?.phoneNumber ?? pending?.phoneNumber ?? null;
      const phoneMatches = onRecord !== null && samePhone(onRecord, input.phoneNumber);
      const subject = await verificationRepo.upsertSubject(db, {
        studyId: study.id,
        email: input.email,
        participantId: participant?.id ?? newParticipantId(),
      });
      return {
        pending: true,
        participant: {
          participantId: subject.participantId,
          email: input.email,
          phoneNumber: phoneMatches ? onRecord : null,
          studyCode: study.studyCode,
          studyName: study.name,
          status: 'pending',
          createdAt: subject.createdAt.toISOString(),
        },
        message: ENROLMENT_MESSAGES.approved,
      };
    },

    /** POST /api/participants/enroll: the pre-approved flow, after a verified code. */
    async enroll(
      input: { participantId: string; studyCode: string; email: string },
      token: string | undefined,
      ctx: Context,
    ) {
      const { study } = await verification.studyByCode(input.studyCode);
      const subject = await verificationRepo.findSubjectById(db, input.participantId);
      if (!subject || subject.studyId !== study.id || subject.email !== input.email)
        throw verificationFailed();
      return enrolVerified(study, subject, token, ctx);
    },

    updateInfo: profile.updateInfo,

    /**
     * The verified session a token names and whose (study, e-mail) it speaks for; 401 without a
     * live session, 403 before a code was verified. Checked before any body is read.
     */
    async sessionHolder(token: string | undefined): Promise<SessionHolder> {
      const session = await verification.requireSession(token, {});
      const subject = await verificationRepo.findSubjectById(db, session.participantId);
      return {
        participantId: session.participantId,
        studyId: session.studyId,
        email: subject?.email,
      };
    },

    /**
     * POST /api/participants/verify-secure: the participant verify data, answered
     * only to the participant's own verified session; the id and e-mail must also match it.
     */
    async verifyParticipantSecure(
      input: { participantId: string; email: string },
      holder: SessionHolder,
    ) {
      if (holder.participantId !== input.participantId)
        throw new AppError(
          403,
          'PARTICIPANT_SESSION_MISMATCH',
          ENROLMENT_SERVER_MESSAGES.sessionMismatch,
        );
      const participant = await findLiveParticipantInStudy(db, holder.studyId, input.participantId);
      const study = participant ? await findLiveStudy(db, holder.studyId) : undefined;
      if (!participant || !study || participant.email !== input.email)
        throw new AppError(404, 'PARTICIPANT_MISMATCH', REAUTH_MESSAGES.verificationFailed);
      return {
        participantId: participant.id,
        participantEmail: participant.email,
        studyCode: study.studyCode,
        status: participant.status,
        createdAt: participant.enrolledAt.toISOString(),
        fitbitTokens: { accessToken: await deps.hasWearableAccessToken(participant.id) },
      };
    },

    ...createSecureAuthOperations(deps, steps),
  };
}

export type EnrolmentService = ReturnType<typeof createEnrolmentService>;
