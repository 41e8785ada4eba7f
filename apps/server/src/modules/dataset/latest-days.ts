import type { CollectedDay } from '@research/contracts';
import { and, eq, gt, inArray, max, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { datasetPartitions } from '../../db/schema/index.js';

/**
 * Each participant's latest civil day holding data (a `complete` or `partial` partition with
 * rows), with the day's figures gathered across its types: each figure comes from the types that
 * give it (steps from three of them, which agree on a settled day; on a day still growing the
 * largest is the latest fetch). One statement for a page of participants.
 */
export async function latestCollectedDays(
  db: DbOrTx,
  studyId: string,
  participantIds: readonly string[],
): Promise<Map<string, CollectedDay>> {
  const days = new Map<string, CollectedDay>();
  if (participantIds.length === 0) return days;
  const t = datasetPartitions;
  const holdsData = and(
    eq(t.studyId, studyId),
    inArray(t.participantId, [...participantIds]),
    inArray(t.state, ['complete', 'partial']),
    gt(t.rowCount, 0),
  );
  const latest = db
    .select({ participantId: t.participantId, date: max(t.date).as('latest_date') })
    .from(t)
    .where(holdsData)
    .groupBy(t.participantId)
    .as('latest');
  const rows = await db
    .select({
      participantId: t.participantId,
      date: t.date,
      partial: sql<boolean>`bool_or(${t.state} = 'partial')`,
      steps: max(t.steps),
      wearMinutes: max(t.wearMinutes),
      restingHeartRateBpm: max(t.restingHeartRateBpm),
      sleepMinutes: max(t.sleepMinutes),
    })
    .from(t)
    .innerJoin(latest, and(eq(latest.participantId, t.participantId), eq(latest.date, t.date)))
    .where(holdsData)
    .groupBy(t.participantId, t.date);
  for (const { participantId, ...day } of rows) {
    days.set(participantId, { ...day, partial: Boolean(day.partial) });
  }
  return days;
}
