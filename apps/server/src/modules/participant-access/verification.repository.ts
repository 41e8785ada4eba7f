import { and, desc, eq, gt, gte, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  participantSessions,
  participantVerifications,
  verificationCodes,
} from '../../db/schema/index.js';

export type SubjectRow = typeof participantVerifications.$inferSelect;
export type CodeRow = typeof verificationCodes.$inferSelect;
export type SessionRow = typeof participantSessions.$inferSelect;
export type Channel = CodeRow['channel'];

export async function findSubjectByEmail(db: DbOrTx, studyId: string, email: string) {
  const [row] = await db
    .select()
    .from(participantVerifications)
    .where(
      and(eq(participantVerifications.studyId, studyId), eq(participantVerifications.email, email)),
    );
  return row;
}

export async function findSubjectById(db: DbOrTx, participantId: string) {
  const [row] = await db
    .select()
    .from(participantVerifications)
    .where(eq(participantVerifications.participantId, participantId));
  return row;
}

/**
 * The subject of (study, e-mail), created with `participantId` when new. Parallel callers get
 * the same row: the insert does nothing on conflict and the row is read back.
 */
export async function upsertSubject(
  db: DbOrTx,
  values: { studyId: string; email: string; participantId: string },
): Promise<SubjectRow> {
  const [inserted] = await db
    .insert(participantVerifications)
    .values(values)
    .onConflictDoNothing({
      target: [participantVerifications.studyId, participantVerifications.email],
    })
    .returning();
  if (inserted) return inserted;
  const existing = await findSubjectByEmail(db, values.studyId, values.email);
  if (!existing) throw new Error('verification subject vanished');
  return existing;
}

/** Forgets a subject (its codes and sessions go with it). */
export async function deleteSubject(db: DbOrTx, participantId: string) {
  await db
    .delete(participantVerifications)
    .where(eq(participantVerifications.participantId, participantId));
}

/** The subject's address is now `email`, not yet verified (a researcher corrected it). */
export async function moveSubject(db: DbOrTx, participantId: string, email: string, at: Date) {
  await db
    .update(participantVerifications)
    .set({ email, emailVerifiedAt: null, updatedAt: at })
    .where(eq(participantVerifications.participantId, participantId));
}

/** Ends every session of the participant, live or not. */
export async function deleteSessions(db: DbOrTx, participantId: string) {
  await db.delete(participantSessions).where(eq(participantSessions.participantId, participantId));
}

export async function markVerified(db: DbOrTx, participantId: string, channel: Channel, at: Date) {
  const [row] = await db
    .update(participantVerifications)
    .set(
      channel === 'email'
        ? { emailVerifiedAt: at, updatedAt: at }
        : { phoneVerifiedAt: at, updatedAt: at },
    )
    .where(eq(participantVerifications.participantId, participantId))
    .returning();
  return row;
}

/**
 * Serializes code sending for a key (a subject's channel, or a destination) until the
 * transaction ends, so the resend and per-destination checks see every earlier insert.
 */
export async function lockCodeSending(db: DbOrTx, key: string) {
  await db.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`verification-code:${key}`}, 0))`,
  );
}

/** The newest code of a subject on a channel, used or not. */
export async function latestCode(db: DbOrTx, participantId: string, channel: Channel) {
  const [row] = await db
    .select()
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.participantId, participantId),
        eq(verificationCodes.channel, channel),
      ),
    )
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  return row;
}

export async function codesToDestinationSince(db: DbOrTx, destinationHash: string, since: Date) {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.destinationHash, destinationHash),
        gte(verificationCodes.createdAt, since),
      ),
    );
  return row?.count ?? 0;
}

/** Ends every open code of the subject on the channel (a new one replaces them). */
export async function retireOpenCodes(
  db: DbOrTx,
  participantId: string,
  channel: Channel,
  at: Date,
) {
  await db
    .update(verificationCodes)
    .set({ usedAt: at })
    .where(
      and(
        eq(verificationCodes.participantId, participantId),
        eq(verificationCodes.channel, channel),
        isNull(verificationCodes.usedAt),
      ),
    );
}

export async function insertCode(db: DbOrTx, values: typeof verificationCodes.$inferInsert) {
  const [row] = await db.insert(verificationCodes).values(values).returning();
  if (!row) throw new Error('verification code not stored');
  return row;
}

/**
 * Counts one wrong attempt, atomically: parallel guesses cannot exceed the maximum. The code ends
 * (used_at) with the last allowed attempt. Undefined when the code was no longer open.
 */
export async function recordWrongAttempt(
  db: DbOrTx,
  codeId: string,
  maxAttempts: number,
  at: Date,
) {
  const [row] = await db
    .update(verificationCodes)
    .set({
      attempts: sql`${verificationCodes.attempts} + 1`,
      usedAt: sql`case when ${verificationCodes.attempts} + 1 >= ${maxAttempts} then ${at.toISOString()}::timestamptz else null end`,
    })
    .where(
      and(
        eq(verificationCodes.id, codeId),
        isNull(verificationCodes.usedAt),
        lt(verificationCodes.attempts, maxAttempts),
      ),
    )
    .returning({ attempts: verificationCodes.attempts });
  return row;
}

/** Accepts the code once: a second use (or a parallel one) finds it used. */
export async function consumeCode(db: DbOrTx, codeId: string, maxAttempts: number, at: Date) {
  const [row] = await db
    .update(verificationCodes)
    .set({ usedAt: at })
    .where(
      and(
        eq(verificationCodes.id, codeId),
        isNull(verificationCodes.usedAt),
        lt(verificationCodes.attempts, maxAttempts),
        gt(verificationCodes.expiresAt, at),
      ),
    )
    .returning({ id: verificationCodes.id });
  return row;
}

export async function insertSession(db: DbOrTx, values: typeof participantSessions.$inferInsert) {
  await db.insert(participantSessions).values(values);
}

export async function findSession(db: DbOrTx, tokenHash: string, at: Date) {
  const [row] = await db
    .select()
    .from(participantSessions)
    .where(
      and(eq(participantSessions.tokenHash, tokenHash), gt(participantSessions.expiresAt, at)),
    );
  return row;
}

export async function verifySession(db: DbOrTx, tokenHash: string, at: Date) {
  await db
    .update(participantSessions)
    .set({ verifiedAt: at })
    .where(eq(participantSessions.tokenHash, tokenHash));
}

/** A participant's expired sessions are useless; dropping them keeps the table small. */
export async function deleteExpiredSessions(db: DbOrTx, participantId: string, at: Date) {
  await db
    .delete(participantSessions)
    .where(
      and(
        eq(participantSessions.participantId, participantId),
        lt(participantSessions.expiresAt, at),
      ),
    );
}
