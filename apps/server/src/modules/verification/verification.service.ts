import {
  createHmac,
  hkdfSync,
  randomBytes,
  randomInt,
  randomUUID,
  timingSafeEqual,
} from 'node:crypto';
import {
  ENROLMENT_SERVER_MESSAGES,
  MAX_CODES_PER_DESTINATION_PER_HOUR,
  MAX_EMAIL_CODE_ATTEMPTS,
  PARTICIPANT_SESSION_TTL_MS,
  type ParticipantSession,
  phoneDigits,
  STUDY_CODE_MESSAGES,
  samePhone,
  toE164,
  VERIFICATION_CODE_LENGTH,
  VERIFICATION_CODE_TEXTS,
  VERIFICATION_CODE_TTL_MS,
  VERIFICATION_MESSAGES,
  VERIFICATION_RESEND_SECONDS,
  type VerificationRecord,
  type VerificationStatus,
} from '@research/contracts';
import type { Db, DbOrTx } from '../../db/client.js';
import { AppError, notFound, unauthorized } from '../../errors.js';
import type { KeyRing } from '../../platform/crypto.js';
import { randomToken, sha256Hex } from '../../platform/crypto.js';
import { renderEmail } from '../../platform/mail-templates.js';
import { recordAudit } from '../audit/audit.service.js';
import * as enrolmentRepo from '../enrolment/enrolment.repository.js';
import type { Messaging } from '../messaging/messaging.service.js';
import * as studiesRepo from '../studies/studies.repository.js';
import * as repo from './verification.repository.js';

/** The service's notion of now; tests move it to reach expiry and resend times. */
export interface Clock {
  now(): Date;
}
export const systemClock = (): Clock => ({ now: () => new Date() });

export type Channel = repo.Channel;
type StudyRow = studiesRepo.StudyRow;

