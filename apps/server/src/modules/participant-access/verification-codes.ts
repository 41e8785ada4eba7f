import { createHmac, hkdfSync, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  ENROLMENT_SERVER_MESSAGES,
  MAX_CODES_PER_DESTINATION_PER_HOUR,
  MAX_EMAIL_CODE_ATTEMPTS,
  VERIFICATION_CODE_LENGTH,
  VERIFICATION_CODE_TEXTS,
  VERIFICATION_CODE_TTL_MS,
  VERIFICATION_MESSAGES,
  VERIFICATION_RESEND_SECONDS,
} from '@research/contracts';
import type { Db } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { type KeyRing, sha256Hex } from '../../platform/crypto.js';
import { renderEmail } from '../../platform/mail-templates.js';
import { recordAudit } from '../audit/index.js';
import type { Messaging } from '../messaging/index.js';
import type { StudyRow } from '../studies/index.js';
import * as repo from './verification.repository.js';
import type { Channel, Context } from './verification.service.js';

/**
 * The codes themselves: made, stored (keyed hash only, under the resend and per-destination
 * limits), delivered, and checked. Which subject and destination a code is for is the
 * verification service's business.
 */
export function createVerificationCodes({
  db,
  messaging,
  keyRing,
}: {
  db: Db;
  messaging: Messaging;
  keyRing: KeyRing;
}) {
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

  /** A code of VERIFICATION_CODE_LENGTH digits from the CSPRNG. */
  function newCode(): string {
    let code = '';
    for (let i = 0; i < VERIFICATION_CODE_LENGTH; i++) code += String(randomInt(10));
    return code;
  }

  /**
   * Stores a new code for (subject, channel), retiring the open one, unless the last one is too
   * recent or the destination had its hourly share. The checks and the insert run under one lock
   * (subject and channel, then destination, always in this order): parallel requests see each
   * other's code instead of both sending one.
   */
  async function storeCode(
    sending: { channel: Channel; studyId: string; participantId: string; destination: string },
    code: string,
    now: Date,
    ctx: Context,
  ) {
    const { channel, participantId } = sending;
    const destinationHash = sha256Hex(`${channel}:${sending.destination}`);
    const codeId = randomUUID();
    const expiresAt = new Date(now.getTime() + VERIFICATION_CODE_TTL_MS);
    const resendAfter = new Date(now.getTime() + VERIFICATION_RESEND_SECONDS * 1000);
    await db.transaction(async (tx) => {
      await repo.lockCodeSending(tx, `${participantId}:${channel}`);
      await repo.lockCodeSending(tx, destinationHash);
      const previous = await repo.latestCode(tx, participantId, channel);
      // The wait keeps a second code from chasing one still on its way. A code already accepted
      // is not on its way: someone who verified and comes back at once gets a new one.
      const accepted = previous?.usedAt != null && previous.attempts < MAX_EMAIL_CODE_ATTEMPTS;
      if (previous && !accepted && previous.resendAfter > now) {
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
      await repo.retireOpenCodes(tx, participantId, channel, now);
      await repo.insertCode(tx, {
        id: codeId,
        studyId: sending.studyId,
        participantId,
        channel,
        destinationHash,
        codeHash: hashCode(codeId, code),
        createdAt: now,
        expiresAt,
        resendAfter,
      });
      await recordAudit(tx, {
        actorId: null,
        studyId: sending.studyId,
        action: `participant.${channel}_code_sent`,
        targetType: 'participant',
        targetId: participantId,
        ip: ctx.ip,
      });
    });
    return { expiresAt, resendAfter };
  }

  /** Queues the mail or text carrying the code, ahead of any mailing (the person is waiting). */
  async function deliverCode(channel: Channel, destination: string, code: string, study: StudyRow) {
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
      await messaging.queueEmail(
        'verification_code',
        { to: destination, subject: VERIFICATION_CODE_TEXTS.emailSubject(study.name), ...mail },
        { awaited: true },
      );
    } else {
      await messaging.queueSms(
        'verification_code',
        { to: destination, body: VERIFICATION_CODE_TEXTS.sms(code, study.name) },
        { awaited: true },
      );
    }
  }

  /**
   * The subject's latest code for the channel if `typed` matches it; otherwise the answer says
   * why (none, used up, used, expired, wrong: a wrong guess is counted).
   */
  async function matchingCode(participantId: string, channel: Channel, typed: string, now: Date) {
    const code = await repo.latestCode(db, participantId, channel);
    if (!code) throw new AppError(400, 'NO_CODE', VERIFICATION_MESSAGES.invalidCode);
    if (code.attempts >= MAX_EMAIL_CODE_ATTEMPTS)
      throw new AppError(400, 'TOO_MANY_ATTEMPTS', VERIFICATION_MESSAGES.tooManyAttempts, {
        attemptsUsed: code.attempts,
        maxAttempts: MAX_EMAIL_CODE_ATTEMPTS,
      });
    if (code.usedAt) throw new AppError(400, 'CODE_USED', VERIFICATION_MESSAGES.invalidCode);
    if (code.expiresAt <= now)
      throw new AppError(400, 'CODE_EXPIRED', ENROLMENT_SERVER_MESSAGES.codeExpired);

    if (!sameHash(hashCode(code.id, typed), code.codeHash)) {
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
    return code;
  }

  return { newCode, store: storeCode, deliver: deliverCode, matching: matchingCode };
}
