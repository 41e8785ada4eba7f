import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Messaging } from '../messaging/index.js';

/** What the digest, the reminders and the stop link run on. */
export interface RemindersContext {
  db: Db;
  config: AppConfig;
  messaging: Messaging;
  /** The clock every schedule reads (tests set it). */
  now: () => Date;
}

export const DAY_MS = 86_400_000;

/** The UTC calendar day of an instant, yyyy-mm-dd. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/** "Ada Lovelace", or null when the participant gave no name. */
export const fullName = (p: { firstName: string | null; lastName: string | null }) =>
  [p.firstName, p.lastName].filter(Boolean).join(' ') || null;
