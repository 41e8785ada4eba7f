import { and, count, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import {
  authFailures,
  oneTimeTokens,
  researcherApplications,
  sessions,
  users,
} from '../../db/schema/index.js';

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type FailureScope = (typeof authFailures.$inferSelect)['scope'];
export type OneTimePurpose = (typeof oneTimeTokens.$inferSelect)['purpose'];

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)));
  return row;
}

export async function findUserById(db: DbOrTx, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function findUserByGoogleSubject(
  db: DbOrTx,
  subject: string,
): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.googleSubject, subject));
  return row;
}

export async function insertUser(db: DbOrTx, values: typeof users.$inferInsert): Promise<UserRow> {
  const [row] = await db
    .insert(users)
    .values({ ...values, email: normalizeEmail(values.email) })
    .returning();
  if (!row) throw new Error('user not inserted');
  return row;
}

export async function updateUser(
  db: DbOrTx,
  id: string,
  values: Partial<typeof users.$inferInsert>,
): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  if (!row) throw new Error('user not found');
  return row;
}

export async function masterExists(db: DbOrTx): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(users).where(eq(users.role, 'master'));
  return (row?.n ?? 0) > 0;
}

export async function insertSession(
  db: DbOrTx,
  values: { userId: string; tokenHash: string; expiresAt: Date },
) {
  await db.insert(sessions).values(values);
}

/**
 * A session with its user and the status of the user's current application, in one query:
 * every authenticated request starts here, so the statement is prepared once per database
 * (no SQL building per request, and the server plans it once per connection).
 */
const prepareSessionLookup = (db: Db) =>
  db
    .select({ session: sessions, user: users, applicationStatus: researcherApplications.status })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(
      researcherApplications,
      and(eq(researcherApplications.userId, users.id), isNull(researcherApplications.archivedAt)),
    )
    .where(and(eq(sessions.tokenHash, sql.placeholder('tokenHash')), isNull(sessions.revokedAt)))
    .prepare('find_live_session');
const sessionLookups = new WeakMap<Db, ReturnType<typeof prepareSessionLookup>>();

export async function findLiveSession(db: Db, tokenHash: string) {
  let lookup = sessionLookups.get(db);
  if (!lookup) {
    lookup = prepareSessionLookup(db);
    sessionLookups.set(db, lookup);
  }
  const [row] = await lookup.execute({ tokenHash });
  return row;
}

export async function touchSession(db: DbOrTx, id: string, at: Date) {
  await db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.id, id));
}

export async function revokeSession(db: DbOrTx, tokenHash: string) {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)));
}

export async function revokeUserSessions(db: DbOrTx, userId: string) {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

export async function insertOneTimeToken(
  db: DbOrTx,
  values: { purpose: OneTimePurpose; tokenHash: string; userId: string | null; expiresAt: Date },
) {
  await db.insert(oneTimeTokens).values(values);
}

/** Not used, not expired, and for one of these purposes. */
const usable = (tokenHash: string, purposes: OneTimePurpose[]) =>
  and(
    eq(oneTimeTokens.tokenHash, tokenHash),
    isNull(oneTimeTokens.usedAt),
    gt(oneTimeTokens.expiresAt, new Date()),
    inArray(oneTimeTokens.purpose, purposes),
  );

/** Marks a usable token as used and returns it; a used, expired or unknown token gives undefined. */
export async function consumeOneTimeToken(
  db: DbOrTx,
  tokenHash: string,
  purposes: OneTimePurpose[],
) {
  const [row] = await db
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(usable(tokenHash, purposes))
    .returning();
  return row;
}

export async function findUsableOneTimeToken(
  db: DbOrTx,
  tokenHash: string,
  purposes: OneTimePurpose[],
) {
  const [row] = await db.select().from(oneTimeTokens).where(usable(tokenHash, purposes));
  return row;
}

/** Retires every open token of these purposes for a user (a newer link replaces older ones). */
export async function retireOneTimeTokens(
  db: DbOrTx,
  userId: string | null,
  purposes: OneTimePurpose[],
) {
  await db
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        userId ? eq(oneTimeTokens.userId, userId) : isNull(oneTimeTokens.userId),
        isNull(oneTimeTokens.usedAt),
        inArray(oneTimeTokens.purpose, purposes),
      ),
    );
}

export async function countRecentTokens(
  db: DbOrTx,
  userId: string,
  purpose: OneTimePurpose,
  since: Date,
) {
  const [row] = await db
    .select({ n: count() })
    .from(oneTimeTokens)
    .where(
      and(
        eq(oneTimeTokens.userId, userId),
        eq(oneTimeTokens.purpose, purpose),
        gt(oneTimeTokens.createdAt, since),
      ),
    );
  return row?.n ?? 0;
}

export async function recordAuthFailure(db: DbOrTx, scope: FailureScope, keyHash: string) {
  await db.insert(authFailures).values({ scope, keyHash });
}

/** Failures in the window, oldest first (the oldest decides when the lock lifts). */
export async function recentAuthFailures(
  db: DbOrTx,
  scope: FailureScope,
  keyHash: string,
  since: Date,
) {
  return db
    .select({ createdAt: authFailures.createdAt })
    .from(authFailures)
    .where(
      and(
        eq(authFailures.scope, scope),
        eq(authFailures.keyHash, keyHash),
        gt(authFailures.createdAt, since),
      ),
    )
    .orderBy(authFailures.createdAt);
}

export async function clearAuthFailures(db: DbOrTx, scope: FailureScope, keyHash: string) {
  await db
    .delete(authFailures)
    .where(and(eq(authFailures.scope, scope), eq(authFailures.keyHash, keyHash)));
}
