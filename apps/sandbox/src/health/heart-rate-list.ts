import { DAY_MS, isoDate } from './civil.js';
import { dayData } from './data-generator.js';
import { type Filter, matches } from './filter.js';

/**
 * The raw heart-rate `list`/`reconcile` page written straight as JSON text. A civil day holds
 * ~29,000 samples (pages of 10,000), so building every sample of two or three UTC days as objects
 * for each page and serialising them with JSON.stringify was most of the sandbox's work. This walks
 * the generated samples newest first from the page's cursor, keeps the first `size` that match, and
 * writes each from precomputed pieces with integer arithmetic. The bytes are those of
 * JSON.stringify of the generic listing (pointsOfUnit); heart-rate-list.test.ts checks it page by
 * page on an ordinary day, the DST day and both time-zone change days.
 */

export interface HeartRatePageInput {
  email: string;
  now: number;
  filter: Filter;
  /** Exclusive upper bound of the sample instant (ms), from the page token; null on page one. */
  cursor: number | null;
  size: number;
  /** UTC days to walk, newest first: `last` down to `first`. */
  first: number;
  last: number;
  reconcile: boolean;
  /** Called with the last sample's key when more samples match than fit the page. */
  nextPageToken: (lastKey: number) => string;
}

/** The same fields, in the same order, as the generic listing's data point objects. */
const LIST_PREFIX = `{"dataSource":${JSON.stringify({
  recordingMethod: 'PASSIVELY_MEASURED',
  device: { displayName: 'Charge 6' },
  platform: 'FITBIT',
})},"heartRate":{"sampleTime":{"physicalTime":"`;
const RECONCILE_PREFIX = '{"heartRate":{"sampleTime":{"physicalTime":"';

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

let clockTexts: string[] | undefined;
let civilTimeTexts: string[] | undefined;
/** `HH:MM:SS` and the CivilDateTime `time` object (zero parts omitted) per second of the day. */
function secondTables(): { clock: string[]; civil: string[] } {
  if (!clockTexts || !civilTimeTexts) {
    clockTexts = new Array<string>(86_400);
    civilTimeTexts = new Array<string>(86_400);
    for (let s = 0; s < 86_400; s++) {
      const h = Math.floor(s / 3600);
      const m = Math.floor(s / 60) % 60;
      const sec = s % 60;
      clockTexts[s] = `${pad2(h)}:${pad2(m)}:${pad2(sec)}`;
      civilTimeTexts[s] = JSON.stringify({
        ...(h ? { hours: h } : {}),
        ...(m ? { minutes: m } : {}),
        ...(sec ? { seconds: sec } : {}),
      });
    }
  }
  return { clock: clockTexts, civil: civilTimeTexts };
}

const dayPrefixes = new Map<number, string>();
/** `YYYY-MM-DDT` of a UTC day. */
function dayPrefix(day: number): string {
  let text = dayPrefixes.get(day);
  if (text === undefined) {
    text = `${isoDate(day)}T`;
    if (dayPrefixes.size > 10_000) dayPrefixes.clear();
    dayPrefixes.set(day, text);
  }
  return text;
}

const civilDates = new Map<number, string>();
/** `,"civilTime":{"date":{"year":…,"month":…,"day":…},"time":` of a civil day. */
function civilDatePrefix(day: number): string {
  let text = civilDates.get(day);
  if (text === undefined) {
    const d = new Date(day * DAY_MS);
    const date = { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
    text = `,"civilTime":{"date":${JSON.stringify(date)},"time":`;
    if (civilDates.size > 10_000) civilDates.clear();
    civilDates.set(day, text);
  }
  return text;
}

const offsetTexts = new Map<number, string>();
/** `Z","utcOffset":"-18000s"` for an offset in seconds. */
function offsetText(seconds: number): string {
  let text = offsetTexts.get(seconds);
  if (text === undefined) {
    text = `Z","utcOffset":"${seconds}s"`;
    offsetTexts.set(seconds, text);
  }
  return text;
}

const BPM_TEXTS = Array.from({ length: 256 }, (_, bpm) => `}},"beatsPerMinute":"${bpm}"}}`);

/** Index of the first sample at or after `seconds` in an ascending list. */
function lowerBound(list: Int32Array, seconds: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] ?? 0) < seconds) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function heartRatePageText(input: HeartRatePageInput): string {
  const { clock, civil } = secondTables();
  const prefix = input.reconcile ? RECONCILE_PREFIX : LIST_PREFIX;
  const members = { 'sample_time.physical_time': 0, 'sample_time.civil_time': 0 };
  const items: string[] = [];
  let lastKey = 0;
  let more = false;
  for (let unit = input.last; unit >= input.first && !more; unit--) {
    const day = dayData(input.email, unit);
    const dayStart = unit * DAY_MS;
    const seconds = day.hrSeconds;
    // Samples are generated in time order: start at the newest before the cursor, not after now.
    const bound = Math.min(input.cursor ?? Number.POSITIVE_INFINITY, input.now + 1);
    const start = lowerBound(seconds, Math.ceil((bound - dayStart) / 1000));
    const physical = dayPrefix(unit);
    for (let i = start - 1; i >= 0; i--) {
      const s = seconds[i] ?? 0;
      const t = dayStart + s * 1000;
      const offset = day.offset[Math.floor(s / 60)] ?? 0;
      const local = t + offset * 1000;
      members['sample_time.physical_time'] = t;
      members['sample_time.civil_time'] = local;
      if (!matches(input.filter, members)) continue;
      if (items.length === input.size) {
        more = true;
        break;
      }
      const localDay = Math.floor(local / DAY_MS);
      const localSecond = (local - localDay * DAY_MS) / 1000;
      items.push(
        prefix +
          physical +
          clock[s] +
          offsetText(offset) +
          civilDatePrefix(localDay) +
          civil[localSecond] +
          BPM_TEXTS[day.hrBpm[i] ?? 0],
      );
      lastKey = t;
    }
  }
  if (items.length === 0) return '{}';
  const token = more ? `,"nextPageToken":${JSON.stringify(input.nextPageToken(lastKey))}` : '';
  return `{"dataPoints":[${items.join(',')}]${token}}`;
}
