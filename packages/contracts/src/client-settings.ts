/**
 * Settings of the web app's shell: its API client, session storage and lazy routes. A
 * module of their own, because whatever module the shell imports travels whole in the landing
 * route's bundle, and constants.ts holds every page's constants.
 */

/** HTTP client settings; the retry delay doubles per attempt. */
export const REQUEST_SETTINGS = {
  timeoutMs: 30_000,
  retryAttempts: 3,
  retryDelayMs: 1_000,
} as const;

/** Lazy route chunks give up after this long. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** Browser storage keys of the session. */
export const AUTH_STORAGE_KEYS = {
  token: 'auth_token',
  user: 'auth_user',
} as const;
