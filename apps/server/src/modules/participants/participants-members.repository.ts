import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';

/** The counts of the study's tabs, in one round trip (the team itself is the studies module's). */
export async function studyCounts(db: DbOrTx, studyId: string, atRiskCutoff: Date) {
  const result = await db.execute<{
    participants: number;
    authorized: number;
    at_risk: number;
    pending: number;
    members: number;
    emails: number;
    last_email: string | Date | null;
  }>(sql`
    select
      (select count(*)::int from participants p
         where p.study_id = ${studyId} and p.deleted_at is null) as participants,
      (select count(*)::int from participants p
         join wearable_connections w on w.participant_id = p.id and w.status = 'active'
         where p.study_id = ${studyId} and p.deleted_at is null) as authorized,
      (select count(*)::int from participants p
         join wearable_connections w on w.participant_id = p.id and w.status = 'active'
         where p.study_id = ${studyId} and p.deleted_at is null
           and coalesce(w.last_device_sync_at, w.connected_at) <= ${atRiskCutoff.toISOString()}::timestamptz
      ) as at_risk,
      (select count(*)::int from pending_participants pp
         where pp.study_id = ${studyId} and pp.participant_id is null) as pending,
      (select count(*)::int from study_members m where m.study_id = ${studyId}) as members,
      (select count(*)::int from email_messages e where e.study_id = ${studyId}) as emails,
      (select max(e.sent_at) from email_messages e where e.study_id = ${studyId}) as last_email
  `);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    participants: number;
    authorized: number;
    at_risk: number;
    pending: number;
    members: number;
    emails: number;
    last_email: string | Date | null;
  }[];
  return rows[0];
}
