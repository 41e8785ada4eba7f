import { REMINDER_MESSAGES } from '@research/contracts';
import { AppError } from '../../errors.js';
import { sha256Hex } from '../../platform/crypto.js';
import type { StudyAccess } from '../studies/index.js';
import { createDigest } from './digest.js';
import { createRemindersJobs } from './job-definitions.js';
import { createParticipantReminders } from './participant-reminders.js';
import * as repo from './reminders.repository.js';
import type { RemindersContext } from './reminders-context.js';

/**
 * Adherence alerts: the members' daily digest and their choice of it, the participants'
 * reminders and the stop link. The schedules read `now` from the context's clock.
 */
export function createRemindersService(
  deps: Omit<RemindersContext, 'now'> & {
    now?: () => Date;
    retry: { limit: number; delaySeconds: number };
  },
) {
  const ctx: RemindersContext = { ...deps, now: deps.now ?? (() => new Date()) };
  const runDigest = createDigest(ctx);
  const runReminders = createParticipantReminders(ctx);

  return {
    runDigest,
    runReminders,
    jobs: createRemindersJobs({
      config: deps.config,
      retry: deps.retry,
      handlers: { digest: () => runDigest(), reminders: () => runReminders() },
    }),

    /** The caller's own choice; without one, the owner gets the digest and collaborators not. */
    async digestPreference(access: StudyAccess, userId: string): Promise<boolean> {
      const chosen = await repo.digestPreferenceOf(ctx.db, access.study.id, userId);
      return chosen ?? access.role === 'main';
    },

    async setDigestPreference(
      access: StudyAccess,
      userId: string,
      enabled: boolean,
    ): Promise<boolean> {
      await repo.setDigestPreference(ctx.db, access.study.id, userId, enabled);
      return enabled;
    },

    /** The stop link: no more reminders for its participant. Any other token: 400. */
    async stop(token: string): Promise<void> {
      const reminder = await repo.reminderByTokenHash(ctx.db, sha256Hex(token));
      if (!reminder)
        throw new AppError(400, 'REMINDER_LINK_INVALID', REMINDER_MESSAGES.linkInvalid);
      await repo.stopParticipant(ctx.db, reminder, ctx.now());
    },
  };
}

export type RemindersService = ReturnType<typeof createRemindersService>;
