import { AUDIT_SIGN_IN_ACTIONS, type AuditKind } from '@research/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { auditEvents, studyMembers, users } from '../../db/schema/index.js';

/** Whose trail: a study's (its events and its current members' sign-ins) or the platform's. */
export type TrailScope = { studyId: string } | { platform: true };

export interface TrailFilter {
  actor?: string | undefined;
  kind?: AuditKind | undefined;
  /**
   * Which branches of a study's trail can match: its own events, its members' sign-ins (none
   * under a kind other than sign-ins; no study event is a sign-in). Both when left out.
   */
  branches?: { study: boolean; signIns: boolean } | undefined;
  /** Inclusive start and exclusive end. */
  from?: Date | undefined;
  until?: Date | undefined;
  /** The last row of the previous page. */
  after?: { at: string; id: string } | undefined;
}

export interface TrailRow {
  id: string;
  actor_id: string | null;
  action: string;
  kind: AuditKind;
  target_type: string | null;
  target_id: string | null;
  details: Record<string, unknown> | string;
  ip: string | null;
  /** created_at to the microsecond, UTC (the cursor must not lose precision). */
  at: string;
  actor_name: string | null;
  actor_email: string | null;
}

const e = auditEvents;
const UUID = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

const textArray = (values: readonly string[]) =>
  sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;

function conditions(filter: TrailFilter): SQL[] {
  const where: SQL[] = [];
  if (filter.actor) where.push(sql`${e.actorId} = ${filter.actor}`);
  if (filter.kind) where.push(sql`${e.kind} = ${filter.kind}`);
  if (filter.from) where.push(sql`${e.createdAt} >= ${filter.from.toISOString()}::timestamptz`);
  if (filter.until) where.push(sql`${e.createdAt} < ${filter.until.toISOString()}::timestamptz`);
  if (filter.after)
    where.push(
      sql`(${e.createdAt}, ${e.id}) < (${filter.after.at}::timestamptz, ${filter.after.id}::uuid)`,
    );
  return where;
}

const and = (parts: SQL[]) => sql.join(parts, sql` and `);
// "nulls last" as the indexes are made (drizzle's `.desc()`): a plain `desc` means nulls first,
// which no index of the trail can give, so the planner sorted or walked the time index instead.
// Neither column is ever null.
const branch = (where: SQL[], limit: number) => sql`(select ${e.id}, ${e.actorId}, ${e.action},
  ${e.kind}, ${e.targetType}, ${e.targetId}, ${e.details}, ${e.ip}, ${e.createdAt}
  from ${e} where ${and(where)}
  order by ${e.createdAt} desc nulls last, ${e.id} desc nulls last limit ${limit})`;

/**
 * The sign-ins of the study's current members: each member's newest first from the sign-in index
 * (actor, time; events of no study of kind sign_in), cut at the page size, then merged.
 */
const membersSignIns = (studyId: string, where: SQL[], limit: number) => sql`(select signed.*
  from (select ${studyMembers.userId}::text as member from ${studyMembers}
        where ${studyMembers.studyId} = ${studyId}) as members
  cross join lateral ${branch(
    [
      sql`${e.studyId} is null`,
      // Written out, so the planner matches the sign-in index's condition.
      sql`${e.kind} = 'sign_in'`,
      sql`${e.actorId} = members.member`,
      sql`${e.action} = any(${textArray(AUDIT_SIGN_IN_ACTIONS)})`,
      ...where,
    ],
    limit,
  )} as signed
  order by signed.created_at desc nulls last, signed.id desc nulls last limit ${limit})`;

/**
 * One page of a trail, newest first, with each acting account's name and address. A study's
 * trail is its own events and the sign-ins of its current members (platform events, found by
 * actor): two index-ordered branches, each cut at the page size before they are merged.
 */
export async function trailPage(
  db: Db,
  scope: TrailScope,
  filter: TrailFilter,
  limit: number,
): Promise<TrailRow[]> {
  const common = conditions(filter);
  const parts = filter.branches ?? { study: true, signIns: true };
  const rows =
    'studyId' in scope
      ? sql`${branch([sql`${e.studyId} = ${scope.studyId}`, ...common, ...(parts.study ? [] : [sql`false`])], limit)}
        union all
        ${membersSignIns(scope.studyId, [...common, ...(parts.signIns ? [] : [sql`false`])], limit)}`
      : branch([sql`${e.studyId} is null`, ...common], limit);
  const result = await db.execute(sql`
    with page as (${rows})
    select page.id, page.actor_id, page.action, page.kind, page.target_type, page.target_id, page.details,
      page.ip,
      to_char(page.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at,
      u.display_name as actor_name, u.email as actor_email
    from page
    left join ${users} u
      on u.id = case when page.actor_id ~ ${UUID} then page.actor_id::uuid end
    order by page.created_at desc nulls last, page.id desc nulls last
    limit ${limit}`);
  // node-postgres answers a result object, PGlite its rows' holder: both carry `rows`.
  return (result as unknown as { rows: TrailRow[] }).rows;
}
