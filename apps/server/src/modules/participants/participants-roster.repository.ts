import type { PendingSort } from '@research/contracts';
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
import { pendingParticipants } from '../../db/schema/index.js';
import { containing, ordered, type Page } from './participants-paging.js';

/** The roster: pending participants, people added to a study before they enrol. */

export type PendingRecord = typeof pendingParticipants.$inferSelect;

const pendingNotNullSorts = new Set<PendingSort>(['email', 'status', 'createdAt']);

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