/** 'P' + 16 hex characters (001 §3, §9), from the CSPRNG. */
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
  const current = keyRing.keys.get(keyRing.currentKeyId);
  if (!current) throw new Error('current encryption key missing from key ring');
  // A keyed hash: a leaked table does not let anyone test the million codes offline.
  const codeKey = Buffer.from(
    hkdfSync('sha256', current, Buffer.alloc(0), 'verification-codes', 32),
  );
  const hashCode = (codeId: string, code: string) =>
    createHmac('sha256', codeKey).update(`${codeId}:${code}`).digest('hex');
  const sameHash = (a: string, b: string) =>
    a.length === b.length && timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));

  async function studyByCode(studyCode: string) {
    const found = await studiesRepo.findLiveStudyByCode(db, studyCode);
    if (!found) throw notFound(STUDY_CODE_MESSAGES.notFound, 'STUDY_NOT_FOUND');
    return found;
  }

  /** Who is on the study for this address: the participant, else the roster entry. */
  async function membershipOf(tx: DbOrTx, studyId: string, email: string) {
    const participant = await enrolmentRepo.findLiveParticipantByEmail(tx, studyId, email);
    const roster = participant
      ? undefined
      : await enrolmentRepo.findPendingByEmail(tx, studyId, email);
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

  async function sendCode(
    channel: Channel,
    input: { participantId: string; studyCode: string; email?: string; phoneNumber?: string },
    ctx: Context,
  ) {
    const { study, subject, participant, pending } = await resolve(input);
    let destination: string;
    if (channel === 'email') {
      destination = subject.email;
    } else {
      // Only the number on record: a typed number must not redirect the code elsewhere.
      const onRecord = participant?.phoneNumber ?? pending?.phoneNumber ?? null;
      if (!onRecord || !input.phoneNumber || !samePhone(onRecord, input.phoneNumber))
        throw verificationFailed();
      destination = e164(onRecord);
    }
    const now = clock.now();
    const destinationHash = sha256Hex(`${channel}:${destination}`);
    let code = '';
    for (let i = 0; i < VERIFICATION_CODE_LENGTH; i++) code += String(randomInt(10));
    const codeId = randomUUID();
    const expiresAt = new Date(now.getTime() + VERIFICATION_CODE_TTL_MS);
    const resendAfter = new Date(now.getTime() + VERIFICATION_RESEND_SECONDS * 1000);
    await db.transaction(async (tx) => {
      // The checks and the insert under one lock (subject and channel, then destination, always
      // in this order): parallel requests see each other's code instead of both sending one.
      await repo.lockCodeSending(tx, `${subject.participantId}:${channel}`);
      await repo.lockCodeSending(tx, destinationHash);
      const previous = await repo.latestCode(tx, subject.participantId, channel);
      if (previous && previous.resendAfter > now) {
        const seconds = Math.ceil((previous.resendAfter.getTime() - now.getTime()) / 1000);
        throw new AppError(429, 'RESEND_TOO_SOON', ENROLMENT_SERVER_MESSAGES.resendWait(seconds), {
          retryAfterSeconds: seconds,
        });
      }
      const hourAgo = new Date(now.getTime() - 60 * 60 * 1000);
      if (
        (await repo.codesToDestinationSince(tx, destinationHash, hourAgo)) >=
        MAX_CODES_PER_DESTINATION_PER_HOUR
      )
        throw new AppError(429, 'TOO_MANY_CODES', ENROLMENT_SERVER_MESSAGES.tooManyCodes);
      await repo.retireOpenCodes(tx, subject.participantId, channel, now);
      await repo.insertCode(tx, {
        id: codeId,
        studyId: study.id,
        participantId: subject.participantId,
        channel,
        destinationHash,
        codeHash: hashCode(codeId, code),
        createdAt: now,
        expiresAt,
        resendAfter,
      });
      await recordAudit(tx, {
        actorId: null,
        action: `participant.${channel}_code_sent`,
        targetType: 'participant',
        targetId: subject.participantId,
        ip: ctx.ip,
      });
    });
    if (channel === 'email') {
      const mail = renderEmail({
        title: VERIFICATION_CODE_TEXTS.emailTitle,
        preheader: VERIFICATION_CODE_TEXTS.preheader(code),
        paragraphs: [
          VERIFICATION_CODE_TEXTS.emailIntro(study.name),
          code,
          VERIFICATION_CODE_TEXTS.emailExpiry,
        ],
      });
      await messaging.queueEmail('verification_code', {
        to: destination,
        subject: VERIFICATION_CODE_TEXTS.emailSubject(study.name),
        ...mail,
      });
    } else {
      await messaging.queueSms('verification_code', {
        to: destination,
        body: VERIFICATION_CODE_TEXTS.sms(code, study.name),
      });
    }
    return {
      message: VERIFICATION_MESSAGES.codeSent(channel),
      expiresAt: expiresAt.toISOString(),
      resendAfter: resendAfter.toISOString(),
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
    const code = await repo.latestCode(db, subject.participantId, channel);
    if (!code) throw new AppError(400, 'NO_CODE', VERIFICATION_MESSAGES.invalidCode);
    if (code.attempts >= MAX_EMAIL_CODE_ATTEMPTS)
      throw new AppError(400, 'TOO_MANY_ATTEMPTS', VERIFICATION_MESSAGES.tooManyAttempts, {
        attemptsUsed: code.attempts,
        maxAttempts: MAX_EMAIL_CODE_ATTEMPTS,
      });
    if (code.usedAt) throw new AppError(400, 'CODE_USED', VERIFICATION_MESSAGES.invalidCode);
    if (code.expiresAt <= now)
      throw new AppError(400, 'CODE_EXPIRED', ENROLMENT_SERVER_MESSAGES.codeExpired);

    if (!sameHash(hashCode(code.id, input.verificationCode), code.codeHash)) {
      const counted = await repo.recordWrongAttempt(db, code.id, MAX_EMAIL_CODE_ATTEMPTS, now);
      const attemptsUsed = counted?.attempts ?? MAX_EMAIL_CODE_ATTEMPTS;
      const ended = attemptsUsed >= MAX_EMAIL_CODE_ATTEMPTS;
      throw new AppError(
        400,
        ended ? 'TOO_MANY_ATTEMPTS' : 'INVALID_CODE',
        ended ? VERIFICATION_MESSAGES.tooManyAttempts : VERIFICATION_MESSAGES.invalidCode,
        { attemptsUsed, maxAttempts: MAX_EMAIL_CODE_ATTEMPTS },
      );
    }

    return db.transaction(async (tx) => {
      if (!(await repo.consumeCode(tx, code.id, MAX_EMAIL_CODE_ATTEMPTS, now)))
        throw new AppError(400, 'CODE_USED', VERIFICATION_MESSAGES.invalidCode);
      const updated = (await repo.markVerified(tx, subject.participantId, channel, now)) ?? subject;
      let session: ParticipantSession | undefined;
      // A secure-auth session of this participant becomes verified instead of opening another.
      const existing = input.sessionId
        ? await repo.findSession(tx, sha256Hex(input.sessionId), now)
        : undefined;
      if (existing && input.sessionId && existing.participantId === subject.participantId) {
        await repo.verifySession(tx, existing.tokenHash, now);
        session = {
          sessionId: input.sessionId,
          participantId: subject.participantId,
          studyCode: study.studyCode,
          verified: true,
          expiresAt: existing.expiresAt.toISOString(),
        };
      } else {
        session = await issueSession(tx, study, subject.participantId, true);
      }
      await recordAudit(tx, {
        actorId: null,
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
      const participant = await enrolmentRepo.findParticipantAnyStudy(db, input.participantId);
      const subject = participant ? undefined : await repo.findSubjectById(db, input.participantId);
      const studyId = participant?.studyId ?? subject?.studyId;
      const study = studyId ? await studiesRepo.findLiveStudy(db, studyId) : undefined;
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
     * A verified session for a live participant the server itself has just identified (e.g. the
     * wearable callback, whose single-use state was bound to the participant): the browser that
     * comes back from the provider can then complete the profile.
     */
    async sessionForParticipant(participantId: string) {
      const subjectRow = await repo.findSubjectById(db, participantId);
      if (!subjectRow) return undefined;
      const study = await studiesRepo.findLiveStudy(db, subjectRow.studyId);
      const participant = study
        ? await enrolmentRepo.findLiveParticipant(db, study.id, participantId)
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
