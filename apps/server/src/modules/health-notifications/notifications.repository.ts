import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  healthNotificationRefusals,
  healthNotifications,
  healthNotificationWork,
  type NotificationRefusal,
} from '../../db/schema/index.js';

export type NotificationRow = typeof healthNotifications.$inferSelect;
export type NewNotification = typeof healthNotifications.$inferInsert;

/**
 * Stores the notifications of one body; those already stored (same body, same position) are
 * left as they are. Answers the rows that are new and the rows already there but not yet
 * resolved (their job may have been lost: it is queued again).
 */
export async function insertNotifications(
  db: DbOrTx,
  rows: NewNotification[],
): Promise<{ inserted: string[]; unresolved: string[] }> {
  const inserted = await db
    .insert(healthNotifications)
    .values(rows)
    .onConflictDoNothing({ target: [healthNotifications.bodySha256, healthNotifications.position] })
    .returning({ id: healthNotifications.id });
  if (inserted.length === rows.length)
    return { inserted: inserted.map((r) => r.id), unresolved: [] };
  const hash = rows[0]?.bodySha256 ?? '';
  const fresh = new Set(inserted.map((r) => r.id));
  const pending = await db
    .select({ id: healthNotifications.id })
    .from(healthNotifications)
    .where(and(eq(healthNotifications.bodySha256, hash), isNull(healthNotifications.resolvedAt)));
  return {
    inserted: [...fresh],
    unresolved: pending.map((r) => r.id).filter((id) => !fresh.has(id)),
  };
}

/** The notification, locked for its job (a second copy of the job waits, then sees it resolved). */
export async function lockNotification(
  db: DbOrTx,
  id: string,
): Promise<NotificationRow | undefined> {
  const [row] = await db
    .select()
    .from(healthNotifications)
    .where(eq(healthNotifications.id, id))
    .for('update');
  return row;
}

export async function markResolved(db: DbOrTx, id: string, connectionCount: number) {
  await db
    .update(healthNotifications)
    .set({ resolvedAt: new Date(), connectionCount })
    .where(eq(healthNotifications.id, id));
}

export interface WorkKey {
  connectionId: string;
  studyId: string;
  dataType: string;
  /** 'YYYY-MM-DD', or null for the whole range. */
  day: string | null;
}

export interface WorkRow extends WorkKey {
  id: string;
  generation: number;
  deleted: boolean;
}

/**
 * One work row per (connection, data type, day): a new notification for a key already there
 * sets it pending again and bumps its generation, and a DELETE marks it for good.
 */
export async function upsertWork(
  db: DbOrTx,
  keys: WorkKey[],
  notification: { id: string; deleted: boolean },
): Promise<WorkRow[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .insert(healthNotificationWork)
    .values(
      keys.map((key) => ({
        ...key,
        deleted: notification.deleted ? 1 : 0,
        lastNotificationId: notification.id,
      })),
    )
    .onConflictDoUpdate({
      target: [
        healthNotificationWork.connectionId,
        healthNotificationWork.dataType,
        healthNotificationWork.day,
      ],
      set: {
        state: 'pending',
        generation: sql`${healthNotificationWork.generation} + 1`,
        // A row still waiting keeps a DELETE it was told of; a finished one starts afresh.
        deleted: sql`case when ${healthNotificationWork.state} in ('pending', 'processing')
          then greatest(${healthNotificationWork.deleted}, excluded.deleted)
          else excluded.deleted end`,
        lastNotificationId: sql`excluded.last_notification_id`,
        updatedAt: sql`now()`,
      },
    })
    .returning();
  return rows.map((row) => ({
    id: row.id,
    connectionId: row.connectionId,
    studyId: row.studyId,
    dataType: row.dataType,
    day: row.day,
    generation: row.generation,
    deleted: row.deleted === 1,
  }));
}

/**
 * Ends a work row, unless a newer notification set it pending again meanwhile (its generation
 * moved on): that one still needs a fetch. Answers whether the row was ended.
 */
export async function finishWork(
  db: DbOrTx,
  id: string,
  generation: number,
  state: 'done' | 'failed',
): Promise<boolean> {
  const rows = await db
    .update(healthNotificationWork)
    .set({ state, updatedAt: new Date() })
    .where(
      and(eq(healthNotificationWork.id, id), eq(healthNotificationWork.generation, generation)),
    )
    .returning({ id: healthNotificationWork.id });
  return rows.length > 0;
}

/** Adds refusals to today's (UTC) count per reason: one statement per reason. */
export async function countRefusals(db: DbOrTx, counts: Map<NotificationRefusal, number>) {
  const day = new Date().toISOString().slice(0, 10);
  for (const [reason, count] of counts) {
    await db
      .insert(healthNotificationRefusals)
      .values({ day, reason, count, lastAt: new Date() })
      .onConflictDoUpdate({
        target: [healthNotificationRefusals.day, healthNotificationRefusals.reason],
        set: {
          count: sql`${healthNotificationRefusals.count} + excluded.count`,
          lastAt: sql`excluded.last_at`,
        },
      });
  }
}

/** The refusal counts, per day and reason, newest day first (for the operator). */
export function refusalCounts(db: DbOrTx) {
  return db
    .select({
      day: healthNotificationRefusals.day,
      reason: healthNotificationRefusals.reason,
      count: healthNotificationRefusals.count,
      lastAt: healthNotificationRefusals.lastAt,
    })
    .from(healthNotificationRefusals)
    .orderBy(sql`${healthNotificationRefusals.day} desc`, healthNotificationRefusals.reason);
}
