/**
 * Settings of the web app's shell (000 §9): its API client, session storage and lazy routes. A
 * module of their own, because whatever module the shell imports travels whole in the landing
 * route's bundle (DESIGN §12), and constants.ts holds every page's constants.
 */

/** HTTP client settings (000 §9); the retry delay doubles per attempt. */
export const REQUEST_SETTINGS = {
  timeoutMs: 30_000,
  retryAttempts: 3,
  retryDelayMs: 1_000,
} as const;

/** Lazy route chunks give up after this long (000 §9). */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** Browser storage keys of the session (000 §3, §9). */
export const AUTH_STORAGE_KEYS = {
  token: 'auth_token',
  user: 'auth_user',
} as const;
