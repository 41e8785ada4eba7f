import { and, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  healthNotificationRefusals,
  healthNotifications,
  healthNotificationWork,
  type NotificationRefusal,
} from '../../db/schema/index.js';

export type NotificationRow = typeof healthNotifications.$inferSelect;

/** A notification to store: its place in the body it came in, its key fields, its JSON text. */
export interface IncomingNotification {
  bodySha256: string;
  /** 0 for a body holding one notification; its index when the body is a JSON array. */
  position: number;
  healthUserId: string;
  operation: 'UPSERT' | 'DELETE';
  dataType: string;
  /** The notification as it arrived (for a single notification, the body itself). */
  payloadJson: string;
}

/**
 * Stores notifications (of one body or of many) in one statement, leaving those already stored
 * (same body, same position) as they are: Google sends a body again until it gets a 204. The
 * columns go as arrays and the JSON is parsed by the database: under a burst, building a
 * many-row insert value by value cost more than the insert.
 */
export async function insertNotifications(db: DbOrTx, rows: IncomingNotification[]) {
  if (rows.length === 0) return;
  const column = <K extends keyof IncomingNotification>(key: K) =>
    sql.param(rows.map((row) => row[key]));
  await db.execute(sql`
    insert into ${healthNotifications}
      (body_sha256, position, health_user_id, operation, data_type, intervals, payload)
    select u.sha, u.pos::smallint, u.uid, u.op, u.dt,
           coalesce(u.p -> 'data' -> 'intervals', '[]'::jsonb), u.p
    from (
      select sha, pos, uid, op, dt, p::jsonb as p
      from unnest(${column('bodySha256')}::text[], ${column('position')}::int[],
                  ${column('healthUserId')}::text[], ${column('operation')}::text[],
                  ${column('dataType')}::text[], ${column('payloadJson')}::text[])
           as r(sha, pos, uid, op, dt, p)
    ) u
    on conflict (body_sha256, position) do nothing`);
}

/** Notifications not resolved yet, oldest first. */
export async function unresolvedIds(db: DbOrTx, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: healthNotifications.id })
    .from(healthNotifications)
    .where(isNull(healthNotifications.resolvedAt))
    .orderBy(healthNotifications.receivedAt)
    .limit(limit);
  return rows.map((row) => row.id);
}

/** The notification, locked while it is resolved; undefined when another drain holds it. */
export async function lockNotification(
  db: DbOrTx,
  id: string,
): Promise<NotificationRow | undefined> {
  const [row] = await db
    .select()
    .from(healthNotifications)
    .where(eq(healthNotifications.id, id))
    // Another drain holding it resolves it: this one moves on.
    .for('update', { skipLocked: true });
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

export interface PendingWork extends WorkRow {
  lastNotificationId: string | null;
}

/** A connection's rows waiting for a fetch, oldest first. */
export async function pendingWork(db: DbOrTx, connectionId: string): Promise<PendingWork[]> {
  const t = healthNotificationWork;
  const rows = await db
    .select()
    .from(t)
    .where(and(eq(t.connectionId, connectionId), inArray(t.state, ['pending', 'processing'])))
    .orderBy(t.updatedAt);
  return rows.map((row) => ({
    id: row.id,
    connectionId: row.connectionId,
    studyId: row.studyId,
    dataType: row.dataType,
    day: row.day,
    generation: row.generation,
    deleted: row.deleted === 1,
    lastNotificationId: row.lastNotificationId,
  }));
}

/** Connections holding a row pending since before `before`. */
export async function connectionsWithPendingWork(db: DbOrTx, before: Date): Promise<string[]> {
  const t = healthNotificationWork;
  const rows = await db
    .selectDistinct({ connectionId: t.connectionId })
    .from(t)
    .where(and(eq(t.state, 'pending'), lt(t.updatedAt, before)));
  return rows.map((row) => row.connectionId);
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

/**
 * What is of no more use: notifications resolved before `before`, work rows ended before it,
 * and refusal counts of days before `refusalsBefore`. Pending rows are never removed.
 */
export async function purgeOld(
  db: DbOrTx,
  before: Date,
  refusalsBefore: string,
): Promise<{ notifications: number; work: number; refusals: number }> {
  const work = await db
    .delete(healthNotificationWork)
    .where(
      and(
        inArray(healthNotificationWork.state, ['done', 'failed']),
        lt(healthNotificationWork.updatedAt, before),
      ),
    )
    .returning({ id: healthNotificationWork.id });
  const notifications = await db
    .delete(healthNotifications)
    .where(
      and(isNotNull(healthNotifications.resolvedAt), lt(healthNotifications.receivedAt, before)),
    )
    .returning({ id: healthNotifications.id });
  const refusals = await db
    .delete(healthNotificationRefusals)
    .where(lt(healthNotificationRefusals.day, refusalsBefore))
    .returning({ day: healthNotificationRefusals.day });
  return { notifications: notifications.length, work: work.length, refusals: refusals.length };
}
