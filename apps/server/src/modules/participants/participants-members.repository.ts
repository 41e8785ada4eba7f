import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { researcherApplications, studyMembers, users } from '../../db/schema/index.js';

/** The study's team, and the counts of the study's tabs. */

export async function listMembers(db: DbOrTx, studyId: string) {
  return db
    .select({
      userId: studyMembers.userId,
      role: studyMembers.role,
      joinedAt: studyMembers.joinedAt,
      email: users.email,
      displayName: users.displayName,
      firstName: researcherApplications.firstName,
      lastName: researcherApplications.lastName,
      phone: researcherApplications.phoneNumber,
      applicationStatus: researcherApplications.status,
    })
    .from(studyMembers)
    .innerJoin(users, eq(users.id, studyMembers.userId))
    .leftJoin(
      researcherApplications,
      and(
        eq(researcherApplications.userId, studyMembers.userId),
        isNull(researcherApplications.archivedAt),
      ),
    )
    .where(eq(studyMembers.studyId, studyId))
    .orderBy(sql`${studyMembers.role} = 'main' desc`, asc(studyMembers.joinedAt));
}

export async function removeMember(db: DbOrTx, studyId: string, userId: string) {
  const rows = await db
    .delete(studyMembers)
    .where(
      and(
        eq(studyMembers.studyId, studyId),
        eq(studyMembers.userId, userId),
        eq(studyMembers.role, 'collab'),
      ),
    )
    .returning({ userId: studyMembers.userId });
  return rows.length > 0;
}

export async function memberRole(db: DbOrTx, studyId: string, userId: string) {
  const [row] = await db
    .select({ role: studyMembers.role })
    .from(studyMembers)
    .where(and(eq(studyMembers.studyId, studyId), eq(studyMembers.userId, userId)));
  return row?.role;
}

/** The tab counts in one round trip. */
export async function studyCounts(db: DbOrTx, studyId: string) {
  const result = await db.execute<{
    participants: number;
    authorized: number;
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
      (select count(*)::int from pending_participants pp
         where pp.study_id = ${studyId} and pp.participant_id is null) as pending,
      (select count(*)::int from study_members m where m.study_id = ${studyId}) as members,
      (select count(*)::int from email_messages e where e.study_id = ${studyId}) as emails,
      (select max(e.sent_at) from email_messages e where e.study_id = ${studyId}) as last_email
  `);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    participants: number;
    authorized: number;
    pending: number;
    members: number;
    emails: number;
    last_email: string | Date | null;
  }[];
  return rows[0];
}
