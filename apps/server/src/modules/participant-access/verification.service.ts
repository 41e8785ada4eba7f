import { randomBytes } from 'node:crypto';
import {
  ENROLMENT_SERVER_MESSAGES,
  MAX_EMAIL_CODE_ATTEMPTS,
  PARTICIPANT_SESSION_TTL_MS,
  type ParticipantSession,
  phoneDigits,
  STUDY_CODE_MESSAGES,
  STUDY_DETAIL_MESSAGES,
  samePhone,
  toE164,
  VERIFICATION_MESSAGES,
  type VerificationRecord,
  type VerificationStatus,
} from '@research/contracts';
import type { Db, DbOrTx } from '../../db/client.js';
import { AppError, conflict, notFound, unauthorized } from '../../errors.js';
import type { KeyRing } from '../../platform/crypto.js';
import { randomToken, sha256Hex } from '../../platform/crypto.js';
import { recordAudit } from '../audit/index.js';
import type { Messaging } from '../messaging/index.js';
import {
  findLiveParticipantByEmail,
  findLiveParticipantInStudy,
  findParticipantAnyStudy,
  findPendingByEmail,
} from '../participants/index.js';
import { findLiveStudy, findLiveStudyByCode, type StudyRow } from '../studies/index.js';
import * as repo from './verification.repository.js';
import { createVerificationCodes } from './verification-codes.js';

/** The service's notion of now; tests move it to reach expiry and resend times. */
export interface Clock {
  now(): Date;
}
export const systemClock = (): Clock => ({ now: () => new Date() });

export type Channel = repo.Channel;

/** 'P' + 16 hex characters, from the CSPRNG: ids are shown to people, so unguessable. */
export const newParticipantId = () => `P${randomBytes(8).toString('hex')}`;

/** Twilio wants E.164; rows stored before phones were kept in E.164 hold 10 US digits. */
export const e164 = (phone: string) => toE164(phone) ?? `+1${phoneDigits(phone)}`;

export const statusOf = (subject: {
  emailVerifiedAt: Date | null;
  phoneVerifiedAt: Date | null;
}): VerificationStatus =>
  subject.emailVerifiedAt && subject.phoneVerifiedAt
    ? 'fully_verified'
    : subject.emailVerifiedAt
      ? 'email_verified'
      : subject.phoneVerifiedAt
        ? 'phone_verified'
        : 'none';

/** One answer for an unknown id, a wrong e-mail or another study's participant. */
const verificationFailed = () =>
  new AppError(400, 'VERIFICATION_FAILED', VERIFICATION_MESSAGES.failed);

export interface VerificationDeps {
  db: Db;
  messaging: Messaging;
  keyRing: KeyRing;
  clock: Clock;
}

export interface Context {
  ip: string;
}

