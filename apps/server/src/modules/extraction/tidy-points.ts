import type { DataType } from '@research/contracts';
import { ZoneOffsets } from './local-day.js';
import type { Cell } from './tidy-columns.js';
import {
  arr,
  type CallPages,
  type DayWindow,
  inWindow,
  type Json,
  localTime,
  num,
  obj,
  seconds,
} from './tidy-readers.js';

/**
 * The types whose rows are one per data point (intraday series and sleep sessions): each row is
 * made from its page alone, so rows can be kept, or written, as pages arrive.
 */

/** One sleep session: its times at both ends, its summary minutes and its stages. */
function sleepRow(participantId: string, p: Json): Cell[] {
  const sleep = obj(p.sleep);
  const interval = obj(sleep.interval);
  const summary = obj(sleep.summary);
  const metadata = obj(sleep.metadata);
  const start = String(interval.startTime ?? '');
  const end = String(interval.endTime ?? '');
  const startOffset = seconds(interval.startUtcOffset);
  const endOffset = seconds(interval.endUtcOffset);
  const endCivil = localTime(interval.civilEndTime, end, endOffset);
  const stage = (type: string) =>
    num(
      arr(summary.stagesSummary)
        .map(obj)
        .find((s) => s.type === type)?.minutes,
    ) ?? 0;
  const name = String(p.name ?? p.dataPointName ?? '');
  return [
    participantId,
    name.slice(name.lastIndexOf('/') + 1),
    endCivil?.slice(0, 10) ?? null,
    start,
    startOffset,
    localTime(interval.civilStartTime, start, startOffset),
    end,
    endOffset,
    endCivil,
    metadata.mainSleep === true,
    num(summary.minutesInSleepPeriod),
    num(summary.minutesAsleep) ?? 0,
    num(summary.minutesAwake) ?? 0,
    num(summary.minutesToFallAsleep) ?? 0,
    stage('AWAKE'),
    stage('LIGHT'),
    stage('DEEP'),
    stage('REM'),
    (metadata.stagesStatus as string) ?? null,
    metadata.processed === true,
  ];
}

/** The device a listed point came from: its display name, else its platform (null: neither). */
export function sourceOf(p: Json): string | null {
  const source = obj(p.dataSource);
  const name = obj(source.device).displayName;
  if (typeof name === 'string' && name !== '') return name;
  return typeof source.platform === 'string' && source.platform !== '' ? source.platform : null;
}

const zones = new Map<string, ZoneOffsets>();
/** One ZoneOffsets per zone, so its cache lives across pages. */
function zoneOffsets(timeZone: string): ZoneOffsets {
  let zone = zones.get(timeZone);
  if (!zone) {
    if (zones.size > 1000) zones.clear();
    zone = new ZoneOffsets(timeZone);
    zones.set(timeZone, zone);
  }
  return zone;
}

/**
 * A 60-second bucket's start with the offset the participant's zone has then, and the local time
 * it gives: the bucket holds no offset of its own, and its range was cut at that zone's midnights.
 */
function bucketTimes(p: Json, zone: ZoneOffsets): [string, number | null, string | null] {
  const start = String(p.startTime ?? '');
  const local = zone.civilOf(start);
  return [start, local?.offset ?? null, local?.civil ?? null];
}

/** Types whose rows are one per data point, each made from its page alone. */
const POINT_ROWS: Partial<
  Record<
    DataType,
    {
      /** The call key and the page field holding the points. */
      key: string;
      field: 'dataPoints' | 'rollupDataPoints';
      row: (participantId: string, point: Json, zone: ZoneOffsets) => Cell[];
      /** The column rows are ordered by. */
      order: number;
    }
  >
