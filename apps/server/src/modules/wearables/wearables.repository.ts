import { and, asc, count, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  participants,
  studies,
  TOKEN_BINDING,
  wearableConnections,
  wearableOauthStates,
} from '../../db/schema/index.js';

export type ConnectionRow = typeof wearableConnections.$inferSelect;
export type OauthStateRow = typeof wearableOauthStates.$inferSelect;

/** A live participant of a live study, with what the wearable flows need to know. */
export interface ParticipantRef {
  id: string;
  studyId: string;
  studyCode: string;
  studyName: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  status: string;
  enrolledAt: Date;
}

const participantColumns = {
  id: participants.id,
  studyId: participants.studyId,
  studyCode: studies.studyCode,
  studyName: studies.name,
  email: participants.email,
  firstName: participants.firstName,
  lastName: participants.lastName,
  status: participants.status,
  enrolledAt: participants.enrolledAt,
};

export async function findLiveParticipant(
  db: DbOrTx,
  participantId: string,
): Promise<ParticipantRef | undefined> {
  const [row] = await db
    .select(participantColumns)
    .from(participants)
    .innerJoin(studies, eq(studies.id, participants.studyId))
    .where(
      and(
        eq(participants.id, participantId),
        isNull(participants.deletedAt),
        isNull(studies.deletedAt),
      ),
    );
  return row;
}

export async function insertOauthState(
  db: DbOrTx,
  values: typeof wearableOauthStates.$inferInsert,
): Promise<void> {
  await db.insert(wearableOauthStates).values(values);
  // Expired attempts are useless; dropping them here keeps the table small without a job.
  await db
    .delete(wearableOauthStates)
    .where(lt(wearableOauthStates.expiresAt, sql`now() - interval '1 day'`));
}

export async function findOauthState(
  db: DbOrTx,
  stateHash: string,
): Promise<OauthStateRow | undefined> {
  const [row] = await db
    .select()
    .from(wearableOauthStates)
    .where(eq(wearableOauthStates.stateHash, stateHash));
  return row;
}

/** Marks a state used; only one caller can win, and only before it expires. */
export async function claimOauthState(
  db: DbOrTx,
  stateHash: string,
  now: Date,
): Promise<OauthStateRow | undefined> {
  const [row] = await db
    .update(wearableOauthStates)
    .set({ usedAt: now })
    .where(
      and(
        eq(wearableOauthStates.stateHash, stateHash),
        isNull(wearableOauthStates.usedAt),
        gt(wearableOauthStates.expiresAt, now),
      ),
    )
    .returning();
  return row;
}

export async function findConnection(
  db: DbOrTx,
  participantId: string,
  options: { forUpdate?: boolean } = {},
): Promise<ConnectionRow | undefined> {
  const query = db
    .select()
    .from(wearableConnections)
    .where(
      and(
        eq(wearableConnections.participantId, participantId),
        eq(wearableConnections.provider, 'google-health'),
      ),
    );
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
}

/** What an extraction job checks before it calls the provider: any connection of the participant. */
export async function connectionStateOf(db: DbOrTx, participantId: string) {
  const [row] = await db
    .select({
      status: wearableConnections.status,
      healthUserId: wearableConnections.healthUserId,
      grantedScopes: wearableConnections.grantedScopes,
    })
    .from(wearableConnections)
    .where(eq(wearableConnections.participantId, participantId));
  return row;
}

/** Whether any connection of the participant holds an access token (never the token). */
export async function hasAccessToken(db: DbOrTx, participantId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: wearableConnections.participantId })
    .from(wearableConnections)
    .where(
      and(
        eq(wearableConnections.participantId, participantId),
        isNotNull(wearableConnections.accessTokenEncrypted),
      ),
    )
    .limit(1);
  return Boolean(row);
}

export async function upsertConnection(
  db: DbOrTx,
  values: Omit<typeof wearableConnections.$inferInsert, 'id'>,
): Promise<ConnectionRow> {
  const { participantId: _p, provider: _v, ...changes } = values;
  const [row] = await db
    .insert(wearableConnections)
    .values(values)
    .onConflictDoUpdate({
      target: [wearableConnections.participantId, wearableConnections.provider],
      set: {
        ...changes,
        // Another Google account is another device: its last sync is not known yet.
        lastDeviceSyncAt: sql`case when ${wearableConnections.healthUserId} = excluded.health_user_id
          then ${wearableConnections.lastDeviceSyncAt} end`,
        batteryLevel: sql`case when ${wearableConnections.healthUserId} = excluded.health_user_id
          then ${wearableConnections.batteryLevel} end`,
      },
    })
    .returning();
  if (!row) throw new Error('wearable connection not stored');
  return row;
}

