import {
  ENROLMENT_MESSAGES,
  ENROLMENT_SERVER_MESSAGES,
  type EnrollDirectResponse,
  isAtLeastAge,
  type ParticipantSession,
  REAUTH_MESSAGES,
  samePhone,
  VERIFICATION_MESSAGES,
} from '@research/contracts';
import type { AppConfig } from '../../config.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { AppError, badRequest } from '../../errors.js';
import type { ObjectStore } from '../../platform/object-store/types.js';
import { recordAudit } from '../audit/index.js';
import { findLiveStudy, type StudyRow } from '../studies/index.js';
import * as repo from './enrolment.repository.js';
import { createParticipantProfile } from './participant-profile.js';
import type { SessionHolder } from './participant-session.js';
import * as verificationRepo from './verification.repository.js';
import {
  type Context,
  newParticipantId,
  statusOf,
  type VerificationService,
} from './verification.service.js';
import type { WearableAuthUrl } from './wearable-auth-url.js';

const notApproved = () => new AppError(403, 'NOT_APPROVED', ENROLMENT_MESSAGES.notApproved);
const verificationFailed = () =>
  new AppError(400, 'VERIFICATION_FAILED', VERIFICATION_MESSAGES.failed);

export interface EnrolmentDeps {
  db: Db;
  config: AppConfig;
  objectStore: ObjectStore;
  verification: VerificationService;
  wearableAuthUrl: WearableAuthUrl;
}

