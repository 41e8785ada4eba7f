import type { ParticipantDisplayStatus, ParticipantSort } from '@research/contracts';
import { and, asc, count, desc, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { pageWithTotal, totalOf } from '../../db/paging.js';
import { participantDocuments, participants, wearableConnections } from '../../db/schema/index.js';
import { containing, ordered, type Page } from './participants-paging.js';

/** Enrolled participants: the list with their wearable authorization, details, documents. */

export type ParticipantRecord = typeof participants.$inferSelect;
export type DocumentRecord = typeof participantDocuments.$inferSelect;

const liveParticipant = isNull(participants.deletedAt);

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

const participantNotNullSorts = new Set<ParticipantSort>(['email', 'status', 'enrolledAt']);

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
      lastDeviceSyncAt: wearableConnections.lastDeviceSyncAt,
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

/** Every live participant of a study, by id (the adherence heat map lists them all). */
export async function liveParticipantsOfStudy(db: DbOrTx, studyId: string) {
  return db
    .select({
      id: participants.id,
      firstName: participants.firstName,
      lastName: participants.lastName,
      enrolledAt: participants.enrolledAt,
    })
    .from(participants)
    .where(and(eq(participants.studyId, studyId), liveParticipant))
    .orderBy(asc(participants.id));
}

/**
 * A digest of what the heat map shows of the study's live participants (ids, names, enrolment):
 * one short row, so a cached heat map is checked without reading the list.
 */
export async function liveParticipantsFingerprint(db: DbOrTx, studyId: string): Promise<string> {
  const [row] = await db
    .select({
      digest: sql<string>`coalesce(md5(string_agg(${participants.id} || '|' || coalesce(${participants.firstName}, '') || '|' || coalesce(${participants.lastName}, '') || '|' || ${participants.enrolledAt}::text, ',' order by ${participants.id})), '')`,
    })
    .from(participants)
    .where(and(eq(participants.studyId, studyId), liveParticipant));
  return row?.digest ?? '';
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
