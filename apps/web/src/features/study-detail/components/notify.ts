import type { NotificationContent } from '../../../components/notification-modal';

/** Opens the page's notification modal (the §8 toasts). */
export type Notify = (type: NotificationContent['type'], title: string, message: string) => void;

/** The server's error text where there is one, else the fallback (001 §8). */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error && error.message.trim() ? error.message : fallback;
}
