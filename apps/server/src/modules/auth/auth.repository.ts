import { and, count, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import {
  authFailures,
  oauthStates,
  oneTimeTokens,
  researcherApplications,
  sessions,
  signInAttempts,
  studies,
  studyMembers,
  users,
} from '../../db/schema/index.js';

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type FailureScope = (typeof authFailures.$inferSelect)['scope'];
export type AttemptScope = (typeof signInAttempts.$inferSelect)['scope'];
export type OneTimePurpose = (typeof oneTimeTokens.$inferSelect)['purpose'];

/**
 * The session lookups also read the caller's application and a study with their role in the same
 * statement. Those rows belong to the applications and studies modules, which build on this one:
 * their shapes are named here from the tables so auth depends on neither.
 */
export type ApplicationOfUser = typeof researcherApplications.$inferSelect;
export type ApplicationStatus = ApplicationOfUser['status'];
export type SessionStudy = typeof studies.$inferSelect;
export type SessionStudyRole = (typeof studyMembers.$inferSelect)['role'];

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

/**
 * The session lookup above plus a live study and the caller's role in it, in one round trip:
 * study-scoped routes need all four, and this keeps them to a single prepared statement.
 * A null studyId (not a UUID) matches no study.
 */
const prepareSessionWithStudy = (db: Db) =>
  db
    .select({
      session: sessions,
      user: users,
      applicationStatus: researcherApplications.status,
      study: studies,
      role: studyMembers.role,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(
      researcherApplications,
      and(eq(researcherApplications.userId, users.id), isNull(researcherApplications.archivedAt)),
    )
    .leftJoin(studies, and(eq(studies.id, sql.placeholder('studyId')), isNull(studies.deletedAt)))
    .leftJoin(
      studyMembers,
      and(eq(studyMembers.studyId, studies.id), eq(studyMembers.userId, users.id)),
    )
    .where(and(eq(sessions.tokenHash, sql.placeholder('tokenHash')), isNull(sessions.revokedAt)))
    .prepare('find_live_session_with_study');
const sessionWithStudyLookups = new WeakMap<Db, ReturnType<typeof prepareSessionWithStudy>>();

export async function findLiveSessionWithStudy(db: Db, tokenHash: string, studyId: string | null) {
  let lookup = sessionWithStudyLookups.get(db);
  if (!lookup) {
    lookup = prepareSessionWithStudy(db);
    sessionWithStudyLookups.set(db, lookup);
  }
  const [row] = await lookup.execute({ tokenHash, studyId });
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

/**
 * Counts one sign-in attempt for a key and returns the count in the current window, in one
 * statement: the row lock of `on conflict do update` serialises parallel attempts, so each
 * gets its own number (no read-then-write gap). A window older than `windowMs` starts over.
 */
export async function countSignInAttempt(
  db: DbOrTx,
  scope: AttemptScope,
  keyHash: string,
  windowMs: number,
  now = new Date(),
): Promise<{ attempts: number; windowStartedAt: Date }> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const stale = sql`${signInAttempts.windowStartedAt} <= ${new Date(now.getTime() - windowMs).toISOString()}::timestamptz`;
  const [row] = await db
    .insert(signInAttempts)
    .values({ scope, keyHash, attempts: 1, windowStartedAt: now })
    .onConflictDoUpdate({
      target: [signInAttempts.scope, signInAttempts.keyHash],
      set: {
        attempts: sql`case when ${stale} then 1 else ${signInAttempts.attempts} + 1 end`,
        windowStartedAt: sql`case when ${stale} then ${at} else ${signInAttempts.windowStartedAt} end`,
      },
    })
    .returning({
      attempts: signInAttempts.attempts,
      windowStartedAt: signInAttempts.windowStartedAt,
    });
  if (!row) throw new Error('sign-in attempt not counted');
  return row;
}

/** A successful sign-in: the pair starts afresh, and the attempt no longer counts elsewhere. */
export async function releaseSignInAttempt(
  db: DbOrTx,
  keys: { pair: string; address: string; account: string },
) {
  await db
    .delete(signInAttempts)
    .where(and(eq(signInAttempts.scope, 'pair'), eq(signInAttempts.keyHash, keys.pair)));
  await db
    .update(signInAttempts)
    .set({ attempts: sql`greatest(${signInAttempts.attempts} - 1, 0)` })
    .where(
      or(
        and(eq(signInAttempts.scope, 'address'), eq(signInAttempts.keyHash, keys.address)),
        and(eq(signInAttempts.scope, 'account'), eq(signInAttempts.keyHash, keys.account)),
      ),
    );
}

/** An attempt refused before any password was checked: it no longer counts anywhere. */
export async function uncountSignInAttempt(
  db: DbOrTx,
  keys: { pair: string; address: string; account: string },
) {
  await db
    .update(signInAttempts)
    .set({ attempts: sql`greatest(${signInAttempts.attempts} - 1, 0)` })
    .where(
      or(
        and(eq(signInAttempts.scope, 'pair'), eq(signInAttempts.keyHash, keys.pair)),
        and(eq(signInAttempts.scope, 'address'), eq(signInAttempts.keyHash, keys.address)),
        and(eq(signInAttempts.scope, 'account'), eq(signInAttempts.keyHash, keys.account)),
      ),
    );
}

/**
 * Deletes what has outlived its use: expired OAuth states, sign-in counters and failures past
 * their window, ended sessions and expired single-use links. Returns the rows removed per table.
 */
export async function purgeExpiredAuthRows(
  db: DbOrTx,
  options: { now: Date; failureWindowMs: number; sessionIdleMs: number },
) {
  const { now } = options;
  const windowStart = new Date(now.getTime() - options.failureWindowMs);
  const states = await db
    .delete(oauthStates)
    .where(lt(oauthStates.expiresAt, now))
    .returning({ id: oauthStates.id });
  const failures = await db
    .delete(authFailures)
    .where(lt(authFailures.createdAt, windowStart))
    .returning({ id: authFailures.id });
  const attempts = await db
    .delete(signInAttempts)
    .where(lt(signInAttempts.windowStartedAt, windowStart))
    .returning({ key: signInAttempts.keyHash });
  const ended = await db
    .delete(sessions)
    .where(
      or(
        lt(sessions.expiresAt, now),
        isNotNull(sessions.revokedAt),
        lt(sessions.lastSeenAt, new Date(now.getTime() - options.sessionIdleMs)),
      ),
    )
    .returning({ id: sessions.id });
  const tokens = await db
    .delete(oneTimeTokens)
    .where(lt(oneTimeTokens.expiresAt, now))
    .returning({ id: oneTimeTokens.id });
  return {
    oauthStates: states.length,
    authFailures: failures.length,
    signInAttempts: attempts.length,
    sessions: ended.length,
    oneTimeTokens: tokens.length,
  };
}
