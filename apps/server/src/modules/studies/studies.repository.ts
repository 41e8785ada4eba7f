import type { Study } from '@research/contracts';
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
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

/**
 * A live study and the caller's role in it (null for a non-member) in one round trip: every
 * study-scoped request resolves this first, so it is prepared once per database.
 */
const prepareStudyAccess = (db: Db) =>
  db
    .select({ study: studies, role: studyMembers.role })
    .from(studies)
    .leftJoin(
      studyMembers,
      and(eq(studyMembers.studyId, studies.id), eq(studyMembers.userId, sql.placeholder('userId'))),
    )
    .where(and(eq(studies.id, sql.placeholder('studyId')), liveStudy))
    .prepare('study_access');
const studyAccessLookups = new WeakMap<Db, ReturnType<typeof prepareStudyAccess>>();

export async function findLiveStudyWithRole(db: Db, studyId: string, userId: string) {
  let lookup = studyAccessLookups.get(db);
  if (!lookup) {
    lookup = prepareStudyAccess(db);
    studyAccessLookups.set(db, lookup);
  }
  const [row] = await lookup.execute({ studyId, userId });
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

/** A study's settings, deleted or not (collection may still be finishing a deleted study's work). */
export async function settingsOf(
  db: DbOrTx,
  id: string,
): Promise<StudyRow['settings'] | undefined> {
  const [row] = await db
    .select({ settings: studies.settings })
    .from(studies)
    .where(eq(studies.id, id));
  return row?.settings;
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

/** Lower-cased e-mails of the study's members (owner and collaborators). */
export async function memberEmails(db: DbOrTx, studyId: string): Promise<Set<string>> {
  const rows = await db
    .select({ email: users.email })
    .from(studyMembers)
    .innerJoin(users, eq(users.id, studyMembers.userId))
    .where(eq(studyMembers.studyId, studyId));
  return new Set(rows.map((r) => r.email.toLowerCase()));
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

const collaboratorEmailsOf = sql<string[]>`(
  select coalesce(json_agg(e.email order by e.email), '[]'::json) from (
    select u.email from ${studyMembers} m join ${users} u on u.id = m.user_id
      where m.study_id = ${studies.id} and m.role = 'collab'
    union
    select i.email from ${collaboratorInvitations} i
      where i.study_id = ${studies.id} and i.accepted_at is null
  ) e)`;

/**
 * A member's live studies of one role, newest first, with owner, participant count,
 * collaborators and the total, in one round trip. The dashboard's hottest query, so it is
 * prepared once per database, and Postgres builds the page as one JSON array already in the
 * API's shape: no per-row, per-column mapping in JavaScript.
 */
const prepareStudyList = (db: Db) => {
  // Pick the page first, then count participants and gather collaborators for those rows only.
  const page = db
    .select({
      id: studies.id,
      role: studyMembers.role,
      totalCount: sql<number>`(count(*) over ())::int`.as('total_count'),
    })
    .from(studyMembers)
    .innerJoin(studies, eq(studies.id, studyMembers.studyId))
    .where(
      and(
        eq(studyMembers.userId, sql.placeholder('userId')),
        eq(studyMembers.role, sql.placeholder('role')),
        liveStudy,
      ),
    )
    .orderBy(desc(studies.createdAt), desc(studies.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .as('page');
  return db
    .select({
      data: sql<Study[]>`coalesce(json_agg(json_build_object(
        'id', ${studies.id},
        'name', ${studies.name},
        'description', ${studies.description},
        'duration', ${studies.duration},
        'studyCode', ${studies.studyCode},
        'status', ${studies.status},
        'settings', ${studies.settings},
        'createdAt', to_char(${studies.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'role', ${page.role},
        'ownerName', coalesce(nullif(${users.displayName}, ''), ${users.email}),
        'participantCount', ${participantCount},
        'hasPassword', ${studies.passwordEncrypted} is not null,
        'collaborators', ${collaboratorEmailsOf}
      ) order by ${studies.createdAt} desc, ${studies.id} desc), '[]'::json)`,
      totalCount: sql<number | null>`max(${page.totalCount})`,
    })
    .from(page)
    .innerJoin(studies, eq(studies.id, page.id))
    .innerJoin(users, eq(users.id, studies.ownerId))
    .prepare('list_studies_of_member');
};
const studyLists = new WeakMap<Db, ReturnType<typeof prepareStudyList>>();

/** Dashboard cards (never the password: the owner reads it from the study itself). */
export async function listStudiesOfMember(
  db: Db,
  userId: string,
  role: MemberRole,
  page: { limit: number; offset: number },
): Promise<{ data: Study[]; totalCount: number }> {
  let list = studyLists.get(db);
  if (!list) {
    list = prepareStudyList(db);
    studyLists.set(db, list);
  }
  const [row] = await list.execute({ userId, role, limit: page.limit, offset: page.offset });
  const data = row?.data ?? [];
  // Past the last page there is no row to carry the total; count separately then.
  const totalCount =
    row?.totalCount ??
    (page.offset === 0
      ? 0
      : ((
          await db
            .select({ n: count() })
            .from(studyMembers)
            .innerJoin(studies, eq(studies.id, studyMembers.studyId))
            .where(and(eq(studyMembers.userId, userId), eq(studyMembers.role, role), liveStudy))
        )[0]?.n ?? 0));
  return { data, totalCount };
}

/** A live study with its owner, participant count and collaborator e-mails, in one statement. */
export async function studyWithOwner(db: DbOrTx, studyId: string) {
  const [row] = await db
    .select({
      study: studies,
      ownerName: users.displayName,
      ownerEmail: users.email,
      participantCount,
      collaborators: collaboratorEmailsOf,
    })
    .from(studies)
    .innerJoin(users, eq(users.id, studies.ownerId))
    .where(and(eq(studies.id, studyId), liveStudy));
  return row;
}
