import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import {
  accessTokens,
  researcherApplications,
  studies,
  studyMembers,
  users,
} from '../../db/schema/index.js';

export type AccessTokenRow = typeof accessTokens.$inferSelect;

/** A token with its owner's name and address, as the lists show it. */
export interface AccessTokenWithOwner {
  token: AccessTokenRow;
  ownerName: string;
  ownerEmail: string;
}

export async function insertToken(
  db: DbOrTx,
  values: typeof accessTokens.$inferInsert,
): Promise<AccessTokenRow> {
  const [row] = await db.insert(accessTokens).values(values).returning();
  if (!row) throw new Error('access token insert returned no row');
  return row;
}

/** Tokens of one account in one study that are neither revoked nor expired. */
export async function countActiveTokens(db: DbOrTx, studyId: string, userId: string, now: Date) {
  const [row] = await db
    .select({ n: count() })
    .from(accessTokens)
    .where(
      and(
        eq(accessTokens.studyId, studyId),
        eq(accessTokens.userId, userId),
        isNull(accessTokens.revokedAt),
        gt(accessTokens.expiresAt, now),
      ),
    );
  return row?.n ?? 0;
}

const withOwner = {
  token: accessTokens,
  ownerName: users.displayName,
  ownerEmail: users.email,
};

/** A page of the study's tokens (one account's, or everyone's for a null userId), newest first. */
export async function listTokens(
  db: Db,
  studyId: string,
  userId: string | null,
  page: { limit: number; offset: number },
): Promise<{ rows: AccessTokenWithOwner[]; totalCount: number }> {
  const rows = await db
    .select({ ...withOwner, totalCount: sql<number>`count(*) over()`.mapWith(Number) })
    .from(accessTokens)
    .innerJoin(users, eq(users.id, accessTokens.userId))
    .where(
      and(eq(accessTokens.studyId, studyId), userId ? eq(accessTokens.userId, userId) : undefined),
    )
    .orderBy(desc(accessTokens.createdAt), desc(accessTokens.id))
    .limit(page.limit)
    .offset(page.offset);
  return {
    rows: rows.map(({ totalCount: _, ...row }) => row),
    totalCount: rows[0]?.totalCount ?? 0,
  };
}

export async function findTokenInStudy(
  db: DbOrTx,
  studyId: string,
  tokenId: string,
): Promise<AccessTokenWithOwner | undefined> {
  const [row] = await db
    .select(withOwner)
    .from(accessTokens)
    .innerJoin(users, eq(users.id, accessTokens.userId))
    .where(and(eq(accessTokens.studyId, studyId), eq(accessTokens.id, tokenId)));
  return row;
}

/** Revokes a live token; false when it was revoked already (the first revocation stands). */
export async function revokeToken(db: DbOrTx, id: string, by: string, at: Date) {
  const rows = await db
    .update(accessTokens)
    .set({ revokedAt: at, revokedBy: by })
    .where(and(eq(accessTokens.id, id), isNull(accessTokens.revokedAt)))
    .returning({ id: accessTokens.id });
  return rows.length > 0;
}

export async function touchToken(db: DbOrTx, id: string, at: Date, ip: string) {
  await db
    .update(accessTokens)
    .set({ lastUsedAt: at, lastUsedIp: ip })
    .where(eq(accessTokens.id, id));
}

/**
 * Everything a call made with a token needs, in one prepared statement (like the session
 * lookup): the token, its account and the account's current application, the token's study if
 * it is not deleted, and the account's membership of it (role and since when).
 */
const prepareTokenLookup = (db: Db) =>
  db
    .select({
      token: accessTokens,
      user: users,
      applicationStatus: researcherApplications.status,
      study: studies,
      role: studyMembers.role,
      joinedAt: studyMembers.joinedAt,
    })
    .from(accessTokens)
    .innerJoin(users, eq(users.id, accessTokens.userId))
    .leftJoin(
      researcherApplications,
      and(eq(researcherApplications.userId, users.id), isNull(researcherApplications.archivedAt)),
    )
    .leftJoin(studies, and(eq(studies.id, accessTokens.studyId), isNull(studies.deletedAt)))
    .leftJoin(
      studyMembers,
      and(eq(studyMembers.studyId, accessTokens.studyId), eq(studyMembers.userId, users.id)),
    )
    .where(eq(accessTokens.tokenHash, sql.placeholder('tokenHash')))
    .prepare('find_access_token');
const tokenLookups = new WeakMap<Db, ReturnType<typeof prepareTokenLookup>>();

export async function findTokenForUse(db: Db, tokenHash: string) {
  let lookup = tokenLookups.get(db);
  if (!lookup) {
    lookup = prepareTokenLookup(db);
    tokenLookups.set(db, lookup);
  }
  const [row] = await lookup.execute({ tokenHash });
  return row;
}

export type TokenForUse = NonNullable<Awaited<ReturnType<typeof findTokenForUse>>>;
