import { NOTIFICATION_TITLES } from '@research/contracts';
import type { Notify } from '../../../components/notification-modal';

export type { Notify };

/** The server's error text where there is one, else the fallback. */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error && error.message.trim() ? error.message : fallback;
}

/** Without a session nothing is sent: says so and answers false. */
export function requireSession(signedIn: boolean, notify: Notify, message: string): boolean {
  if (!signedIn) notify('error', NOTIFICATION_TITLES.authenticationError, message);
  return signedIn;
}

/**
 * Runs a change and tells its outcome: the success notice once it is done, else the server's
 * message (or the fallback) under the failure title.
 */
export async function notifyOutcome(
  notify: Notify,
  change: () => Promise<unknown>,
  success: [title: string, body: string],
  failure: [title: string, fallback: string],
): Promise<void> {
  try {
    await change();
    notify('success', ...success);
  } catch (error) {
    notify('error', failure[0], messageOf(error, failure[1]));
  }
}