> = {
  activity_steps_intraday: {
    key: 'steps',
    field: 'dataPoints',
    row: (participantId, p) => {
      const steps = obj(p.steps);
      const interval = obj(steps.interval);
      const start = String(interval.startTime ?? '');
      const offset = seconds(interval.startUtcOffset);
      const civil = localTime(interval.civilStartTime, start, offset);
      return [participantId, start, offset, civil, num(steps.count), sourceOf(p)];
    },
    order: 1,
  },
  heartrate_intraday_1sec: {
    key: 'heart-rate',
    field: 'dataPoints',
    row: (participantId, p) => {
      const hr = obj(p.heartRate);
      const at = obj(hr.sampleTime);
      const time = String(at.physicalTime ?? '');
      const offset = seconds(at.utcOffset);
      const civil = localTime(at.civilTime, time, offset);
      return [participantId, time, offset, civil, num(hr.beatsPerMinute), sourceOf(p)];
    },
    order: 1,
  },
  // Roll-up buckets carry no UTC offset: the participant's zone gives it (bucketTimes).
  activity_calories_intraday: {
    key: 'total-calories',
    field: 'rollupDataPoints',
    row: (participantId, p, zone) => [
      participantId,
      ...bucketTimes(p, zone),
      num(obj(p.totalCalories).kcalSum),
    ],
    order: 1,
  },
  heartrate_intraday_1min: {
    key: 'heart-rate',
    field: 'rollupDataPoints',
    row: (participantId, p, zone) => {
      const hr = obj(p.heartRate);
      return [
        participantId,
        ...bucketTimes(p, zone),
        num(hr.beatsPerMinuteAvg),
        num(hr.beatsPerMinuteMin),
        num(hr.beatsPerMinuteMax),
      ];
    },
    order: 1,
  },
  sleep_log: {
    key: 'sleep',
    field: 'dataPoints',
    row: sleepRow,
    order: 3,
  },
};

/**
 * The rows of one page of a type whose rows are one per point, so a task keeps rows rather than
 * the parsed pages (a day of raw heart rate is ~29,000 points); null for every other type, whose
 * rows need all the task's pages (tidyRows).
 */
export function rowsOfPage(
  dataType: DataType,
  participantId: string,
  callKey: string,
  page: unknown,
  /** The participant's IANA zone, for the offsets of 60-second buckets (UTC when not known). */
  timeZone = 'UTC',
): Cell[][] | null {
  const spec = POINT_ROWS[dataType];
  if (!spec) return null;
  if (callKey !== spec.key) return [];
  const rows: Cell[][] = [];
  const zone = zoneOffsets(timeZone);
  for (const point of arr(obj(page)[spec.field])) {
    rows.push(spec.row(participantId, obj(point), zone));
  }
  return rows;
}

/** A point-per-row type's rows of a task, from rowsOfPage in fetch order, in time order. */
export function orderRows(dataType: DataType, window: DayWindow, rows: Cell[][]): Cell[][] {
  const kept =
    dataType === 'sleep_log'
      ? rows.filter((row) => typeof row[2] === 'string' && inWindow(row[2], window))
      : rows;
  // Pages come newest first: the sort meets descending runs, which it reverses in linear time.
  return kept.sort(byCell(POINT_ROWS[dataType]?.order ?? 1));
}

/** The order of two cells of the column rows are sorted by. */
export const compareKeys = (a: Cell, b: Cell) => String(a).localeCompare(String(b));

function byCell(index: number) {
  return (a: Cell[], b: Cell[]) => compareKeys(a[index] as Cell, b[index] as Cell);
}

/**
 * The column a point-per-row type's rows are ordered by, when every point becomes a row (no
 * window filter), so rows can be written as pages arrive; null for every other type.
 */
export function streamOrder(dataType: DataType): number | null {
  return dataType === 'sleep_log' ? null : (POINT_ROWS[dataType]?.order ?? null);
}

/** A point-per-row type's rows of a task, page by page in fetch order, then in time order. */
export function pointRows(
  dataType: DataType,
  participantId: string,
  window: DayWindow,
  calls: CallPages[],
  timeZone = 'UTC',
): Cell[][] {
  const rows: Cell[][] = [];
  for (const call of calls) {
    for (const page of call.pages) {
      const pageRows = rowsOfPage(dataType, participantId, call.key, page, timeZone);
      if (pageRows) for (const row of pageRows) rows.push(row);
    }
  }
  return orderRows(dataType, window, rows);
}
