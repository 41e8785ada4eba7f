import { formatInvitePhone, PHONE_DIGITS, phoneDigits } from '@research/contracts';
import type { NotificationContent } from '../../../components/notification-modal';

/** Opens the page's notification modal. */
export type Notify = (type: NotificationContent['type'], title: string, message: string) => void;

/** The server's error text where there is one, else the fallback. */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error && error.message.trim() ? error.message : fallback;
}

/**
 * A stored phone as the study screen shows it: ten bare digits (how the server stores them) in
 * the invite format '(111) - 0000 - 000'; anything else as stored.
 */
export function displayPhone(value: string): string {
  return /^\d+$/.test(value) && phoneDigits(value).length === PHONE_DIGITS
    ? formatInvitePhone(value)
    : value;
}
