import {
  ENROLMENT_STORAGE_KEY,
  PARTICIPANT_SESSION_HEADER,
  type ParticipantSession,
} from '@research/contracts';
import { clearProgress, ENROLL_PROGRESS_KEY, FLOW_PROGRESS_KEY } from './progress';

/**
 * The participant session and what the pages know about the person, kept in this
 * tab's sessionStorage only: it survives the trip to Google and back, dies with the tab, and is
 * removed once the enrolment is complete. It never holds wearable tokens.
 */
export interface EnrolmentState {
  participantId: string;
  studyCode: string;
  studyName?: string;
  email?: string;
  phoneNumber?: string;
  firstName?: string;
  lastName?: string;
  sessionId?: string;
  sessionExpiresAt?: string;
}

const KEY = ENROLMENT_STORAGE_KEY;

export function readEnrolment(): EnrolmentState | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<EnrolmentState>;
    if (typeof parsed.participantId !== 'string' || typeof parsed.studyCode !== 'string')
      return null;
    return parsed as EnrolmentState;
  } catch {
    return null;
  }
}

/** Merges into the stored state; a different participant replaces it. */
export function saveEnrolment(update: EnrolmentState): EnrolmentState {
  const current = readEnrolment();
  const next =
    current && current.participantId === update.participantId ? { ...current, ...update } : update;
  try {
    sessionStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // Storage blocked: the pages still work within one visit.
  }
  return next;
}

export function saveSession(session: ParticipantSession, extra: Partial<EnrolmentState> = {}) {
  return saveEnrolment({
    ...extra,
    participantId: session.participantId,
    studyCode: session.studyCode,
    sessionId: session.sessionId,
    sessionExpiresAt: session.expiresAt,
  });
}

/** Forgets the enrolment, and with it where the enrolment pages were (progress.ts). */
export function clearEnrolment(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing stored
  }
  clearProgress(FLOW_PROGRESS_KEY);
  clearProgress(ENROLL_PROGRESS_KEY);
}

/** The session header for a participant, when this tab holds a live session of theirs. */
export function sessionHeaders(participantId: string): Record<string, string> {
  const state = readEnrolment();
  if (!state?.sessionId || state.participantId !== participantId) return {};
  if (state.sessionExpiresAt && Date.parse(state.sessionExpiresAt) <= Date.now()) return {};
  return { [PARTICIPANT_SESSION_HEADER]: state.sessionId };
}
