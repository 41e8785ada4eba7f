import type { ParticipantDisplayStatus, ParticipantSort, PendingSort } from '@research/contracts';
import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  ilike,
  inArray,
  isNull,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { pageWithTotal, totalOf } from '../../db/paging.js';
import {
  participantDocuments,
  participants,
  pendingParticipants,
  researcherApplications,
  studyMembers,
  users,
  wearableConnections,
} from '../../db/schema/index.js';

export type ParticipantRecord = typeof participants.$inferSelect;
export type PendingRecord = typeof pendingParticipants.$inferSelect;
export type DocumentRecord = typeof participantDocuments.$inferSelect;

const liveParticipant = isNull(participants.deletedAt);

/** `%term%` with LIKE's wildcards taken literally. */
const containing = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface Page<S extends string> {
  limit: number;
  offset: number;
  sort: S;
  order: 'asc' | 'desc';
  search?: string | undefined;
}

/**
 * The wearable authorization of a participant, in one place: the list, the stats and the
 * details read it through this join, so a change of the connection model touches only here.
 */
const authorized = sql<boolean>`coalesce(${wearableConnections.status} = 'active', false)`;
const hasAccessToken = sql<boolean>`(${wearableConnections.accessTokenEncrypted} is not null)`;
// Google access tokens live an hour and are refreshed on use, so the expiry that decides the
// display status is the grant's: the refresh token's (7 days for a "Testing" client), none
// otherwise.
const tokenExpiresAt = wearableConnections.refreshExpiresAt;
/**
 * The display status (`participantDisplayStatus` in the contracts) in SQL: inactive without
 * authorization; with a token and an expiry, active only while the expiry is ahead; otherwise
 * active. One expression for the listed chip and for `sort=status`, so the order is the one the
 * table shows.
 */
const displayStatus = sql<ParticipantDisplayStatus>`(case
  when ${authorized}
   and (not ${hasAccessToken} or ${tokenExpiresAt} is null or ${tokenExpiresAt} > now())
  then 'active' else 'inactive' end)`;
const authorization = {
  authorized,
  hasAccessToken,
  tokenExpiresAt,
  providerUserId: wearableConnections.healthUserId,
  displayStatus,
};
const joinAuthorization = eq(wearableConnections.participantId, participants.id);

function participantWhere(studyId: string, search?: string): SQL | undefined {
  const conditions = [eq(participants.studyId, studyId), liveParticipant];
  if (search) {
    const term = containing(search);
    conditions.push(
      or(
        ilike(participants.email, term),
        ilike(participants.firstName, term),
        ilike(participants.lastName, term),
        ilike(participants.phoneNumber, term),
        ilike(participants.id, term),
        ilike(
          sql`coalesce(${participants.firstName}, '') || ' ' || coalesce(${participants.lastName}, '')`,
          term,
        ),
      ) as SQL,
    );
  }
  return and(...conditions);
}

/**
 * `nulls last` only where a sort column can be null: on a NOT NULL column it changes no result
 * but keeps Postgres from reading a descending page backwards off an index (the partial indexes
 * of 0004_seed_001.sql).
 */
const ordered = (column: SQL, order: 'asc' | 'desc', nullable: boolean) =>
  nullable ? sql`${column} ${sql.raw(order)} nulls last` : sql`${column} ${sql.raw(order)}`;
const participantNotNullSorts = new Set<ParticipantSort>(['email', 'status', 'enrolledAt']);
const pendingNotNullSorts = new Set<PendingSort>(['email', 'status', 'createdAt']);

const participantSortColumns: Record<ParticipantSort, SQL[]> = {
  name: [sql`lower(${participants.lastName})`, sql`lower(${participants.firstName})`],
  email: [sql`${participants.email}`],
  phone: [sql`${participants.phoneNumber}`],
  // The active/inactive status depends on now(), so no index can hold it: the study's live rows
  // (found by index) are top-N sorted, a few milliseconds for a study of 5,000 participants.
  status: [displayStatus],
  enrolledAt: [sql`${participants.enrolledAt}`],
};

