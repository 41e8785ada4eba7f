import { and, eq, inArray, lt, max, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  adherenceDigests,
  digestParticipantState,
  digestPreferences,
  reminderLog,
  reminderStops,
} from '../../db/schema/index.js';

export type ReminderLogInsert = typeof reminderLog.$inferInsert;

/** Serializes the digest or the reminders of one study until the transaction ends. */
export async function lockStudy(db: DbOrTx, purpose: 'digest' | 'reminders', studyId: string) {
  await db.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`${purpose}:${studyId}`}, 0))`,
  );
}

// --- Digest preferences -------------------------------------------------------------------

export async function digestPreferenceOf(db: DbOrTx, studyId: string, userId: string) {
  const [row] = await db
    .select({ enabled: digestPreferences.enabled })
    .from(digestPreferences)
    .where(and(eq(digestPreferences.studyId, studyId), eq(digestPreferences.userId, userId)));
  return row?.enabled;
}

export async function setDigestPreference(
  db: DbOrTx,
  studyId: string,
  userId: string,
  enabled: boolean,
) {
  await db
    .insert(digestPreferences)
    .values({ studyId, userId, enabled })
    .onConflictDoUpdate({
      target: [digestPreferences.studyId, digestPreferences.userId],
      set: { enabled, updatedAt: new Date() },
    });
}

/** The members of a study who made a choice, with it. */
export async function digestPreferencesOfStudy(db: DbOrTx, studyId: string) {
  const rows = await db
    .select({ userId: digestPreferences.userId, enabled: digestPreferences.enabled })
    .from(digestPreferences)
    .where(eq(digestPreferences.studyId, studyId));
  return new Map(rows.map((row) => [row.userId, row.enabled]));
}

// --- Digest state ---------------------------------------------------------------------------

/**
 * Takes the study's digest of `day`; undefined when it was already composed. Answers when the
 * previous digest was composed (null: none yet).
 */
export async function claimDigestDay(
  db: DbOrTx,
  studyId: string,
  day: string,
  at: Date,
): Promise<{ previousAt: Date | null } | undefined> {
  const [claimed] = await db
    .insert(adherenceDigests)
    .values({ studyId, day, composedAt: at })
    .onConflictDoNothing()
    .returning({ day: adherenceDigests.day });
  if (!claimed) return undefined;
  const [previous] = await db
    .select({ at: max(adherenceDigests.composedAt) })
    .from(adherenceDigests)
    .where(and(eq(adherenceDigests.studyId, studyId), lt(adherenceDigests.day, day)));
  return { previousAt: previous?.at ?? null };
}

export async function recordDigestRecipients(
  db: DbOrTx,
  studyId: string,
  day: string,
  recipientCount: number,
) {
  await db
    .update(adherenceDigests)
    .set({ recipientCount })
    .where(and(eq(adherenceDigests.studyId, studyId), eq(adherenceDigests.day, day)));
}

/** What earlier digests told: the participants reported at risk, and needing reauthorization. */
export async function reportedOfStudy(db: DbOrTx, studyId: string) {
  const rows = await db
    .select()
    .from(digestParticipantState)
    .where(eq(digestParticipantState.studyId, studyId));
  return {
    atRisk: new Set(rows.filter((r) => r.atRiskReportedAt).map((r) => r.participantId)),
    reauthorization: new Set(
      rows.filter((r) => r.reauthorizationReportedAt).map((r) => r.participantId),
    ),
  };
}

/**
 * The state after a digest: exactly `atRisk` and `reauthorization` are marked reported (new ones
 * at `at`, the others keep their time); everyone else is cleared, so a later episode is news.
 */
export async function saveReported(
  db: DbOrTx,
  studyId: string,
  at: Date,
  current: { atRisk: readonly string[]; reauthorization: readonly string[] },
) {
  const t = digestParticipantState;
  const ids = [...new Set([...current.atRisk, ...current.reauthorization])];
  if (ids.length > 0) {
    const atRisk = new Set(current.atRisk);
    const reauthorization = new Set(current.reauthorization);
    await db
      .insert(t)
      .values(
        ids.map((participantId) => ({
          participantId,
          studyId,
          atRiskReportedAt: atRisk.has(participantId) ? at : null,
          reauthorizationReportedAt: reauthorization.has(participantId) ? at : null,
        })),
      )
      .onConflictDoUpdate({
        target: t.participantId,
        set: {
          // An episode already reported keeps its first time.
          atRiskReportedAt: sql`case when excluded.at_risk_reported_at is null then null
            else coalesce(${t.atRiskReportedAt}, excluded.at_risk_reported_at) end`,
          reauthorizationReportedAt: sql`case when excluded.reauthorization_reported_at is null
            then null else coalesce(${t.reauthorizationReportedAt},
              excluded.reauthorization_reported_at) end`,
        },
      });
  }
  await db
    .delete(t)
    .where(
      and(eq(t.studyId, studyId), ids.length > 0 ? notInArray(t.participantId, ids) : undefined),
    );
}

// --- Reminders ------------------------------------------------------------------------------

/** The participants among `ids` who followed a stop link. */
export async function stoppedAmong(db: DbOrTx, ids: readonly string[]) {
  if (ids.length === 0) return new Set<string>();
  const rows = await db
    .select({ participantId: reminderStops.participantId })
    .from(reminderStops)
    .where(inArray(reminderStops.participantId, [...ids]));
  return new Set(rows.map((row) => row.participantId));
}

/** Each participant's last reminder among `ids`. */
export async function lastRemindedAt(db: DbOrTx, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, Date>();
  const rows = await db
    .select({ participantId: reminderLog.participantId, at: max(reminderLog.sentAt) })
    .from(reminderLog)
    .where(inArray(reminderLog.participantId, [...ids]))
    .groupBy(reminderLog.participantId);
  return new Map(rows.flatMap((row) => (row.at ? [[row.participantId, row.at] as const] : [])));
}

export async function insertReminders(db: DbOrTx, rows: ReminderLogInsert[]) {
  if (rows.length > 0) await db.insert(reminderLog).values(rows);
}

/** The reminder a stop link came with; undefined for any other token. */
export async function reminderByTokenHash(db: DbOrTx, tokenHash: string) {
  const [row] = await db
    .select({ participantId: reminderLog.participantId, studyId: reminderLog.studyId })
    .from(reminderLog)
    .where(eq(reminderLog.stopTokenHash, tokenHash));
  return row;
}

/** Marks the participant stopped; a second click keeps the first time. */
export async function stopParticipant(
  db: DbOrTx,
  participant: { participantId: string; studyId: string },
  at: Date,
) {
  await db
    .insert(reminderStops)
    .values({ ...participant, stoppedAt: at })
    .onConflictDoNothing();
}
