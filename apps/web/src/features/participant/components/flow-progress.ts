import {
  PARTICIPANT_SESSION_HEADER,
  type PendingParticipantView,
  VERIFICATION_CODE_TTL_MS,
  VERIFICATION_RESEND_SECONDS,
} from '@research/contracts';
import type { StudyLookup } from '../api/lookup-study';
import { FLOW_PROGRESS_KEY, liveCode, readProgress, type SentCode } from '../progress';
import { sessionHeaders } from '../session';
import type { VerificationMethod } from './flow-steps';

/**
 * The steps of /participant/flow and what a reload resumes: the step, the study, what was typed
 * and the sent codes' times, never past what still holds (a live code, a live session).
 */

/** What /participant/verify-email hands over. */
export interface FlowNavigationState {
  participantId?: string;
  email?: string;
  studyCode?: string;
  studyName?: string;
  participantData?: { phoneNumber?: string | null; verificationStatus?: string };
}

export const STEP = {
  studyCode: 0,
  contact: 1,
  pending: 2,
  method: 3,
  code: 4,
  authorize: 5,
  profile: 6,
  complete: 7,
} as const;

/** What a reload of the page resumes (see progress.ts): no code, no session token. */
export interface FlowProgress {
  step: number;
  study: StudyLookup | null;
  email: string;
  phone: string;
  participant: PendingParticipantView | null;
  method: VerificationMethod;
  sent: Partial<Record<VerificationMethod, SentCode>>;
  alreadyEnrolled: boolean;
}

/** The step a stored progress may resume at: never past what still holds (code, session). */
function resumableStep(saved: FlowProgress): number {
  if (!saved.study) return STEP.studyCode;
  if (saved.step <= STEP.contact) return saved.step;
  if (saved.step === STEP.pending || !saved.participant) return STEP.contact;
  if (saved.step === STEP.code) return liveCode(saved.sent[saved.method]) ? STEP.code : STEP.method;
  if (saved.step >= STEP.authorize)
    return sessionHeaders(saved.participant.participantId)[PARTICIPANT_SESSION_HEADER]
      ? Math.min(saved.step, STEP.profile)
      : STEP.method;
  return saved.step;
}

/** The stored progress, unless the navigation hands over another participant. */
export function restoredProgress(handed: FlowNavigationState | null): FlowProgress | null {
  const saved = readProgress<FlowProgress>(FLOW_PROGRESS_KEY);
  if (!saved) return null;
  if (handed?.participantId && saved.participant?.participantId !== handed.participantId)
    return null;
  return { ...saved, sent: saved.sent ?? {}, step: resumableStep(saved) };
}

/** A code the server says was sent less than 30 s ago (its exact times stayed elsewhere). */
export function recentCode(retryAfterSeconds: unknown): SentCode {
  const wait = typeof retryAfterSeconds === 'number' ? retryAfterSeconds : 0;
  const resendAfter = Date.now() + wait * 1000;
  const sentAt = resendAfter - VERIFICATION_RESEND_SECONDS * 1000;
  return {
    resendAfter: new Date(resendAfter).toISOString(),
    expiresAt: new Date(sentAt + VERIFICATION_CODE_TTL_MS).toISOString(),
  };
}