export async function updateConnection(
  db: DbOrTx,
  id: string,
  changes: Partial<typeof wearableConnections.$inferInsert>,
): Promise<ConnectionRow | undefined> {
  const [row] = await db
    .update(wearableConnections)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(wearableConnections.id, id))
    .returning();
  return row;
}

/** Takes the day's one reauthorization mail; false when one went out within the interval. */
export async function claimReauthMail(
  db: DbOrTx,
  id: string,
  now: Date,
  intervalMs: number,
): Promise<boolean> {
  const cutoff = new Date(now.getTime() - intervalMs);
  const rows = await db
    .update(wearableConnections)
    .set({ lastReauthMailAt: now })
    .where(
      and(
        eq(wearableConnections.id, id),
        or(
          isNull(wearableConnections.lastReauthMailAt),
          lt(wearableConnections.lastReauthMailAt, cutoff),
        ),
      ),
    )
    .returning({ id: wearableConnections.id });
  return rows.length > 0;
}

/**
 * Live participants' connections to one Google account that still hold a grant: one person's
 * account may serve them in several studies, and revoking it at Google ends every one of them.
 */
export async function grantsOfHealthUser(
  db: DbOrTx,
  healthUserId: string,
): Promise<{ participantId: string; studyId: string }[]> {
  return db
    .select({ participantId: wearableConnections.participantId, studyId: participants.studyId })
    .from(wearableConnections)
    .innerJoin(participants, eq(participants.id, wearableConnections.participantId))
    .innerJoin(studies, eq(studies.id, participants.studyId))
    .where(
      and(
        eq(wearableConnections.healthUserId, healthUserId),
        eq(wearableConnections.provider, 'google-health'),
        isNull(participants.deletedAt),
        isNull(studies.deletedAt),
        or(
          sql`${wearableConnections.refreshTokenEncrypted} is not null`,
          sql`${wearableConnections.accessTokenEncrypted} is not null`,
        ),
      ),
    );
}

/**
 * Every connection a change notification about this Google account concerns: live participants
 * in live studies whose grant is not revoked (one person may be in several studies).
 */
export async function connectionsOfHealthUser(
  db: DbOrTx,
  healthUserId: string,
): Promise<{ connectionId: string; participantId: string; studyId: string }[]> {
  return db
    .select({
      connectionId: wearableConnections.id,
      participantId: wearableConnections.participantId,
      studyId: wearableConnections.studyId,
    })
    .from(wearableConnections)
    .innerJoin(participants, eq(participants.id, wearableConnections.participantId))
    .innerJoin(studies, eq(studies.id, wearableConnections.studyId))
    .where(
      and(
        eq(wearableConnections.healthUserId, healthUserId),
        eq(wearableConnections.provider, 'google-health'),
        sql`${wearableConnections.status} <> 'revoked'`,
        isNull(participants.deletedAt),
        isNull(studies.deletedAt),
      ),
    )
    .orderBy(asc(wearableConnections.connectedAt));
}

/** Connections of a study that still hold a token (to revoke before a purge). */
export async function connectionsWithTokens(db: DbOrTx, studyId: string): Promise<ConnectionRow[]> {
  return db
    .select()
    .from(wearableConnections)
    .where(
      and(
        eq(wearableConnections.studyId, studyId),
        or(
          sql`${wearableConnections.refreshTokenEncrypted} is not null`,
          sql`${wearableConnections.accessTokenEncrypted} is not null`,
        ),
      ),
    );
}

