import { CONSENT_HOLD_REASONS } from '@research/contracts';
import type { DbOrTx } from '../../db/client.js';
import { findLiveStudy } from '../studies/index.js';
import * as repo from './consent.repository.js';

/**
 * The one answer to "may this participant's data be fetched?", asked by every job that calls
 * Google for a participant (collection's days, sweep and notification work; extraction's jobs),
 * not only by the pages. A participant is held back when they withdrew, or when their study
 * requires consent and they have not signed the version in force (a version published with
 * re-consent asked replaces earlier signatures; none published holds everyone back).
 */

export type ConsentHold = keyof typeof CONSENT_HOLD_REASONS;

export interface GateSubject {
  participantId: string;
  studyId: string;
}

/** Why the participant is held back, or null when they may be fetched. */
export async function consentHoldOf(db: DbOrTx, subject: GateSubject): Promise<ConsentHold | null> {
  if (await repo.findWithdrawal(db, subject.participantId)) return 'withdrawn';
  const study = await findLiveStudy(db, subject.studyId);
  // A study gone: the jobs' own checks stop there; nothing is held back here for it.
  if (study?.settings.consentRequired !== true) return null;
  const { requiredNumber } = await repo.versionInForce(db, subject.studyId);
  if (requiredNumber === null) return 'consent_pending';
  const signed = await repo.hasSignatureFrom(
    db,
    subject.studyId,
    subject.participantId,
    requiredNumber,
  );
  return signed ? null : 'consent_pending';
}

/** The text a run's job or a log line gives for a hold. */
export const consentHoldReason = (hold: ConsentHold) => CONSENT_HOLD_REASONS[hold];

/** The study's live participants who are held back, and why (the screens show it). */
export async function heldBackOfStudy(
  db: DbOrTx,
  studyId: string,
  participantIds: readonly string[],
  consentRequired: boolean,
): Promise<{ participantId: string; state: 'pending' | 'withdrawn' }[]> {
  const withdrawn = new Set(
    (await repo.withdrawalsOfStudy(db, studyId)).map((w) => w.participantId),
  );
  const held: { participantId: string; state: 'pending' | 'withdrawn' }[] = [];
  const { requiredNumber } = consentRequired
    ? await repo.versionInForce(db, studyId)
    : { requiredNumber: null };
  const signed = consentRequired ? await repo.highestSignedVersions(db, studyId) : new Map();
  for (const participantId of participantIds) {
    if (withdrawn.has(participantId)) held.push({ participantId, state: 'withdrawn' });
    else if (
      consentRequired &&
      (requiredNumber === null || (signed.get(participantId) ?? 0) < requiredNumber)
    )
      held.push({ participantId, state: 'pending' });
  }
  return held;
}

/** Which of the study's participants are held back (reminders and other mail leave them alone). */
export async function heldBackAmong(
  db: DbOrTx,
  studyId: string,
  participantIds: readonly string[],
): Promise<Set<string>> {
  if (participantIds.length === 0) return new Set();
  const study = await findLiveStudy(db, studyId);
  const held = await heldBackOfStudy(
    db,
    studyId,
    participantIds,
    study?.settings.consentRequired === true,
  );
  return new Set(held.map((h) => h.participantId));
}
