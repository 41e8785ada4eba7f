import { inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { sendCounters } from '../db/schema/index.js';
import { sha256Hex } from './crypto.js';

export type SendScope = (typeof sendCounters.$inferSelect)['scope'];

/** The longest window of any scope: rows older than this count for nothing. */
export const SEND_COUNTER_MAX_WINDOW_MS = 24 * 60 * 60_000;

/** A counter key from its parts; only its hash is stored. */
export const sendKey = (...parts: string[]) => sha256Hex(parts.join('\n'));

/**
 * Counts one send for each key (distinct keys) and returns each key's count in its current
 * window, in one statement: the row lock of `on conflict do update` serialises parallel requests,
 * so each gets its own number, and inside a transaction the count goes away with a rollback.
 */
export async function countSends(
  db: DbOrTx,
  scope: SendScope,
  keyHashes: readonly string[],
  windowMs: number,
  now = new Date(),
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (keyHashes.length === 0) return counts;
  const at = sql`${now.toISOString()}::timestamptz`;
  const stale = sql`${sendCounters.windowStartedAt} <= ${new Date(now.getTime() - windowMs).toISOString()}::timestamptz`;
  const rows = await db
    .insert(sendCounters)
    .values(keyHashes.map((keyHash) => ({ scope, keyHash, count: 1, windowStartedAt: now })))
    .onConflictDoUpdate({
      target: [sendCounters.scope, sendCounters.keyHash],
      set: {
        count: sql`case when ${stale} then 1 else ${sendCounters.count} + 1 end`,
        windowStartedAt: sql`case when ${stale} then ${at} else ${sendCounters.windowStartedAt} end`,
      },
    })
    .returning({ keyHash: sendCounters.keyHash, count: sendCounters.count });
  for (const row of rows) counts.set(row.keyHash, row.count);
  return counts;
}

/** Sends counted but refused or not made: they no longer count. */
export async function uncountSends(db: DbOrTx, scope: SendScope, keyHashes: readonly string[]) {
  if (keyHashes.length === 0) return;
  await db
    .update(sendCounters)
    .set({ count: sql`greatest(${sendCounters.count} - 1, 0)` })
    .where(
      sql`${sendCounters.scope} = ${scope} and ${inArray(sendCounters.keyHash, [...keyHashes])}`,
    );
}

/** Deletes counters whose window is over whatever their scope; returns how many. */
export async function purgeSendCounters(db: DbOrTx, now = new Date()): Promise<number> {
  const rows = await db
    .delete(sendCounters)
    .where(lt(sendCounters.windowStartedAt, new Date(now.getTime() - SEND_COUNTER_MAX_WINDOW_MS)))
    .returning({ key: sendCounters.keyHash });
  return rows.length;
}
