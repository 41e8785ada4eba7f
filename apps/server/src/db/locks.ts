import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from './client.js';

/**
 * A participant's collected data as a whole, held to the end of the transaction: every dataset
 * write takes it shared (writes of different partitions run side by side), a withdrawal takes it
 * alone. So a withdrawal waits for writes already under way, and a write that starts after it
 * sees it; nothing lands after the data is removed.
 */
export async function lockParticipantData(
  tx: DbOrTx,
  participantId: string,
  mode: 'shared' | 'exclusive',
): Promise<void> {
  await tx.execute(participantDataLock(participantId, mode));
}

/** The statement that takes the lock above, for a caller that adds its own locks to it. */
export function participantDataLock(participantId: string, mode: 'shared' | 'exclusive'): SQL {
  const key = `participant-data:${participantId}`;
  return mode === 'shared'
    ? sql`select pg_advisory_xact_lock_shared(hashtextextended(${key}, 0))`
    : sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
}