export async function listParticipants(db: DbOrTx, studyId: string, page: Page<ParticipantSort>) {
  const where = participantWhere(studyId, page.search);
  const direction = page.order === 'desc' ? desc : asc;
  const order = [
    ...participantSortColumns[page.sort].map((column) =>
      ordered(column, page.order, !participantNotNullSorts.has(page.sort)),
    ),
    direction(participants.id),
  ];
  const rows = await db
    .select({
      participant: participants,
      authorized: authorization.authorized,
      hasAccessToken: authorization.hasAccessToken,
      tokenExpiresAt: authorization.tokenExpiresAt,
      providerUserId: authorization.providerUserId,
      displayStatus: authorization.displayStatus,
      totalCount: totalOf(participants, where),
    })
    .from(participants)
    .leftJoin(wearableConnections, joinAuthorization)
    .where(where)
    .orderBy(...order)
    .limit(page.limit)
    .offset(page.offset);
  return pageWithTotal(rows, page.offset, async () => {
    const [total] = await db.select({ value: count() }).from(participants).where(where);
    return total?.value ?? 0;
  });
}

/** The study of each of these live participants (unknown or deleted ids are left out). */
export async function studiesOfLiveParticipants(db: DbOrTx, ids: string[]) {
  return db
    .select({ id: participants.id, studyId: participants.studyId })
    .from(participants)
    .where(and(inArray(participants.id, ids), liveParticipant));
}

export async function findLiveParticipant(db: DbOrTx, id: string) {
  const [row] = await db
    .select({
      participant: participants,
      authorized: authorization.authorized,
      tokenExpiresAt: authorization.tokenExpiresAt,
    })
    .from(participants)
    .leftJoin(wearableConnections, joinAuthorization)
    .where(and(eq(participants.id, id), liveParticipant));
  return row;
}

export async function documentsOf(db: DbOrTx, participantId: string) {
  return db
    .select()
    .from(participantDocuments)
    .where(eq(participantDocuments.participantId, participantId))
    .orderBy(asc(participantDocuments.uploadedAt));
}

export async function findDocument(db: DbOrTx, participantId: string, documentId: string) {
  const [row] = await db
    .select()
    .from(participantDocuments)
    .where(
      and(
        eq(participantDocuments.participantId, participantId),
        eq(participantDocuments.id, documentId),
      ),
    );
  return row;
}

export async function updateParticipant(
  db: DbOrTx,
  id: string,
  values: Partial<Pick<ParticipantRecord, 'firstName' | 'lastName' | 'email' | 'deletedAt'>>,
) {
  await db
    .update(participants)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(participants.id, id));
}

export async function participantEmailTaken(
  db: DbOrTx,
  studyId: string,
  email: string,
  exceptId: string,
) {
  const [row] = await db
    .select({ id: participants.id })
    .from(participants)
    .where(
      and(
        eq(participants.studyId, studyId),
        eq(participants.email, email),
        liveParticipant,
        sql`${participants.id} <> ${exceptId}`,
      ),
    );
  return Boolean(row);
}

/** Which of `emails` (lower-cased) are live participants of the study. */
export async function existingParticipantEmails(db: DbOrTx, studyId: string, emails: string[]) {
  if (emails.length === 0) return new Set<string>();
  const rows = await db
    .select({ email: participants.email })
    .from(participants)
    .where(
      and(
        eq(participants.studyId, studyId),
        liveParticipant,
        inArray(sql`lower(${participants.email})`, emails),
      ),
    );
  return new Set(rows.map((r) => r.email.toLowerCase()));
}

// ---------------------------------------------------------------------------------------------
// Pending participants