export function createEnrolmentService({
  db,
  config,
  objectStore,
  verification,
  wearableAuthUrl,
}: EnrolmentDeps) {
  const clock = verification.clock;
  const profile = createParticipantProfile({ db, config, objectStore, verification });

  /**
   * Moves the person's roster entry to a participant (status 'enrolled', inviter kept), or
   * returns the participant they already are. One transaction: no half-enrolled rows.
   */
  async function enrolInTx(
    tx: DbOrTx,
    study: StudyRow,
    email: string,
    details: {
      firstName?: string;
      lastName?: string;
      selfEnrolment: boolean;
      /** Enrolment without a verified code: only for an address the study has never seen. */
      newcomerOnly?: boolean;
    },
    ctx: Context,
  ) {
    const now = clock.now();
    await repo.lockEnrolment(tx, study.id, email);
    const existing = await repo.findLiveParticipantByEmail(tx, study.id, email);
    if (details.newcomerOnly && existing) return undefined;
    if (existing) {
      const subject = await verificationRepo.upsertSubject(tx, {
        studyId: study.id,
        email,
        participantId: existing.id,
      });
      return { participant: existing, subject, resumed: true };
    }
    const roster = await repo.findPendingByEmail(tx, study.id, email, { lock: true });
    // A roster entry already used by an enrolment (since deleted) approves nobody again.
    const pending = roster && roster.participantId === null ? roster : undefined;
    if (details.newcomerOnly && pending) return undefined;
    if (!pending && !(details.selfEnrolment && study.settings.allowSelfEnrollment))
      throw notApproved();
    let subject = await verificationRepo.upsertSubject(tx, {
      studyId: study.id,
      email,
      participantId: newParticipantId(),
    });
    if (await repo.participantIdTaken(tx, subject.participantId)) {
      // The id belongs to a deleted participant: a new enrolment starts afresh with a new id.
      await verificationRepo.deleteSubject(tx, subject.participantId);
      subject = await verificationRepo.upsertSubject(tx, {
        studyId: study.id,
        email,
        participantId: newParticipantId(),
      });
    }
    const inserted = await repo.insertParticipant(tx, {
      id: subject.participantId,
      studyId: study.id,
      email,
      firstName: details.firstName ?? pending?.firstName ?? null,
      lastName: details.lastName ?? pending?.lastName ?? null,
      phoneNumber: pending?.phoneNumber ?? null,
      status: 'enrolled',
      enrolledAt: now,
      updatedAt: now,
      invitedBy: pending?.invitedBy ?? null,
      pendingParticipantId: pending?.id ?? null,
    });
    if (!inserted) {
      // A parallel enrolment of the same address won: resume it.
      const winner = await repo.findLiveParticipantByEmail(tx, study.id, email);
      if (!winner) throw new Error('participant neither inserted nor found');
      return { participant: winner, subject, resumed: true };
    }
    if (pending) await repo.linkPendingToParticipant(tx, pending.id, inserted.id, now);
    await recordAudit(tx, {
      actorId: null,
      action: 'participant.enrolled',
      targetType: 'participant',
      targetId: inserted.id,
      details: { studyId: study.id, fromRoster: Boolean(pending) },
      ip: ctx.ip,
    });
    return { participant: inserted, subject, resumed: false };
  }

  /** The presented session if it is this participant's and verified. */
  async function verifiedSessionOf(token: string | undefined, participantId: string) {
    const row = await verification.readSession(token);
    if (!row || !token || row.participantId !== participantId || !row.verifiedAt) return undefined;
    return row;
  }

  const sessionView = (
    token: string,
    row: verificationRepo.SessionRow,
    study: StudyRow,
  ): ParticipantSession => ({
    sessionId: token,
    participantId: row.participantId,
    studyCode: study.studyCode,
    verified: row.verifiedAt !== null,
    expiresAt: row.expiresAt.toISOString(),
  });

  async function authUrlFor(participant: { id: string; studyId: string }) {
    try {
      return await wearableAuthUrl(participant);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError(502, 'AUTH_URL_FAILED', ENROLMENT_MESSAGES.authUrlFailed);
    }
  }

  /**
   * Enrolment of a subject whose address a code has proven (pre-approved flow and secure-auth
   * completion). A verified session of this very participant is required whatever the study's
   * settings: a roster entry or a participant never changes on the word of an anonymous caller.
   */
  async function enrolVerified(
    study: StudyRow,
    subject: verificationRepo.SubjectRow,
    token: string | undefined,
    ctx: Context,
  ) {
    const presented = await verification.requireSession(token, {
      participantId: subject.participantId,
      studyId: study.id,
    });
    const { participant } = await enrolOrFail(study, subject.email, { selfEnrolment: false }, ctx);
    const fitbitAuthUrl = await authUrlFor(participant);
    return {
      message: ENROLMENT_SERVER_MESSAGES.enrolled,
      participantId: participant.id,
      fitbitAuthUrl,
      session: sessionView(token as string, presented, study),
    };
  }

  async function enrolOrFail(
    study: StudyRow,
    email: string,
    details: Parameters<typeof enrolInTx>[3],
    ctx: Context,
  ) {
    const enrolled = await db.transaction((tx) => enrolInTx(tx, study, email, details, ctx));
    if (!enrolled) throw new Error('enrolment of a known address without a code');
    return enrolled;
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
      const names = { firstName: input.firstName, lastName: input.lastName, selfEnrolment: true };

      const subject = await verificationRepo.upsertSubject(db, {
        studyId: study.id,
        email: input.email,
        participantId: member.participant?.id ?? newParticipantId(),
      });
      const presented = await verifiedSessionOf(token, subject.participantId);
      if (presented && token) {
        const { participant, resumed } = await enrolOrFail(study, input.email, names, ctx);
        return {
          message: resumed ? ENROLMENT_SERVER_MESSAGES.resumed : ENROLMENT_SERVER_MESSAGES.enrolled,
          participantId: participant.id,
          verificationRequired: false,
          fitbitAuthUrl: await authUrlFor(participant),
          session: sessionView(token, presented, study),
        };
      }
      if (newcomer && !study.settings.requireVerification) {
        const enrolled = await db.transaction((tx) =>
          enrolInTx(tx, study, input.email, { ...names, newcomerOnly: true }, ctx),
        );
        // Undefined: the address became known meanwhile (a parallel call): it needs a code too.
        if (enrolled) {
          const session = await verification.issueSession(db, study, enrolled.participant.id, true);
          return {
            message: ENROLMENT_SERVER_MESSAGES.enrolled,
            participantId: enrolled.participant.id,
            verificationRequired: false,
            fitbitAuthUrl: await authUrlFor(enrolled.participant),
            session,
          };
        }
      }
      // The code comes first; a code sent under 30 s ago is still on its way and still valid.
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
      const participant = await repo.findLiveParticipant(db, holder.studyId, input.participantId);
      const study = participant ? await findLiveStudy(db, holder.studyId) : undefined;
      if (!participant || !study || participant.email !== input.email)
        throw new AppError(404, 'PARTICIPANT_MISMATCH', REAUTH_MESSAGES.verificationFailed);
      return {
        participantId: participant.id,
        participantEmail: participant.email,
        studyCode: study.studyCode,
        status: participant.status,
        createdAt: participant.enrolledAt.toISOString(),
        fitbitTokens: { accessToken: await repo.hasWearableAccessToken(db, participant.id) },
      };
    },

    // ---- /api/secure-auth/* ----

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
      const result = await enrolVerified(study, subject, input.sessionId, ctx);
      return { ...result, message: ENROLMENT_SERVER_MESSAGES.enrollmentCompleted };
    },
  };

  async function studyOf(studyId: string) {
    const row = await findLiveStudy(db, studyId);
    if (!row) throw verificationFailed();
    return { study: row };
  }
}

export type EnrolmentService = ReturnType<typeof createEnrolmentService>;
