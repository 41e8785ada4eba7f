import { randomUUID } from 'node:crypto';
import { civilDateTime, civilMs, DAY_MS, MINUTE_MS, rfc3339 } from './civil.js';
import { DATA_START_DAY, dayData, utcOffsetAt } from './data-generator.js';
import { pointsOfUnit } from './data-points.js';
import { DATA_TYPES, findType, type TypeSpec } from './data-types.js';

/**
 * What a change notification says: who, which data type, added/changed or deleted, and the time
 * intervals concerned, never the values (the receiver reads them back with the person's token).
 */

/** The data types Google sends change notifications for; the others are read by polling only. */
export const NOTIFYING_TYPES: ReadonlySet<string> = new Set([
  'active-minutes',
  'active-zone-minutes',
  'activity-level',
  'altitude',
  'blood-glucose',
  'body-fat',
  'calories-in-heart-rate-zone',
  'daily-heart-rate-variability',
  'daily-heart-rate-zones',
  'daily-oxygen-saturation',
  'daily-respiratory-rate',
  'daily-resting-heart-rate',
  'daily-sleep-temperature-derivations',
  'distance',
  'exercise',
  'floors',
  'heart-rate',
  'heart-rate-variability',
  'height',
  'hydration-log',
  'nutrition-log',
  'respiratory-rate-sleep-summary',
  'run-vo2-max',
  'sedentary-period',
  'sleep',
  'steps',
  'time-in-heart-rate-zone',
  'total-calories',
  'weight',
]);

export type Operation = 'UPSERT' | 'DELETE';

/** Runs of new data closer than this are reported as one interval. */
const MERGE_GAP_MS = 15 * MINUTE_MS;

export interface Span {
  start: number;
  end: number;
}

function localIso(localMs: number): string {
  return new Date(localMs).toISOString().slice(0, 19);
}

/** One interval in the three forms a notification carries, with the person's offsets then. */
export function intervalJson(span: Span) {
  const startLocal = civilMs(span.start, utcOffsetAt(span.start));
  const endLocal = civilMs(span.end, utcOffsetAt(span.end));
  return {
    physicalTimeInterval: { startTime: rfc3339(span.start), endTime: rfc3339(span.end) },
    civilDateTimeInterval: {
      startDateTime: civilDateTime(startLocal),
      endDateTime: civilDateTime(endLocal),
    },
    civilIso8601TimeInterval: { startTime: localIso(startLocal), endTime: localIso(endLocal) },
  };
}

export function notificationBody(
  healthUserId: string,
  operation: Operation,
  dataType: string,
  spans: Span[],
): string {
  return JSON.stringify({
    data: {
      version: '1',
      // Automatic subscriptions have no name of the client's: each notification gets a fresh UUID.
      clientProvidedSubscriptionName: randomUUID(),
      healthUserId,
      operation,
      dataType,
      intervals: spans.map(intervalJson),
    },
  });
}

function merge(spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const out: Span[] = [];
  for (const span of sorted) {
    const last = out.at(-1);
    if (last && span.start - last.end < MERGE_GAP_MS) last.end = Math.max(last.end, span.end);
    else out.push({ ...span });
  }
  return out;
}

/** The physical span a point covers: its interval, or a second for a sample. */
function pointSpans(type: TypeSpec, email: string, healthUserId: string, from: number, to: number) {
  const spans: Span[] = [];
  const firstUnit = Math.max(Math.floor(from / DAY_MS) - 1, DATA_START_DAY);
  const lastUnit = Math.floor(to / DAY_MS) + 1;
  for (let unit = firstUnit; unit <= lastUnit; unit++) {
    if (type.id === 'heart-rate') {
      // Thousands of samples a day: read their times without building the points.
      for (const second of dayData(email, unit).hrSeconds) {
        const at = unit * DAY_MS + second * 1000;
        if (at > from && at <= to) spans.push({ start: at, end: at + 1000 });
      }
      continue;
    }
    for (const point of pointsOfUnit(type, email, healthUserId, unit)) {
      // A point becomes visible once its end (or sample time) has synced.
      if (point.at <= from || point.at > to) continue;
      const start =
        point.members['interval.start_time'] ??
        point.members['sample_time.physical_time'] ??
        (type.kind === 'sleep' ? sleepStart(point.payload) : point.at);
      spans.push({ start, end: point.at === start ? start + 1000 : point.at });
    }
  }
  return spans;
}

function sleepStart(payload: Record<string, unknown>): number {
  const interval = payload.interval as { startTime?: string } | undefined;
  return interval?.startTime ? Date.parse(interval.startTime) : 0;
}

/**
 * The intervals of a type whose data became visible when the horizon moved from `from` to `to`
 * (exclusive, inclusive): new points merged into runs; daily values as the local day they
 * describe; totals (every minute has calories) as the whole synced span.
 */
export function changedSpans(
  type: TypeSpec,
  email: string,
  healthUserId: string,
  from: number,
  to: number,
): Span[] {
  if (!type.generated || to <= from) return [];
  const dataStart = DATA_START_DAY * DAY_MS;
  if (type.kind === 'daily') {
    // A day's value shows once that local day has begun.
    const spans: Span[] = [];
    const localDay = (ms: number) => Math.floor(civilMs(ms, utcOffsetAt(ms)) / DAY_MS);
    for (let day = Math.max(localDay(from) + 1, DATA_START_DAY); day <= localDay(to); day++) {
      const start = day * DAY_MS - utcOffsetAt(day * DAY_MS) * 1000;
      const end = (day + 1) * DAY_MS - utcOffsetAt((day + 1) * DAY_MS) * 1000;
      spans.push({ start, end });
    }
    return spans;
  }
  if (type.id === 'total-calories') {
    const start = Math.max(Math.floor(from / MINUTE_MS) * MINUTE_MS, dataStart);
    const end = Math.ceil(to / MINUTE_MS) * MINUTE_MS;
    return end > start ? [{ start, end }] : [];
  }
  const source =
    type.id === 'calories-in-heart-rate-zone' ? findType('time-in-heart-rate-zone') : type;
  if (!source) return [];
  return merge(pointSpans(source, email, healthUserId, from, to));
}

/** The generated types that notify, in the order notifications go out. */
export function notifyingGeneratedTypes(): TypeSpec[] {
  return DATA_TYPES.filter((t) => t.generated && NOTIFYING_TYPES.has(t.id));
}
