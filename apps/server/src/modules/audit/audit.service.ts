import type { Db } from '../../db/client.js';
import { auditEvents } from '../../db/schema/index.js';

export interface AuditEntry {
  actorId: string | null;
  /** Set for every event that belongs to a study: the study's trail is read by it. */
  studyId?: string;
  action: string;
  targetType?: string;
  targetId?: string;
  details?: Record<string, unknown>;
  ip?: string;
}

/** Records who did what and when. Pass a transaction so the entry commits with the change. */
export async function recordAudit(db: Pick<Db, 'insert'>, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvents).values({
    actorId: entry.actorId,
    studyId: entry.studyId ?? null,
    action: entry.action,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    details: entry.details ?? {},
    ip: entry.ip ?? null,
  });
}
