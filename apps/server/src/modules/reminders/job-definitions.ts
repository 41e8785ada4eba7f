import type { AppConfig } from '../../config.js';
import { defineJob } from '../../platform/jobs.js';

/**
 * The digest and the reminder run on their schedules (`ADHERENCE_DIGEST_CRON`, `REMINDER_CRON`;
 * `off`: no schedule). Both are safe to run again: the digest is taken once per study and day,
 * and a reminder waits its days whatever runs meanwhile.
 */
export function createRemindersJobs(deps: {
  config: AppConfig;
  retry: { limit: number; delaySeconds: number };
  handlers: { digest: () => Promise<unknown>; reminders: () => Promise<unknown> };
}) {
  const { config, retry, handlers } = deps;
  const common = {
    retryLimit: retry.limit,
    retryDelaySeconds: retry.delaySeconds,
    expireInSeconds: 30 * 60,
    concurrency: 1,
  };
  return [
    defineJob<Record<string, never>>({
      name: 'adherence-digest',
      ...common,
      ...(config.reminders.digestCron ? { cron: config.reminders.digestCron } : {}),
      handler: async () => {
        await handlers.digest();
      },
    }),
    defineJob<Record<string, never>>({
      name: 'participant-reminders',
      ...common,
      ...(config.reminders.reminderCron ? { cron: config.reminders.reminderCron } : {}),
      handler: async () => {
        await handlers.reminders();
      },
    }),
  ];
}
