import {
  ENROLMENT_STORAGE_KEY,
  WEARABLE_MESSAGES,
  WEARABLE_STORAGE_KEYS,
} from '@research/contracts';
import { fetchAuthUrl } from './get-auth-url';

/**
 * The browser side of the PKCE path. The page keeps a code verifier (32 random
 * bytes in hex), the study code and the participant data in local storage, so the callback —
 * in this tab or in a popup of it — can finish. The verifier is not Google's PKCE verifier (that
 * one never leaves the server): the server binds its SHA-256 to the state, so only this browser
 * can complete the exchange it started.
 */

export interface StoredParticipant {
  participantId: string;
  email?: string;
}

export interface StoredFlow {
  codeVerifier: string | null;
  studyCode: string | null;
  participant: StoredParticipant | null;
}

export function createCodeVerifier(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

export function readStoredFlow(): StoredFlow {
  let participant: StoredParticipant | null = null;
  const raw = localStorage.getItem(WEARABLE_STORAGE_KEYS.participantData);
  if (raw) {
    try {
      const parsed = JSON.parse(raw) as Partial<StoredParticipant>;
      if (typeof parsed.participantId === 'string') {
        participant = {
          participantId: parsed.participantId,
          ...(typeof parsed.email === 'string' ? { email: parsed.email } : {}),
        };
      }
    } catch {
      participant = null;
    }
  }
  return {
    codeVerifier: localStorage.getItem(WEARABLE_STORAGE_KEYS.codeVerifier),
    studyCode: localStorage.getItem(WEARABLE_STORAGE_KEYS.studyCode),
    participant,
  };
}

/** Removes every stored value of the flow (after completion or failure). */
export function clearStoredFlow(): void {
  for (const key of Object.values(WEARABLE_STORAGE_KEYS)) localStorage.removeItem(key);
}

/**
 * Who this tab was enrolling, from the enrolment state the participant pages keep (read here, as
 * the callback page may not reach into them): participant, study, e-mail and a session that has
 * not expired. Try Again on the callback uses it when the consent link came from the server.
 */
export function readEnrolmentForRetry(): {
  participantId: string;
  studyCode: string;
  email?: string;
  session?: string;
} | null {
  try {
    const raw = sessionStorage.getItem(ENROLMENT_STORAGE_KEY);
    if (!raw) return null;
    const state = JSON.parse(raw) as Record<string, unknown>;
    if (typeof state.participantId !== 'string' || typeof state.studyCode !== 'string') return null;
    const live =
      typeof state.sessionId === 'string' &&
      !(
        typeof state.sessionExpiresAt === 'string' &&
        Date.parse(state.sessionExpiresAt) <= Date.now()
      );
    return {
      participantId: state.participantId,
      studyCode: state.studyCode,
      ...(typeof state.email === 'string' ? { email: state.email } : {}),
      ...(live ? { session: state.sessionId as string } : {}),
    };
  } catch {
    return null;
  }
}

/**
 * After a failed callback: the flow and the tab's enrolment state (participant id, contact
 * details, session) are forgotten, so nothing about the person is left in this browser.
 */
export function forgetParticipant(): void {
  clearStoredFlow();
  try {
    sessionStorage.removeItem(ENROLMENT_STORAGE_KEY);
  } catch {
    // Storage blocked: nothing was kept.
  }
}

/**
 * Starts an authorization for a participant the page has verified: stores the flow and asks the
 * server for the consent URL. `mode` says whether the callback will run in a popup. `session` is
 * the participant session of the enrolment, needed for a first connection; without it only the
 * Google account already connected can be reconnected (the reauthorization page).
 */
export async function startAuthorization(input: {
  participantId: string;
  /** Needed without a session (a reauthorization); a session alone identifies the person. */
  email?: string | undefined;
  studyCode: string;
  mode: 'popup' | 'redirect';
  session?: string | undefined;
}): Promise<string> {
  const codeVerifier = createCodeVerifier();
  localStorage.setItem(WEARABLE_STORAGE_KEYS.codeVerifier, codeVerifier);
  localStorage.setItem(WEARABLE_STORAGE_KEYS.studyCode, input.studyCode);
  localStorage.setItem(
    WEARABLE_STORAGE_KEYS.participantData,
    JSON.stringify({
      participantId: input.participantId,
      ...(input.email ? { email: input.email } : {}),
    }),
  );
  try {
    const { authUrl } = await fetchAuthUrl(
      {
        participantId: input.participantId,
        studyCode: input.studyCode,
        ...(input.email ? { email: input.email } : {}),
        mode: input.mode,
        clientBinding: await sha256Hex(codeVerifier),
      },
      input.session,
    );
    // Anything but a web address means the server's provider settings are wrong.
    if (!/^https?:\/\//.test(authUrl ?? ''))
      throw new Error(WEARABLE_MESSAGES.configurationInvalid);
    return authUrl;
  } catch (error) {
    clearStoredFlow();
    throw error;
  }
}
