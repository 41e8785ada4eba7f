import { and, eq, gte, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
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
  return rows.map(toWorkRow);
}

const toWorkRow = (row: typeof healthNotificationWork.$inferSelect): WorkRow => ({
  id: row.id,
  connectionId: row.connectionId,
  studyId: row.studyId,
  dataType: row.dataType,
  day: row.day,
  generation: row.generation,
  deleted: row.deleted === 1,
});

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
  return rows.map((row) => ({ ...toWorkRow(row), lastNotificationId: row.lastNotificationId }));
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

/** Day `n` days before today (UTC), as the refusal table's `day`. */
const utcDay = (now: Date, daysBack: number) =>
  new Date(now.getTime() - daysBack * 86_400_000).toISOString().slice(0, 10);

/**
 * What the master's dashboard shows of the notifications: the last one received and the count of
 * the last 24 hours, the backlog (unresolved notifications; work rows waiting or being fetched),
 * and the refusals of the last 7 UTC days per reason. Each count reads a partial or plain index.
 */
export async function notificationActivity(db: DbOrTx, now = new Date()) {
  const since = new Date(now.getTime() - 24 * 60 * 60 * 1000);
  const today = utcDay(now, 0);
  type Stamp = Date | string | null;
  type Counts = {
    last_at: Stamp;
    last_type: string | null;
    recent: number;
    unresolved: number;
    oldest_unresolved: Stamp;
    pending: number;
    processing: number;
    oldest_pending: Stamp;
  };
  const result = await db.execute<Counts>(sql`
    select
      (select received_at from ${healthNotifications} order by received_at desc limit 1)
        as last_at,
      (select data_type from ${healthNotifications} order by received_at desc limit 1)
        as last_type,
      (select count(*)::int from ${healthNotifications} where received_at > ${since.toISOString()})
        as recent,
      (select count(*)::int from ${healthNotifications} where resolved_at is null) as unresolved,
      (select min(received_at) from ${healthNotifications} where resolved_at is null)
        as oldest_unresolved,
      (select count(*)::int from ${healthNotificationWork} where state = 'pending') as pending,
      (select count(*)::int from ${healthNotificationWork} where state = 'processing')
        as processing,
      (select min(updated_at) from ${healthNotificationWork} where state = 'pending')
        as oldest_pending`);
  const refusals = await db
    .select({
      reason: healthNotificationRefusals.reason,
      today: sql<number>`coalesce(sum(${healthNotificationRefusals.count}) filter (where ${healthNotificationRefusals.day} = ${today}), 0)::int`,
      week: sql<number>`sum(${healthNotificationRefusals.count})::int`,
      lastAt: sql<Stamp>`max(${healthNotificationRefusals.lastAt})`,
    })
    .from(healthNotificationRefusals)
    .where(gte(healthNotificationRefusals.day, utcDay(now, 6)))
    .groupBy(healthNotificationRefusals.reason);
  const rows = Array.isArray(result) ? result : (result as { rows: unknown[] }).rows;
  const r = rows[0] as Counts | undefined;
  const iso = (value: Stamp | undefined) => (value == null ? null : new Date(value).toISOString());
  return {
    received: {
      lastAt: iso(r?.last_at),
      lastDataType: r?.last_type ?? null,
      last24Hours: Number(r?.recent ?? 0),
    },
    backlog: {
      unresolved: Number(r?.unresolved ?? 0),
      oldestUnresolvedAt: iso(r?.oldest_unresolved),
      pending: Number(r?.pending ?? 0),
      processing: Number(r?.processing ?? 0),
      oldestPendingAt: iso(r?.oldest_pending),
    },
    refusals: refusals
      .map((row) => ({
        reason: row.reason,
        today: Number(row.today),
        last7Days: Number(row.week),
        lastAt: iso(row.lastAt) ?? now.toISOString(),
      }))
      .sort((a, b) => b.last7Days - a.last7Days || a.reason.localeCompare(b.reason)),
  };
}
