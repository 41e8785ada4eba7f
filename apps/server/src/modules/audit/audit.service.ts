import { auditKindOf } from '@research/contracts';
import { sql } from 'drizzle-orm';
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

/**
 * Records a read of personal data by the signed-in caller: once per request, after the data was
 * found (a refused or failed read shows nothing and records nothing).
 */
export async function recordRead(
  db: Pick<Db, 'insert'>,
  reader: Reader,
  entry: Omit<AuditEntry, 'actorId' | 'ip'>,
): Promise<void> {
  await recordAudit(db, { ...entry, actorId: reader.user?.id ?? null, ip: reader.ip });
}
