import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import { defineJob } from '../../platform/jobs.js';
import { purgeSendCounters } from '../../platform/send-counters.js';
import { purgeExpiredAuthRows } from './auth.repository.js';
import { THROTTLE_WINDOW_MS } from './auth.service.js';

export interface AuthPurgeDeps {
  db: Db;
  config: AppConfig;
}

/**
 * Expired OAuth states, sign-in counters and failures past their window, ended sessions and
 * expired single-use links are of no use once over, and each row is one more thing to guard.
 */
export const purgeExpiredAuthData = ({ db, config }: AuthPurgeDeps, now = new Date()) =>
  purgeExpiredAuthRows(db, {
    now,
    failureWindowMs: THROTTLE_WINDOW_MS,
    sessionIdleMs: config.sessions.idleMinutes * 60_000,
  });

/** Runs the purge every hour (at minute 23). */
export const createAuthPurgeJob = (deps: AuthPurgeDeps) =>
  defineJob<object>({
    name: 'purge-expired-auth-data',
    retryLimit: 3,
    retryDelaySeconds: 300,
    concurrency: 1,
    cron: '23 * * * *',
    handler: async () => {
      await purgeExpiredAuthData(deps);
      // The mail limits' counters are throttling state of the same kind.
      await purgeSendCounters(deps.db);
    },
  });
