import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  collaboratorInvitations,
  participants,
  studies,
  studyMembers,
  users,
} from '../../db/schema/index.js';

export type StudyRow = typeof studies.$inferSelect;
export type MemberRole = (typeof studyMembers.$inferSelect)['role'];

const liveStudy = isNull(studies.deletedAt);

export async function studyCodeTaken(db: DbOrTx, code: string): Promise<boolean> {
  const [row] = await db
    .select({ id: studies.id })
    .from(studies)
    .where(eq(studies.studyCode, code));
  return Boolean(row);
}

export async function insertStudy(
  db: DbOrTx,
  values: typeof studies.$inferInsert,
): Promise<StudyRow> {
  const [row] = await db.insert(studies).values(values).returning();
  if (!row) throw new Error('study not inserted');
  return row;
}

export async function findLiveStudy(db: DbOrTx, id: string): Promise<StudyRow | undefined> {
  const [row] = await db
    .select()
    .from(studies)
    .where(and(eq(studies.id, id), liveStudy));
  return row;
}

export async function findLiveStudyByCode(db: DbOrTx, code: string) {
  const [row] = await db
    .select({ study: studies, ownerName: users.displayName, ownerEmail: users.email })
    .from(studies)
    .innerJoin(users, eq(users.id, studies.ownerId))
    .where(and(eq(studies.studyCode, code), liveStudy));
  return row;
}

export async function updateStudy(
  db: DbOrTx,
  id: string,
  values: Partial<typeof studies.$inferInsert>,
): Promise<StudyRow> {
  const [row] = await db
    .update(studies)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(studies.id, id))
    .returning();
  if (!row) throw new Error('study not found');
  return row;
}

export async function membershipOf(
  db: DbOrTx,
  studyId: string,
  userId: string,
): Promise<MemberRole | undefined> {
  const [row] = await db
    .select({ role: studyMembers.role })
    .from(studyMembers)
    .where(and(eq(studyMembers.studyId, studyId), eq(studyMembers.userId, userId)));
  return row?.role;
}

export async function addMember(db: DbOrTx, studyId: string, userId: string, role: MemberRole) {
  await db.insert(studyMembers).values({ studyId, userId, role }).onConflictDoNothing();
}

export async function recordInvitation(
  db: DbOrTx,
  studyId: string,
  email: string,
  invitedBy: string,
  accepted: boolean,
) {
  await db
    .insert(collaboratorInvitations)
    .values({ studyId, email, invitedBy, acceptedAt: accepted ? new Date() : null })
    .onConflictDoNothing();
}

export async function acceptInvitation(db: DbOrTx, studyId: string, email: string) {
  await db
    .update(collaboratorInvitations)
    .set({ acceptedAt: new Date() })
    .where(
      and(
        eq(collaboratorInvitations.studyId, studyId),
        eq(collaboratorInvitations.email, email),
        isNull(collaboratorInvitations.acceptedAt),
      ),
    );
}

const participantCount = sql<number>`(select count(*)::int from ${participants} where ${participants.studyId} = ${studies.id} and ${participants.deletedAt} is null)`;

/** A member's live studies of one role, newest first, with owner name and participant count. */
export async function listStudiesOfMember(
  db: DbOrTx,
  userId: string,
  role: MemberRole,
  page: { limit: number; offset: number },
) {
  const where = and(eq(studyMembers.userId, userId), eq(studyMembers.role, role), liveStudy);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        study: studies,
        ownerName: users.displayName,
        ownerEmail: users.email,
        participantCount,
      })
      .from(studyMembers)
      .innerJoin(studies, eq(studies.id, studyMembers.studyId))
      .innerJoin(users, eq(users.id, studies.ownerId))
      .where(where)
      .orderBy(desc(studies.createdAt), desc(studies.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ n: count() })
      .from(studyMembers)
      .innerJoin(studies, eq(studies.id, studyMembers.studyId))
      .where(where),
  ]);
  return { rows, totalCount: total?.n ?? 0 };
}

export async function studyWithOwner(db: DbOrTx, studyId: string) {
  const [row] = await db
    .select({
      study: studies,
      ownerName: users.displayName,
      ownerEmail: users.email,
      participantCount,
    })
    .from(studies)
    .innerJoin(users, eq(users.id, studies.ownerId))
    .where(and(eq(studies.id, studyId), liveStudy));
  return row;
}

/** Collaborator e-mails per study: members with the collab role, then invitations not yet taken up. */
export async function collaboratorEmails(
  db: DbOrTx,
  studyIds: string[],
): Promise<Map<string, string[]>> {
  const byStudy = new Map<string, string[]>();
  if (studyIds.length === 0) return byStudy;
  const [members, invitations] = await Promise.all([
    db
      .select({ studyId: studyMembers.studyId, email: users.email })
      .from(studyMembers)
      .innerJoin(users, eq(users.id, studyMembers.userId))
      .where(and(inArray(studyMembers.studyId, studyIds), eq(studyMembers.role, 'collab'))),
    db
      .select({ studyId: collaboratorInvitations.studyId, email: collaboratorInvitations.email })
      .from(collaboratorInvitations)
      .where(
        and(
          inArray(collaboratorInvitations.studyId, studyIds),
          isNull(collaboratorInvitations.acceptedAt),
        ),
      ),
  ]);
  for (const { studyId, email } of [...members, ...invitations]) {
    const list = byStudy.get(studyId) ?? [];
    if (!list.includes(email)) list.push(email);
    byStudy.set(studyId, list);
  }
  return byStudy;
}
