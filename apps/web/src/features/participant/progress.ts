/**
 * Where a participant is in an enrolment page, so that a reload resumes it: kept in this tab's
 * sessionStorage (like the session in session.ts, never localStorage), with an end after which
 * it is dropped. It holds what the page shows and was typed, never a code or a session token.
 */

interface Stored<T> {
  expiresAt: number;
  value: T;
}

export const FLOW_PROGRESS_KEY = 'participant_flow_progress';
export const ENROLL_PROGRESS_KEY = 'participant_enroll_progress';

/**
 * Whether this document came from a reload or a step through the history, not from following a
 * link or typing the address: only then does a page resume, so a fresh visit starts afresh.
 */
function returningLoad(): boolean {
  const entry = globalThis.performance?.getEntriesByType?.('navigation')[0] as
    | PerformanceNavigationTiming
    | undefined;
  return !entry || entry.type === 'reload' || entry.type === 'back_forward';
}

export function readProgress<T>(key: string, now = Date.now()): T | null {
  if (!returningLoad()) return null;
  try {
    const raw = sessionStorage.getItem(key);
    if (!raw) return null;
    const stored = JSON.parse(raw) as Partial<Stored<T>>;
    if (typeof stored.expiresAt !== 'number' || stored.expiresAt <= now || !stored.value) {
      sessionStorage.removeItem(key);
      return null;
    }
    return stored.value;
  } catch {
    return null;
  }
}

export function saveProgress<T>(key: string, value: T, expiresAt: number): void {
  try {
    sessionStorage.setItem(key, JSON.stringify({ expiresAt, value } satisfies Stored<T>));
  } catch {
    // Storage blocked: a reload starts over, as it always did.
  }
}

export function clearProgress(key: string): void {
  try {
    sessionStorage.removeItem(key);
  } catch {
    // nothing stored
  }
}

/** A code as the send call answered it: when the next may be asked for, when it ends. */
export interface SentCode {
  resendAfter: string;
  expiresAt: string;
}

/** The code if it still works. */
export function liveCode(sent: SentCode | undefined, now = Date.now()): SentCode | undefined {
  return sent && Date.parse(sent.expiresAt) > now ? sent : undefined;
}
