import { and, desc, eq, gte, isNotNull, isNull, max, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { consentSignatures, consentVersions, consentWithdrawals } from '../../db/schema/index.js';

/** The consent module's rows: versions (and the draft), signatures and withdrawals. */

export type VersionRow = typeof consentVersions.$inferSelect;
export type SignatureRow = typeof consentSignatures.$inferSelect;
export type WithdrawalRow = typeof consentWithdrawals.$inferSelect;

export async function findDraft(db: DbOrTx, studyId: string): Promise<VersionRow | undefined> {
  const [row] = await db
    .select()
    .from(consentVersions)
    .where(and(eq(consentVersions.studyId, studyId), isNull(consentVersions.number)));
  return row;
}

/** Inserts or replaces the study's one draft. */
/** The study's consent form, held to the end of the transaction: saves and publishes take turns. */
export async function lockConsentForm(db: DbOrTx, studyId: string): Promise<void> {
  await db.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`consent-form:${studyId}`}, 0))`,
  );
}

export async function putDraft(
  db: DbOrTx,
  values: Omit<typeof consentVersions.$inferInsert, 'number' | 'publishedAt'>,
): Promise<VersionRow> {
  const existing = await findDraft(db, values.studyId);
  if (existing) {
    const [row] = await db
      .update(consentVersions)
      .set({ ...values, createdAt: new Date() })
      .where(eq(consentVersions.id, existing.id))
      .returning();
    return row as VersionRow;
  }
  const [row] = await db.insert(consentVersions).values(values).returning();
  return row as VersionRow;
}

/** Published versions, newest first. */
export async function publishedVersions(db: DbOrTx, studyId: string): Promise<VersionRow[]> {
  return db
    .select()
    .from(consentVersions)
    .where(and(eq(consentVersions.studyId, studyId), isNotNull(consentVersions.number)))
    .orderBy(desc(consentVersions.number));
}

export async function findVersion(
  db: DbOrTx,
  studyId: string,
  versionId: string,
): Promise<VersionRow | undefined> {
  const [row] = await db
    .select()
    .from(consentVersions)
    .where(and(eq(consentVersions.studyId, studyId), eq(consentVersions.id, versionId)));
  return row;
}

/** The draft becomes the next version. Answers undefined without a draft. */
export async function publishDraft(
  db: DbOrTx,
  studyId: string,
  reconsentRequired: boolean,
): Promise<VersionRow | undefined> {
  const draft = await findDraft(db, studyId);
  if (!draft) return undefined;
  const [last] = await db
    .select({ number: max(consentVersions.number) })
    .from(consentVersions)
    .where(eq(consentVersions.studyId, studyId));
  const number = (last?.number ?? 0) + 1;
  const [row] = await db
    .update(consentVersions)
    .set({
      number,
      // The first version is the one everybody signs.
      reconsentRequired: number === 1 ? true : reconsentRequired,
      publishedAt: new Date(),
    })
    .where(eq(consentVersions.id, draft.id))
    .returning();
  return row;
}

/**
 * The version in force (the newest published) and the lowest version number a signature must
 * have: that of the newest version published with re-consent asked (version 1 always is).
 */
export async function versionInForce(db: DbOrTx, studyId: string) {
  const versions = await publishedVersions(db, studyId);
  const current = versions[0];
  const required = versions.find((v) => v.reconsentRequired) ?? versions[versions.length - 1];
  return { current, requiredNumber: required?.number ?? null };
}

export async function signatureCounts(db: DbOrTx, studyId: string) {
  const rows = await db
    .select({ versionId: consentSignatures.versionId, count: sql<number>`count(*)::int` })
    .from(consentSignatures)
    .where(eq(consentSignatures.studyId, studyId))
    .groupBy(consentSignatures.versionId);
  return new Map(rows.map((r) => [r.versionId, r.count]));
}

export async function insertSignature(
  db: DbOrTx,
  values: typeof consentSignatures.$inferInsert,
): Promise<SignatureRow> {
  const [row] = await db.insert(consentSignatures).values(values).returning();
  return row as SignatureRow;
}

export async function signaturesOfStudy(db: DbOrTx, studyId: string): Promise<SignatureRow[]> {
  return db
    .select()
    .from(consentSignatures)
    .where(eq(consentSignatures.studyId, studyId))
    .orderBy(desc(consentSignatures.signedAt));
}

export async function findSignature(
  db: DbOrTx,
  signatureId: string,
): Promise<SignatureRow | undefined> {
  const [row] = await db
    .select()
    .from(consentSignatures)
    .where(eq(consentSignatures.id, signatureId));
  return row;
}

export async function latestSignatureOf(
  db: DbOrTx,
  studyId: string,
  participantId: string,
): Promise<SignatureRow | undefined> {
  const [row] = await db
    .select()
    .from(consentSignatures)
    .where(
      and(
        eq(consentSignatures.studyId, studyId),
        eq(consentSignatures.participantId, participantId),
      ),
    )
    .orderBy(desc(consentSignatures.versionNumber), desc(consentSignatures.signedAt))
    .limit(1);
  return row;
}

/** Whether the participant signed a version numbered `atLeast` or later. */
export async function hasSignatureFrom(
  db: DbOrTx,
  studyId: string,
  participantId: string,
  atLeast: number,
): Promise<boolean> {
  const [row] = await db
    .select({ id: consentSignatures.id })
    .from(consentSignatures)
    .where(
      and(
        eq(consentSignatures.studyId, studyId),
        eq(consentSignatures.participantId, participantId),
        gte(consentSignatures.versionNumber, atLeast),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The highest version each participant of the study signed. */
export async function highestSignedVersions(db: DbOrTx, studyId: string) {
  const rows = await db
    .select({
      participantId: consentSignatures.participantId,
      number: max(consentSignatures.versionNumber),
    })
    .from(consentSignatures)
    .where(eq(consentSignatures.studyId, studyId))
    .groupBy(consentSignatures.participantId);
  return new Map(rows.map((r) => [r.participantId, r.number ?? 0]));
}

export async function findWithdrawal(
  db: DbOrTx,
  participantId: string,
): Promise<WithdrawalRow | undefined> {
  const [row] = await db
    .select()
    .from(consentWithdrawals)
    .where(eq(consentWithdrawals.participantId, participantId));
  return row;
}

/** Records the withdrawal once; undefined when it was recorded before. */
export async function insertWithdrawal(
  db: DbOrTx,
  values: typeof consentWithdrawals.$inferInsert,
): Promise<WithdrawalRow | undefined> {
  const [row] = await db
    .insert(consentWithdrawals)
    .values(values)
    .onConflictDoNothing()
    .returning();
  return row;
}

/** Marks the withdrawal carried out; false when it already was (another run got there first). */
export async function markWithdrawalCarriedOut(
  db: DbOrTx,
  participantId: string,
  at: Date,
): Promise<boolean> {
  const rows = await db
    .update(consentWithdrawals)
    .set({ carriedOutAt: at })
    .where(
      and(
        eq(consentWithdrawals.participantId, participantId),
        isNull(consentWithdrawals.carriedOutAt),
      ),
    )
    .returning({ participantId: consentWithdrawals.participantId });
  return rows.length > 0;
}

export async function withdrawalsOfStudy(db: DbOrTx, studyId: string): Promise<WithdrawalRow[]> {
  return db.select().from(consentWithdrawals).where(eq(consentWithdrawals.studyId, studyId));
}
