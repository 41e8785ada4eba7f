import type { CollectedDay, DataType } from '@research/contracts';
import { and, eq, gt, inArray, max, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { datasetPartitions } from '../../db/schema/index.js';

/**
 * Each participant's latest civil day holding data (a `complete` or `partial` partition with
 * rows), with the day's figures gathered across its types. Where several types give a figure,
 * the first of them that has it is taken, in the order below: the daily summaries and the
 * civil-day-filtered series first (the one-minute heart-rate roll-up is asked for by the UTC
 * day's window, not the participant's civil day, so its minute count is the last resort). One
 * statement for a page of participants.
 */
const FIGURE_SOURCES = {
  steps: ['activity_summary', 'activity_steps_timeseries', 'activity_steps_intraday'],
  wearMinutes: ['heartrate_intraday_1sec', 'heartrate_intraday_1min'],
  restingHeartRateBpm: ['heartrate_summary', 'heartrate_timeseries'],
  sleepMinutes: ['sleep_log'],
} as const satisfies Record<string, readonly DataType[]>;

/** The figure from the first of `types` that gave one on the day. */
function firstOf(column: AnyPgColumn, types: readonly DataType[]) {
  const t = datasetPartitions;
  return sql`coalesce(${sql.join(
    types.map((type) => sql`max(${column}) filter (where ${t.dataType} = ${type})`),
    sql`, `,
  )})`.mapWith((value: unknown) => (value === null ? null : Number(value)));
}

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
      steps: firstOf(t.steps, FIGURE_SOURCES.steps),
      wearMinutes: firstOf(t.wearMinutes, FIGURE_SOURCES.wearMinutes),
      restingHeartRateBpm: firstOf(t.restingHeartRateBpm, FIGURE_SOURCES.restingHeartRateBpm),
      sleepMinutes: firstOf(t.sleepMinutes, FIGURE_SOURCES.sleepMinutes),
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
