import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { participantDocuments, participants, pendingParticipants } from '../../db/schema/index.js';

/**
 * The participant rows the participant side reads and writes: enrolment, the participant's own
 * profile and documents, verification and the operator's add-participant. They take the
 * caller's transaction, since enrolment must write the participant, its roster link and its
 * verification subject together.
 */

export type ParticipantRow = typeof participants.$inferSelect;
export type PendingRow = typeof pendingParticipants.$inferSelect;
export type DocumentRow = typeof participantDocuments.$inferSelect;

/** The live participant of (study, e-mail); e-mails are stored lower-cased. */
export async function findLiveParticipantByEmail(db: DbOrTx, studyId: string, email: string) {
  const [row] = await db
    .select()
    .from(participants)
    .where(
      and(
        eq(participants.studyId, studyId),
        eq(participants.email, email),
        isNull(participants.deletedAt),
      ),
    );
  return row;
}

/** The id of the live participant of (study, address), the stored address compared lower-cased. */
export async function liveParticipantIdByAddress(db: DbOrTx, studyId: string, email: string) {
  const [row] = await db
    .select({ id: participants.id })
    .from(participants)
    .where(
      and(
        eq(participants.studyId, studyId),
        sql`lower(${participants.email}) = ${email}`,
        isNull(participants.deletedAt),
      ),
    );
  return row?.id;
}

/** A participant by id in whichever study, deleted or not (the caller decides). */
export async function findParticipantAnyStudy(db: DbOrTx, participantId: string) {
  const [row] = await db.select().from(participants).where(eq(participants.id, participantId));
  return row;
}

export async function findLiveParticipantInStudy(
  db: DbOrTx,
  studyId: string,
  participantId: string,
) {
  const [row] = await db
    .select()
    .from(participants)
    .where(
      and(
        eq(participants.id, participantId),
        eq(participants.studyId, studyId),
        isNull(participants.deletedAt),
      ),
    );
  return row;
}

/** Whether any participant row, live or deleted, has this id. */
export async function participantIdTaken(db: DbOrTx, participantId: string) {
  const [row] = await db
    .select({ id: participants.id })
    .from(participants)
    .where(eq(participants.id, participantId));
  return Boolean(row);
}

/** The study's roster entry for an address (not yet enrolled or already linked). */
export async function findPendingByEmail(
  db: DbOrTx,
  studyId: string,
  email: string,
  options: { lock?: boolean } = {},
) {
  const query = db
    .select()
    .from(pendingParticipants)
    .where(
      and(
        eq(pendingParticipants.studyId, studyId),
        sql`lower(${pendingParticipants.email}) = ${email}`,
      ),
    );
  const rows = options.lock ? await query.for('update') : await query;
  return rows[0];
}

/** Inserts the participant unless (study, e-mail) already has one; undefined then. */
export async function insertParticipant(db: DbOrTx, values: typeof participants.$inferInsert) {
  const [row] = await db
    .insert(participants)
    .values(values)
    .onConflictDoNothing({
      target: [participants.studyId, participants.email],
      where: sql`deleted_at is null`,
    })
    .returning();
  return row;
}

/** Inserts the participant as it is (the operator's add-participant; no conflict handling). */
export async function insertParticipantRow(db: DbOrTx, values: typeof participants.$inferInsert) {
  await db.insert(participants).values(values);
}

/** The roster entry is done: it now names its participant and leaves the pending list. */
export async function linkPendingToParticipant(
  db: DbOrTx,
  pendingId: string,
  participantId: string,
  at: Date,
) {
  await db
    .update(pendingParticipants)
    .set({ participantId, updatedAt: at })
    .where(eq(pendingParticipants.id, pendingId));
}

export async function updateParticipantInfo(
  db: DbOrTx,
  participantId: string,
  values: {
    firstName: string;
    lastName: string;
    additionalInfo: string | null;
    informationCompletedAt: Date;
  },
) {
  const [row] = await db
    .update(participants)
    .set({ ...values, updatedAt: values.informationCompletedAt })
    .where(eq(participants.id, participantId))
    .returning();
  return row;
}

/** The participant's `authorizedAt`: when they last granted access to their data. */
export async function markParticipantAuthorized(db: DbOrTx, participantId: string, at: Date) {
  await db
    .update(participants)
    .set({ authorizedAt: at, updatedAt: at })
    .where(eq(participants.id, participantId));
}

/** A withdrawal: the participant's status says so on every screen that lists them. */
export async function markParticipantWithdrawn(db: DbOrTx, participantId: string, at: Date) {
  await db
    .update(participants)
    .set({ status: 'withdrawn', updatedAt: at })
    .where(eq(participants.id, participantId));
}

export async function insertParticipantDocuments(
  db: DbOrTx,
  rows: (typeof participantDocuments.$inferInsert)[],
) {
  if (rows.length === 0) return;
  await db.insert(participantDocuments).values(rows);
}

/** The participant's documents, oldest first, ties by name. */
export async function participantDocumentsOf(db: DbOrTx, participantId: string) {
  return db
    .select()
    .from(participantDocuments)
    .where(eq(participantDocuments.participantId, participantId))
    .orderBy(asc(participantDocuments.uploadedAt), asc(participantDocuments.name));
}
