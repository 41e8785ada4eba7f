import { ZoneOffsets } from './local-day.js';
import { addDays, type CallSpec, type PlannedCall } from './plan.js';
import { arr, civilDate, type Json, localTime, obj, seconds } from './tidy-readers.js';

/**
 * A ranged call's answer cut into the answers of the one-day calls it stands for. The dataset keeps
 * per day D the answers to `callsFor(type, D, D)` (dataset-days.ts reads them back as such), so a
 * backfill that asks Google for many days at once stores, per day, a page holding exactly the items
 * the one-day call would have returned, in the answer's order, in the one-day page's shape, without
 * a `nextPageToken`. Which day an item is on follows what the call's range means:
 *
 * - `dailyRollUp`: civil days; a bucket is the day of its `civilStartTime`;
 * - `rollUp` (60-second buckets): instants from local midnight to local midnight in the call's zone
 *   (UTC without one); a bucket is the civil day of its `startTime` in that zone;
 * - `list`: the member the filter compares, a civil date or local time (`daily-date`: the point's
 *   `date`; `interval-civil`: its local start; `sample-civil`: its local sample time;
 *   `sleep-civil-end`: its local end), read as the extraction's tidy rows read it (the provider's
 *   civil time when given, else the instant moved by its offset).
 *
 * The filters and ranges are half-open and day-aligned, so the one-day calls' items are the ranged
 * call's items split by day. An item that cannot be placed on a day of the range means the answer
 * is not what was asked: the cut refuses it rather than store a day that may not be the day's.
 */

export class DayCutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DayCutError';
  }
}

/** The page member holding a call's items. */
const itemsOf = (spec: CallSpec) => (spec.method === 'list' ? 'dataPoints' : 'rollupDataPoints');

/** `daily-resting-heart-rate` → `dailyRestingHeartRate`: the member a list point's value is under. */
const camel = (apiType: string) => apiType.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

function zoneDate(instant: unknown, zone: ZoneOffsets): string | null {
  if (typeof instant !== 'string') return null;
  const ms = Date.parse(instant);
  return Number.isNaN(ms) ? null : zone.dateOf(ms);
}

const localDate = (civil: unknown, instant: unknown, offset: unknown) =>
  localTime(civil, String(instant ?? ''), seconds(offset))?.slice(0, 10) ?? null;

/**
 * The day (yyyy-mm-dd) whose one-day call returns this item; null when it cannot be told.
 * `zone`: the zone a `rollUp` call's days were cut in (UTC when absent).
 */
export function dayOfItem(
  spec: CallSpec,
  item: unknown,
  zone: ZoneOffsets = new ZoneOffsets('UTC'),
): string | null {
  const point = obj(item);
  switch (spec.method) {
    case 'dailyRollUp':
      return civilDate(obj(point.civilStartTime).date);
    case 'rollUp':
      return zoneDate(point.startTime, zone);
    case 'list': {
      const value = obj(point[camel(spec.apiType ?? '')]);
      const interval = obj(value.interval);
      switch (spec.filter) {
        case 'daily-date':
          return civilDate(value.date);
        case 'interval-civil':
          return localDate(interval.civilStartTime, interval.startTime, interval.startUtcOffset);
        case 'sleep-civil-end':
          return localDate(interval.civilEndTime, interval.endTime, interval.endUtcOffset);
        case 'sample-civil': {
          const at = obj(value.sampleTime);
          return localDate(at.civilTime, at.physicalTime, at.utcOffset);
        }
        default:
          return null;
      }
    }
    default:
      return null;
  }
}

/**
 * The answer of `call` (every page, parsed, in fetch order) as one page per day of its range
 * [from, to): each the JSON a one-day call answers, days without items included (`{}` when the
 * answer has no other member).
 */
export function cutToDays(call: PlannedCall, pages: readonly unknown[]): Map<string, Buffer> {
  const { spec, from, to } = call;
  if (!from || !to || spec.chunkDays === null) {
    throw new DayCutError(`The ${spec.key} call has no day range to cut`);
  }
  const field = itemsOf(spec);
  const zone = new ZoneOffsets(call.timeZone ?? 'UTC');
  const byDay = new Map<string, unknown[]>();
  for (let date = from; date < to; date = addDays(date, 1)) byDay.set(date, []);
  for (const page of pages) {
    for (const item of arr(obj(page)[field])) {
      const date = dayOfItem(spec, item, zone);
      const items = date === null ? undefined : byDay.get(date);
      if (!items) {
        throw new DayCutError(
          `An item of the ${spec.key} answer for ${from}…${addDays(to, -1)} is not on one of its days (${date ?? 'unreadable'})`,
        );
      }
      items.push(item);
    }
  }
  // The first page's other members (none from Google so far) stay, in their order; the items go
  // where the answer had them.
  const first = obj(pages[0]);
  const keys = Object.keys(first).filter((key) => key !== 'nextPageToken');
  if (!keys.includes(field)) keys.push(field);
  const out = new Map<string, Buffer>();
  for (const [date, items] of byDay) {
    const page: Json = {};
    for (const key of keys) {
      if (key !== field) page[key] = first[key];
      else if (items.length > 0) page[key] = items;
    }
    out.set(date, Buffer.from(JSON.stringify(page)));
  }
  return out;
}

/** One day's page of a ranged call (see cutToDays). */
export function cutToDay(call: PlannedCall, pages: readonly unknown[], date: string): Buffer {
  const page = cutToDays(call, pages).get(date);
  if (!page) throw new DayCutError(`${date} is not a day of the ${call.spec.key} call's range`);
  return page;
}