export function createVerificationService({ db, messaging, keyRing, clock }: VerificationDeps) {
  const codes = createVerificationCodes({ db, messaging, keyRing });
  async function studyByCode(studyCode: string) {
    const found = await findLiveStudyByCode(db, studyCode);
    if (!found) throw notFound(STUDY_CODE_MESSAGES.notFound, 'STUDY_NOT_FOUND');
    return found;
  }

  /** Who is on the study for this address: the participant, else the roster entry. */
  async function membershipOf(tx: DbOrTx, studyId: string, email: string) {
    const participant = await findLiveParticipantByEmail(tx, studyId, email);
    const roster = participant ? undefined : await findPendingByEmail(tx, studyId, email);
    // A roster entry already used by an enrolment (since deleted) approves nobody again.
    const pending = roster && roster.participantId === null ? roster : undefined;
    return { participant, pending };
  }

  /**
   * The subject a (participantId, studyCode, e-mail or phone) triple names, if it is still on
   * the study. Any mismatch gives the same answer, so nothing is learnt about other studies.
   */
  async function resolve(input: { participantId: string; studyCode: string; email?: string }) {
    const { study } = await studyByCode(input.studyCode);
    const subject = await repo.findSubjectById(db, input.participantId);
    if (!subject || subject.studyId !== study.id) throw verificationFailed();
    if (input.email !== undefined && subject.email !== input.email) throw verificationFailed();
    const member = await membershipOf(db, study.id, subject.email);
    // Off the roster, only a study open to self-enrolment has subjects (direct enrolment made
    // them, and they become participants once a code is verified).
    if (!member.participant && !member.pending && !study.settings.allowSelfEnrollment)
      throw verificationFailed();
    return { study, subject, ...member };
  }

  const recordOf = (subject: repo.SubjectRow, studyCode: string): VerificationRecord => ({
    participantId: subject.participantId,
    email: subject.email,
    studyCode,
    verificationStatus: statusOf(subject),
    emailVerifiedAt: subject.emailVerifiedAt?.toISOString() ?? null,
    phoneVerifiedAt: subject.phoneVerifiedAt?.toISOString() ?? null,
  });

  async function issueSession(
    tx: DbOrTx,
    study: StudyRow,
    participantId: string,
    verified: boolean,
  ): Promise<ParticipantSession> {
    const token = randomToken(32);
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + PARTICIPANT_SESSION_TTL_MS);
    await repo.deleteExpiredSessions(tx, participantId, now);
    await repo.insertSession(tx, {
      tokenHash: sha256Hex(token),
      studyId: study.id,
      participantId,
      verifiedAt: verified ? now : null,
      createdAt: now,
      expiresAt,
    });
    return {
      sessionId: token,
      participantId,
      studyCode: study.studyCode,
      verified,
      expiresAt: expiresAt.toISOString(),
    };
  }

  /** The live session a token names, or undefined (unknown, expired). */
  async function readSession(token: string | undefined) {
    if (!token) return undefined;
    return repo.findSession(db, sha256Hex(token), clock.now());
  }

  /** Where a code goes: the subject's address, or only the number on record for a text. */
  function destinationOf(
    channel: Channel,
    resolved: Awaited<ReturnType<typeof resolve>>,
    typedPhone: string | undefined,
  ): string {
    if (channel === 'email') return resolved.subject.email;
    // Only the number on record: a typed number must not redirect the code elsewhere.
    const onRecord = resolved.participant?.phoneNumber ?? resolved.pending?.phoneNumber ?? null;
    if (!onRecord || !typedPhone || !samePhone(onRecord, typedPhone)) throw verificationFailed();
    return e164(onRecord);
  }

  async function sendCode(
    channel: Channel,
    input: { participantId: string; studyCode: string; email?: string; phoneNumber?: string },
    ctx: Context,
  ) {
    const resolved = await resolve(input);
    const { study, subject } = resolved;
    const destination = destinationOf(channel, resolved, input.phoneNumber);
    const now = clock.now();
    const code = codes.newCode();
    const { expiresAt, resendAfter } = await codes.store(
      { channel, studyId: study.id, participantId: subject.participantId, destination },
      code,
      now,
      ctx,
    );
    await codes.deliver(channel, destination, code, study);
    return {
      message: VERIFICATION_MESSAGES.codeSent(channel),
      expiresAt: expiresAt.toISOString(),
      resendAfter: resendAfter.toISOString(),
    };
  }

  /** A secure-auth session of this participant becomes verified instead of opening another. */
  async function verifiedSession(
    tx: DbOrTx,
    study: StudyRow,
    participantId: string,
    sessionId: string | undefined,
    now: Date,
  ): Promise<ParticipantSession> {
    const existing = sessionId ? await repo.findSession(tx, sha256Hex(sessionId), now) : undefined;
    if (!existing || !sessionId || existing.participantId !== participantId)
      return issueSession(tx, study, participantId, true);
    await repo.verifySession(tx, existing.tokenHash, now);
    return {
      sessionId,
      participantId,
      studyCode: study.studyCode,
      verified: true,
      expiresAt: existing.expiresAt.toISOString(),
    };
  }

  async function verifyCode(
    channel: Channel,
    input: {
      participantId: string;
      studyCode: string;
      email?: string;
      phoneNumber?: string;
      verificationCode: string;
      sessionId?: string | undefined;
    },
    ctx: Context,
  ) {
    const { study, subject } = await resolve(input);
    const now = clock.now();
    const code = await codes.matching(subject.participantId, channel, input.verificationCode, now);
    return db.transaction(async (tx) => {
      if (!(await repo.consumeCode(tx, code.id, MAX_EMAIL_CODE_ATTEMPTS, now)))
        throw new AppError(400, 'CODE_USED', VERIFICATION_MESSAGES.invalidCode);
      const updated = (await repo.markVerified(tx, subject.participantId, channel, now)) ?? subject;
      const session = await verifiedSession(tx, study, subject.participantId, input.sessionId, now);
      await recordAudit(tx, {
        actorId: null,
        studyId: study.id,
        action: `participant.${channel}_verified`,
        targetType: 'participant',
        targetId: subject.participantId,
        ip: ctx.ip,
      });
      return {
        message:
          channel === 'email'
            ? VERIFICATION_MESSAGES.emailSuccess
            : VERIFICATION_MESSAGES.phoneSuccess,
        data: recordOf(updated, study.studyCode),
        session,
      };
    });
  }

  return {
    clock,
    studyByCode,
    membershipOf,
    recordOf,
    issueSession,
    readSession,
    sendCode,
    verifyCode,

    /**
     * The verification record, to this participant's own verified session. Anyone else (who may
     * know the id, e-mail and study code from an invitation) gets the record of an address not yet
     * verified, the same for every person on the study.
     */
    async status(
      input: { participantId: string; studyCode: string; email: string },
      token: string | undefined,
    ) {
      const { study, subject } = await resolve(input);
      const session = await readSession(token);
      if (session?.participantId === subject.participantId && session.verifiedAt)
        return recordOf(subject, study.studyCode);
      return recordOf(
        { ...subject, emailVerifiedAt: null, phoneVerifiedAt: null },
        study.studyCode,
      );
    },

    /**
     * The study code of the person an (id, e-mail) pair names, invited or enrolled alike (the
     * reauthorization page's first call): nothing else, since the pair proves nothing.
     */
    async studyCodeOf(input: { participantId: string; email: string }) {
      const email = input.email.trim().toLowerCase();
      const participant = await findParticipantAnyStudy(db, input.participantId);
      const subject = participant ? undefined : await repo.findSubjectById(db, input.participantId);
      const studyId = participant?.studyId ?? subject?.studyId;
      const study = studyId ? await findLiveStudy(db, studyId) : undefined;
      if (!study) return undefined;
      if (participant) {
        if (participant.deletedAt || participant.email !== email) return undefined;
      } else {
        // Not enrolled yet: a person on the roster, named by the id check-pending gave them.
        if (!subject || subject.email !== email) return undefined;
        if (!(await membershipOf(db, study.id, email)).pending) return undefined;
      }
      return { participantId: input.participantId, email, studyCode: study.studyCode };
    },

    /**
     * A researcher changed an enrolled participant's address (`email`, lower-cased; no other live
     * participant of the study has it). Whoever holds the new address is the participant from now
     * on, and the old one proves nothing: the new address is not yet verified, the participant's
     * sessions end and codes sent to the old address no longer count. A verification subject that
     * someone started for the new address without becoming a participant gives way.
     */
    async changeEmail(tx: DbOrTx, studyId: string, participantId: string, email: string) {
      const now = clock.now();
      const other = await repo.findSubjectByEmail(tx, studyId, email);
      if (other && other.participantId !== participantId) {
        if (await findLiveParticipantInStudy(tx, studyId, other.participantId))
          throw conflict(STUDY_DETAIL_MESSAGES.participantEmailTaken, 'PARTICIPANT_EMAIL_TAKEN');
        await repo.deleteSubject(tx, other.participantId);
      }
      await repo.moveSubject(tx, participantId, email, now);
      await repo.retireOpenCodes(tx, participantId, 'email', now);
      await repo.deleteSessions(tx, participantId);
    },

    /**
     * A verified session for a live participant the server itself has just identified (e.g. the
     * wearable callback, whose single-use state was bound to the participant): the browser that
     * comes back from the provider can then complete the profile.
     */
    async sessionForParticipant(participantId: string) {
      const subjectRow = await repo.findSubjectById(db, participantId);
      if (!subjectRow) return undefined;
      const study = await findLiveStudy(db, subjectRow.studyId);
      const participant = study
        ? await findLiveParticipantInStudy(db, study.id, participantId)
        : undefined;
      if (!study || !participant) return undefined;
      return issueSession(db, study, participantId, true);
    },

    /**
     * The verified session of this participant in this study, or a 401/403: what update-info,
     * enrolment and the wearable step require. Knowing an id is never enough.
     */
    async requireSession(
      token: string | undefined,
      expected: { participantId?: string; studyId?: string },
      options: { verified?: boolean } = { verified: true },
    ) {
      const session = await readSession(token);
      if (!session)
        throw unauthorized(
          ENROLMENT_SERVER_MESSAGES.sessionRequired,
          'PARTICIPANT_SESSION_REQUIRED',
        );
      if (
        (expected.participantId !== undefined &&
          session.participantId !== expected.participantId) ||
        (expected.studyId !== undefined && session.studyId !== expected.studyId)
      )
        throw new AppError(
          403,
          'PARTICIPANT_SESSION_MISMATCH',
          ENROLMENT_SERVER_MESSAGES.sessionMismatch,
        );
      if (options.verified !== false && !session.verifiedAt)
        throw new AppError(
          403,
          'VERIFICATION_REQUIRED',
          ENROLMENT_SERVER_MESSAGES.verificationRequired,
        );
      return session;
    },
  };
}

export type VerificationService = ReturnType<typeof createVerificationService>;
