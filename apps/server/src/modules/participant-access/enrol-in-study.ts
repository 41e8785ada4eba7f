import { ENROLMENT_MESSAGES, ENROLMENT_SERVER_MESSAGES } from '@research/contracts';
import type { DbOrTx } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { recordAudit } from '../audit/index.js';
import {
  findLiveParticipantByEmail,
  findPendingByEmail,
  insertParticipant,
  linkPendingToParticipant,
  type PendingRow,
  participantIdTaken,
} from '../participants/index.js';
import type { StudyRow } from '../studies/index.js';
import * as repo from './enrolment.repository.js';
import { type EnrolmentDeps, notApproved, sessionView } from './enrolment-shared.js';
import * as verificationRepo from './verification.repository.js';
import { type Context, newParticipantId } from './verification.service.js';

interface EnrolDetails {
  firstName?: string;
  lastName?: string;
  selfEnrolment: boolean;
  /** Enrolment without a verified code: only for an address the study has never seen. */
  newcomerOnly?: boolean;
}

/** Becoming a participant: the one transaction that enrols, and the answer that follows it. */
export function createEnrolSteps({
  db,
  verification,
  wearableAuthUrl,
}: Pick<EnrolmentDeps, 'db' | 'verification' | 'wearableAuthUrl'>) {
  const clock = verification.clock;

  /** A subject with a new participant id for the address. */
  async function freshSubject(tx: DbOrTx, studyId: string, email: string) {
    const subject = await verificationRepo.upsertSubject(tx, {
      studyId,
      email,
      participantId: newParticipantId(),
    });
    if (!(await participantIdTaken(tx, subject.participantId))) return subject;
    // The id belongs to a deleted participant: a new enrolment starts afresh with a new id.
    await verificationRepo.deleteSubject(tx, subject.participantId);
    return verificationRepo.upsertSubject(tx, {
      studyId,
      email,
      participantId: newParticipantId(),
    });
  }

  /** The participant row, its roster entry linked to it, and the audit entry. */
  async function insertEnrolled(
    tx: DbOrTx,
    study: StudyRow,
    email: string,
    details: EnrolDetails,
    pending: PendingRow | undefined,
    now: Date,
    ctx: Context,
  ) {
    const subject = await freshSubject(tx, study.id, email);
    const inserted = await insertParticipant(tx, {
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
      const winner = await findLiveParticipantByEmail(tx, study.id, email);
      if (!winner) throw new Error('participant neither inserted nor found');
      return { participant: winner, subject, resumed: true };
    }
    if (pending) await linkPendingToParticipant(tx, pending.id, inserted.id, now);
    await recordAudit(tx, {
      actorId: null,
      studyId: study.id,
      action: 'participant.enrolled',
      targetType: 'participant',
      targetId: inserted.id,
      details: { studyId: study.id, fromRoster: Boolean(pending) },
      ip: ctx.ip,
    });
    return { participant: inserted, subject, resumed: false };
  }

  /**
   * Moves the person's roster entry to a participant (status 'enrolled', inviter kept), or
   * returns the participant they already are. One transaction: no half-enrolled rows.
   */
  async function enrolInTx(
    tx: DbOrTx,
    study: StudyRow,
    email: string,
    details: EnrolDetails,
    ctx: Context,
  ) {
    const now = clock.now();
    await repo.lockEnrolment(tx, study.id, email);
    const existing = await findLiveParticipantByEmail(tx, study.id, email);
    if (details.newcomerOnly && existing) return undefined;
    if (existing) {
      const subject = await verificationRepo.upsertSubject(tx, {
        studyId: study.id,
        email,
        participantId: existing.id,
      });
      return { participant: existing, subject, resumed: true };
    }
    const roster = await findPendingByEmail(tx, study.id, email, { lock: true });
    // A roster entry already used by an enrolment (since deleted) approves nobody again.
    const pending = roster && roster.participantId === null ? roster : undefined;
    if (details.newcomerOnly && pending) return undefined;
    if (!pending && !(details.selfEnrolment && study.settings.allowSelfEnrollment))
      throw notApproved();
    return insertEnrolled(tx, study, email, details, pending, now, ctx);
  }

  async function enrolOrFail(study: StudyRow, email: string, details: EnrolDetails, ctx: Context) {
    const enrolled = await db.transaction((tx) => enrolInTx(tx, study, email, details, ctx));
    if (!enrolled) throw new Error('enrolment of a known address without a code');
    return enrolled;
  }

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
    const { participant, resumed } = await enrolOrFail(
      study,
      subject.email,
      { selfEnrolment: false },
      ctx,
    );
    const fitbitAuthUrl = await authUrlFor(participant);
    return {
      message: resumed
        ? ENROLMENT_SERVER_MESSAGES.alreadyEnrolled
        : ENROLMENT_SERVER_MESSAGES.enrolled,
      participantId: participant.id,
      fitbitAuthUrl,
      session: sessionView(token as string, presented, study),
      alreadyEnrolled: resumed,
    };
  }

  return { enrolInTx, enrolOrFail, enrolVerified, authUrlFor };
}

export type EnrolSteps = ReturnType<typeof createEnrolSteps>;
