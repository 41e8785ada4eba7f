import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { researcherApplications, studyMembers, users } from '../../db/schema/index.js';

/**
 * The study's team as its detail page lists it: each member with the account's address and
 * name and, from the member's live application, the name and phone they applied with (one
 * statement for the whole team).
 */
export async function listStudyTeam(db: DbOrTx, studyId: string) {
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

/** Removes a collaborator (never the owner); false when there was none. */
export async function removeCollaborator(db: DbOrTx, studyId: string, userId: string) {
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