/** The tab 4 listing: every live participant, with its connection when there is one. */
export async function listAuthorizations(
  db: DbOrTx,
  studyId: string,
  page: { limit: number; offset: number },
) {
  const where = and(eq(participants.studyId, studyId), isNull(participants.deletedAt));
  const [rows, [total]] = await Promise.all([
    db
      .select({
        participantId: participants.id,
        email: participants.email,
        firstName: participants.firstName,
        lastName: participants.lastName,
        connectionId: wearableConnections.id,
        healthUserId: wearableConnections.healthUserId,
        grantedScopes: wearableConnections.grantedScopes,
        status: wearableConnections.status,
        hasAccessToken: sql<boolean>`${wearableConnections.accessTokenEncrypted} is not null`,
        refreshExpiresAt: wearableConnections.refreshExpiresAt,
      })
      .from(participants)
      .leftJoin(
        wearableConnections,
        and(
          eq(wearableConnections.participantId, participants.id),
          eq(wearableConnections.provider, 'google-health'),
        ),
      )
      .where(where)
      .orderBy(asc(participants.enrolledAt), asc(participants.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ value: count() }).from(participants).where(where),
  ]);
  return { rows, totalCount: total?.value ?? 0 };
}

type StoredTokenColumns = Pick<ConnectionRow, 'accessTokenEncrypted' | 'refreshTokenEncrypted'>;

/**
 * The connections holding a token not yet known to be bound to its participant, with just what
 * re-binding them needs (after the first start: none, found through a partial index).
 */
export function listUncheckedTokens(db: DbOrTx) {
  return db
    .select({
      id: wearableConnections.id,
      participantId: wearableConnections.participantId,
      accessTokenEncrypted: wearableConnections.accessTokenEncrypted,
      refreshTokenEncrypted: wearableConnections.refreshTokenEncrypted,
    })
    .from(wearableConnections)
    .where(
      and(
        eq(wearableConnections.tokenBinding, TOKEN_BINDING.unchecked),
        or(
          sql`${wearableConnections.accessTokenEncrypted} is not null`,
          sql`${wearableConnections.refreshTokenEncrypted} is not null`,
        ),
      ),
    );
}

/**
 * Stores a connection's token ciphertexts, now bound to the participant, and marks them so;
 * only if nobody changed them since they were read.
 */
export async function storeBoundTokens(
  db: DbOrTx,
  id: string,
  seen: StoredTokenColumns,
  next: StoredTokenColumns,
): Promise<boolean> {
  const same = (
    column:
      | typeof wearableConnections.accessTokenEncrypted
      | typeof wearableConnections.refreshTokenEncrypted,
    value: string | null,
  ) => (value === null ? isNull(column) : eq(column, value));
  const rows = await db
    .update(wearableConnections)
    .set({ ...next, tokenBinding: TOKEN_BINDING.participant })
    .where(
      and(
        eq(wearableConnections.id, id),
        same(wearableConnections.accessTokenEncrypted, seen.accessTokenEncrypted),
        same(wearableConnections.refreshTokenEncrypted, seen.refreshTokenEncrypted),
      ),
    )
    .returning({ id: wearableConnections.id });
  return rows.length > 0;
}

/** A connection continuous collection works on, with its participant's enrolment. */
export interface CollectionTarget {
  connectionId: string;
  participantId: string;
  studyId: string;
  healthUserId: string;
  grantedScopes: string[];
  status: string;
  connectedAt: Date;
  enrolledAt: Date;
}

/**
 * Connections of live participants in live studies: the active ones (the sweep's list), or one
 * participant's whatever its state (a collection decides what a dead grant means for its days).
 */
export async function collectionTargets(
  db: DbOrTx,
  participantId?: string,
): Promise<CollectionTarget[]> {
  return db
    .select({
      connectionId: wearableConnections.id,
      participantId: wearableConnections.participantId,
      studyId: participants.studyId,
      healthUserId: wearableConnections.healthUserId,
      grantedScopes: wearableConnections.grantedScopes,
      status: wearableConnections.status,
      connectedAt: wearableConnections.connectedAt,
      enrolledAt: participants.enrolledAt,
    })
    .from(wearableConnections)
    .innerJoin(participants, eq(participants.id, wearableConnections.participantId))
    .innerJoin(studies, eq(studies.id, participants.studyId))
    .where(
      and(
        isNull(participants.deletedAt),
        isNull(studies.deletedAt),
        participantId === undefined
          ? eq(wearableConnections.status, 'active')
          : eq(wearableConnections.participantId, participantId),
      ),
    )
    .orderBy(asc(wearableConnections.participantId));
}
