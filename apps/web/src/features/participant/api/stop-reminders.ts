import { adherenceApi } from '@research/contracts';
import { callOperation } from '../../../lib/api-client';

/** Follows a reminder's stop link: no more reminders for its participant. */
export function stopReminders(token: string) {
  return callOperation(adherenceApi.stopReminders, { body: { token } }, { token: null });
}
