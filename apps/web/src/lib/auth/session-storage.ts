import { AUTH_STORAGE_KEYS, type AuthUser } from '@research/contracts';

/** The session as kept in sessionStorage: `auth_token` and `auth_user` (JSON). */
export interface StoredSession {
  token: string;
  user: AuthUser;
}

/**
 * The stored session, or null when either entry is missing or the user does not parse. A broken
 * half of a session is worthless, so anything short of both entries clears both.
 */
export function readStoredSession(): StoredSession | null {
  try {
    const token = sessionStorage.getItem(AUTH_STORAGE_KEYS.token);
    const rawUser = sessionStorage.getItem(AUTH_STORAGE_KEYS.user);
    if (!token && !rawUser) {
      return null;
    }
    const user: unknown = rawUser ? JSON.parse(rawUser) : null;
    if (token && isUserLike(user)) {
      return { token, user };
    }
  } catch {
    // Unparsable JSON or blocked storage: fall through and clear.
  }
  clearStoredSession();
  return null;
}

export function storeSession(session: StoredSession): void {
  try {
    sessionStorage.setItem(AUTH_STORAGE_KEYS.token, session.token);
    sessionStorage.setItem(AUTH_STORAGE_KEYS.user, JSON.stringify(session.user));
  } catch {
    // Storage blocked (private mode quotas): the session lives in memory for this page only.
  }
}

export function clearStoredSession(): void {
  try {
    sessionStorage.removeItem(AUTH_STORAGE_KEYS.token);
    sessionStorage.removeItem(AUTH_STORAGE_KEYS.user);
  } catch {
    // Nothing to clear when storage is unavailable.
  }
}

function isUserLike(value: unknown): value is AuthUser {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { email?: unknown }).email === 'string'
  );
}
