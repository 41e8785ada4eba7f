import type { DatasetPartitionState } from '@research/contracts';
import { and, asc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { datasetDayMonths, datasetPartitions } from '../../db/schema/index.js';
import { DAY_STATE_CODES, type DayRow, dayCell, NO_DAY_CODE, stateOfCode } from './day-cells.js';

/**
 * The read model of the ledger's day cells (`dataset_day_months`): kept in step by every ledger
 * write, in its transaction, and read by the heat map a month row per participant at a time.
 */

const DAYS = 31;
const BLANK_STATES = NO_DAY_CODE.repeat(DAYS);
const blankNumbers = (): (number | null)[] => new Array(DAYS).fill(null);

export const monthOf = (date: string) => `${date.slice(0, 7)}-01`;
const dayIndex = (date: string) => Number(date.slice(8, 10)) - 1;

export interface DayKey {
  studyId: string;
  participantId: string;
  date: string;
}

/**
 * Recomputes the cells of the given days from the ledger, inside the ledger write's transaction.
 * The month rows are locked first, in key order, so two writers of one participant's month take
 * turns and the second reads the first's committed ledger rows (read committed: each statement
 * sees what committed before it); the ledger's own locks are always taken before these.
 */
export async function refreshDayMonths(tx: Tx, keys: readonly DayKey[]): Promise<void> {
  const byParticipant = new Map<
    string,
    { studyId: string; participantId: string; dates: Set<string> }
  >();
  for (const key of keys) {
    const id = `${key.studyId}\0${key.participantId}`;
    let entry = byParticipant.get(id);
    if (!entry) {
      entry = { studyId: key.studyId, participantId: key.participantId, dates: new Set() };
      byParticipant.set(id, entry);
    }
    entry.dates.add(key.date);
  }
  const ordered = [...byParticipant.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  for (const [, { studyId, participantId, dates }] of ordered) {
    const days = [...dates].sort();
    const months = [...new Set(days.map(monthOf))];
    const t = datasetDayMonths;
    // Missing months are made and every month row is locked in one pass, in month order: a
    // conflicting row is "updated" to itself, which locks it and answers it as it stands.
    const rows = await tx
      .insert(t)
      .values(
        months.map((month) => ({
          studyId,
          participantId,
          month,
          timeZone: 'UTC',
          states: BLANK_STATES,
          wearMinutes: blankNumbers(),
          steps: blankNumbers(),
        })),
      )
      .onConflictDoUpdate({
        target: [t.studyId, t.participantId, t.month],
        set: { month: sql`excluded.month` },
      })
      .returning();
    const p = datasetPartitions;
    const ledger = await tx
      .select({
        dataType: p.dataType,
        date: p.date,
        state: p.state,
        reason: p.reason,
        wearMinutes: p.wearMinutes,
        steps: p.steps,
        timeZone: p.timeZone,
      })
      .from(p)
      .where(
        and(eq(p.studyId, studyId), eq(p.participantId, participantId), inArray(p.date, days)),
      );
    const changed: MonthCells[] = [];
    for (const row of rows) {
      const states = row.states.split('');
      const wear = [...row.wearMinutes];
      const steps = [...row.steps];
      const reasons = { ...row.reasons };
      let latest = states.findLastIndex((code) => code !== NO_DAY_CODE);
      let timeZone = row.timeZone;
      for (const date of days) {
        if (monthOf(date) !== row.month) continue;
        const dayRows = ledger.filter((r) => r.date === date);
        const cell = dayCell(dayRows as DayRow[]);
        const i = dayIndex(date);
        states[i] = cell ? DAY_STATE_CODES[cell.state] : NO_DAY_CODE;
        wear[i] = cell?.wearMinutes ?? null;
        steps[i] = cell?.steps ?? null;
        if (cell?.reason) reasons[String(i + 1)] = cell.reason;
        else delete reasons[String(i + 1)];
        if (cell && i >= latest) {
          latest = i;
          timeZone = (dayRows[0] as { timeZone: string }).timeZone;
        }
      }
      changed.push({
        month: row.month,
        states: states.join(''),
        wear_minutes: wear,
        steps,
        reasons,
        time_zone: timeZone,
      });
    }
    // Every month of the participant in one statement, the months' cells as one JSON text.
    await tx.execute(sql`
      update ${t} set states = c.states, wear_minutes = c.wear_minutes, steps = c.steps,
        reasons = c.reasons, time_zone = c.time_zone, updated_at = now()
      from json_to_recordset(${JSON.stringify(changed)}::json)
        as c(month date, states text, wear_minutes integer[], steps integer[], reasons jsonb,
          time_zone text)
      where ${t.studyId} = ${studyId} and ${t.participantId} = ${participantId}
        and ${t.month} = c.month`);
  }
}

/** A month row's new cells, keyed as the update reads them. */
interface MonthCells {
  month: string;
  states: string;
  wear_minutes: (number | null)[];
  steps: (number | null)[];
  reasons: Record<string, string>;
  time_zone: string;
}

/** A participant's day cells over a range of months, each array one entry per day of the range. */
export interface DayStrip {
  participantId: string;
  /** The zone of the latest day with a row in the range. */
  timeZone: string | null;
  /** Null where the ledger has no row for the day. */
  states: (DatasetPartitionState | null)[];
  wearMinutes: (number | null)[];
  steps: (number | null)[];
  /** By index into the range's days. */
  reasons: Record<string, string>;
}

const DAY_MS = 86_400_000;
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

/**
 * Every participant's day cells from `from` to `to` (inclusive), for the participants that have
 * a month row there. One statement; the number arrays travel as JSON text, which the client
 * parses natively (PostgreSQL array text costs ~6 × more to read, measured).
 */
export async function readDayStrips(
  db: DbOrTx,
  studyId: string,
  from: string,
  to: string,
  participantId?: string,
): Promise<Map<string, DayStrip>> {
  const t = datasetDayMonths;
  const rows = await db
    .select({
      participantId: t.participantId,
      month: t.month,
      timeZone: t.timeZone,
      states: t.states,
      wearMinutes: sql<string>`array_to_json(${t.wearMinutes})::text`,
      steps: sql<string>`array_to_json(${t.steps})::text`,
      reasons: sql<string>`${t.reasons}::text`,
    })
    .from(t)
    .where(
      and(
        eq(t.studyId, studyId),
        participantId === undefined ? undefined : eq(t.participantId, participantId),
        gte(t.month, monthOf(from)),
        lte(t.month, to),
      ),
    )
    .orderBy(asc(t.participantId), asc(t.month));
  const first = dayNumber(from);
  const length = dayNumber(to) - first + 1;
  const strips = new Map<string, DayStrip>();
  for (const row of rows) {
    let strip = strips.get(row.participantId);
    if (!strip) {
      strip = {
        participantId: row.participantId,
        timeZone: null,
        states: new Array(length).fill(null),
        wearMinutes: new Array(length).fill(null),
        steps: new Array(length).fill(null),
        reasons: {},
      };
      strips.set(row.participantId, strip);
    }
    const wear = JSON.parse(row.wearMinutes) as (number | null)[];
    const steps = JSON.parse(row.steps) as (number | null)[];
    const reasons = JSON.parse(row.reasons) as Record<string, string>;
    const offset = dayNumber(row.month) - first;
    let any = false;
    for (let d = 0; d < DAYS; d++) {
      const i = offset + d;
      if (i < 0 || i >= length) continue;
      const state = stateOfCode(row.states[d] ?? NO_DAY_CODE);
      if (state === null) continue;
      any = true;
      strip.states[i] = state;
      strip.wearMinutes[i] = wear[d] ?? null;
      strip.steps[i] = steps[d] ?? null;
      const reason = reasons[String(d + 1)];
      if (reason !== undefined) strip.reasons[String(i)] = reason;
    }
    // Months come oldest first: the last with a day in range names the latest zone.
    if (any) strip.timeZone = row.timeZone;
  }
  return strips;
}

/** Each participant's zone of their latest month row (for those with no day in a range). */
export async function latestTimeZones(
  db: DbOrTx,
  studyId: string,
  participantIds: readonly string[],
): Promise<Map<string, string>> {
  const zones = new Map<string, string>();
  if (participantIds.length === 0) return zones;
  const t = datasetDayMonths;
  const rows = await db
    .selectDistinctOn([t.participantId], { participantId: t.participantId, timeZone: t.timeZone })
    .from(t)
    .where(and(eq(t.studyId, studyId), inArray(t.participantId, [...participantIds])))
    .orderBy(asc(t.participantId), sql`${t.month} desc`);
  for (const row of rows) zones.set(row.participantId, row.timeZone);
  return zones;
}

/**
 * What changes whenever a day cell of the study in the range does: the month rows' count and
 * latest update (every refresh sets `updated_at`).
 */
export async function dayMonthsFingerprint(
  db: DbOrTx,
  studyId: string,
  from: string,
  to: string,
): Promise<string> {
  const t = datasetDayMonths;
  const [row] = await db
    .select({
      digest: sql<string>`count(*)::text || '|' || coalesce(max(${t.updatedAt})::text, '')`,
    })
    .from(t)
    .where(and(eq(t.studyId, studyId), gte(t.month, monthOf(from)), lte(t.month, to)));
  return row?.digest ?? '';
}
