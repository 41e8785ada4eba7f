export type { Notify } from '../../../components/notification-modal';

/** The server's error text where there is one, else the fallback. */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error && error.message.trim() ? error.message : fallback;
}