function pendingWhere(studyId: string, search?: string): SQL | undefined {
  const conditions = [
    eq(pendingParticipants.studyId, studyId),
    isNull(pendingParticipants.participantId),
  ];
  if (search) {
    const term = containing(search);
    conditions.push(
      or(
        ilike(pendingParticipants.email, term),
        ilike(pendingParticipants.phoneNumber, term),
        ilike(pendingParticipants.status, term),
        ilike(pendingParticipants.firstName, term),
        ilike(pendingParticipants.lastName, term),
      ) as SQL,
    );
  }
  return and(...conditions);
}

const pendingSortColumns: Record<PendingSort, SQL> = {
  email: sql`${pendingParticipants.email}`,
  phone: sql`${pendingParticipants.phoneNumber}`,
  status: sql`${pendingParticipants.status}`,
  createdAt: sql`${pendingParticipants.createdAt}`,
};

export async function listPending(db: DbOrTx, studyId: string, page: Page<PendingSort>) {
  const where = pendingWhere(studyId, page.search);
  const column = pendingSortColumns[page.sort];
  const rows = await db
    .select({
      ...getTableColumns(pendingParticipants),
      totalCount: totalOf(pendingParticipants, where),
    })
    .from(pendingParticipants)
    .where(where)
    .orderBy(
      ordered(column, page.order, !pendingNotNullSorts.has(page.sort)),
      page.order === 'desc' ? desc(pendingParticipants.id) : asc(pendingParticipants.id),
    )
    .limit(page.limit)
    .offset(page.offset);
  return pageWithTotal(rows, page.offset, async () => {
    const [total] = await db.select({ value: count() }).from(pendingParticipants).where(where);
    return total?.value ?? 0;
  });
}

export async function findPending(db: DbOrTx, studyId: string, id: string) {
  const [row] = await db
    .select()
    .from(pendingParticipants)
    .where(and(eq(pendingParticipants.studyId, studyId), eq(pendingParticipants.id, id)));
  return row;
}

/** Which of `emails` (lower-cased) already have a pending row in the study. */
export async function existingPendingEmails(db: DbOrTx, studyId: string, emails: string[]) {
  if (emails.length === 0) return new Set<string>();
  const rows = await db
    .select({ email: pendingParticipants.email })
    .from(pendingParticipants)
    .where(
      and(
        eq(pendingParticipants.studyId, studyId),
        inArray(sql`lower(${pendingParticipants.email})`, emails),
      ),
    );
  return new Set(rows.map((r) => r.email.toLowerCase()));
}

/** Bulk insert in chunks (parameter limits); a row that raced in meanwhile is skipped. */
export async function insertPending(db: DbOrTx, rows: (typeof pendingParticipants.$inferInsert)[]) {
  let inserted = 0;
  for (let i = 0; i < rows.length; i += 1000) {
    const chunk = rows.slice(i, i + 1000);
    const result = await db
      .insert(pendingParticipants)
      .values(chunk)
      .onConflictDoNothing()
      .returning({ id: pendingParticipants.id });
    inserted += result.length;
  }
  return inserted;
}

/** Marks existing pending rows (by lower-cased e-mail) as invited. */
export async function markInvited(
  db: DbOrTx,
  studyId: string,
  emails: string[],
  invitedBy: string,
) {
  if (emails.length === 0) return;
  await db
    .update(pendingParticipants)
    .set({ status: 'invited', invitedBy, invitedAt: new Date(), updatedAt: new Date() })
    .where(
      and(
        eq(pendingParticipants.studyId, studyId),
        inArray(sql`lower(${pendingParticipants.email})`, emails),
      ),
    );
}

export async function updatePending(
  db: DbOrTx,
  id: string,
  values: Partial<Pick<PendingRecord, 'phoneNumber'>>,
) {
  const [row] = await db
    .update(pendingParticipants)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(pendingParticipants.id, id))
    .returning();
  return row;
}

export async function deletePending(db: DbOrTx, id: string) {
  await db.delete(pendingParticipants).where(eq(pendingParticipants.id, id));
}

// ---------------------------------------------------------------------------------------------
// Members and counts

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
