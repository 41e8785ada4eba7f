import { auditKindOf } from '@research/contracts';
import { and, eq, gte, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { auditEvents } from '../../db/schema/index.js';

export interface AuditEntry {
  actorId: string | null;
  /**
   * Set for every event that belongs to a study: the study's trail is read by it. Left out for an
   * event about a participant, it is taken from the participant's row.
   */
  studyId?: string | undefined;
  action: string;
  targetType?: string;
  targetId?: string;
  details?: Record<string, unknown>;
  ip?: string;
}

/**
 * Records who did what and when. Pass a transaction so the entry commits with the change.
 * Rows are append-only: a database trigger refuses to update or delete them.
 */
export async function recordAudit(db: Pick<Db, 'insert'>, entry: AuditEntry): Promise<void> {
  const studyId =
    entry.studyId ??
    (entry.targetType === 'participant' && entry.targetId
      ? sql`(select study_id from participants where id = ${entry.targetId})`
      : null);
  await db.insert(auditEvents).values({
    actorId: entry.actorId,
    studyId,
    action: entry.action,
    kind: auditKindOf(entry.action),
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    details: entry.details ?? {},
    ip: entry.ip ?? null,
  });
}

/** The caller of a request, as Fastify's request carries it once signed in. */
export interface Reader {
  ip: string;
  user?: { id: string } | null;
}

/** Repeats of the same view within this window are one entry (a screen that refreshes itself). */
export const READ_REPEAT_MS = 15 * 60_000;

const sameOrNull = (column: Parameters<typeof eq>[0], value: string | null | undefined): SQL =>
  value == null ? isNull(column) : eq(column, value);

/**
 * Records a view of personal data by the signed-in caller, after the data was found (a refused
 * or failed read shows nothing and records nothing). A screen that refreshes itself (the
 * participant list every 30 s) would bury the trail in copies: the same caller viewing the same
 * thing from the same address again within READ_REPEAT_MS adds no entry. Downloads are not
 * views: each is recorded with recordAudit.
 */
export async function recordRead(
  db: Pick<Db, 'insert' | 'select'>,
  reader: Reader,
  entry: Omit<AuditEntry, 'actorId' | 'ip'>,
): Promise<void> {
  const actorId = reader.user?.id ?? null;
  const [recent] = await db
    .select({ id: auditEvents.id })
    .from(auditEvents)
    .where(
      and(
        sameOrNull(auditEvents.studyId, entry.studyId),
        sameOrNull(auditEvents.actorId, actorId),
        eq(auditEvents.action, entry.action),
        sameOrNull(auditEvents.targetId, entry.targetId),
        eq(auditEvents.ip, reader.ip),
        gte(auditEvents.createdAt, new Date(Date.now() - READ_REPEAT_MS)),
      ),
    )
    .limit(1);
  if (recent) return;
  await recordAudit(db, { ...entry, actorId, ip: reader.ip });
}
