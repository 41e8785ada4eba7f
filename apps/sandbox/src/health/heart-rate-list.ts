import { DAY_MS, isoDate } from './civil.js';
import { dayData } from './data-generator.js';
import { applyFieldMask, type FieldMask } from './field-mask.js';
import { type Filter, matches } from './filter.js';

/**
 * The raw heart-rate `list`/`reconcile` page written straight as JSON text. A civil day holds
 * ~29,000 samples (pages of 10,000), so building every sample of two or three UTC days as objects
 * for each page and serialising them with JSON.stringify was most of the sandbox's work. This walks
 * the generated samples newest first from the page's cursor, keeps the first `size` that match, and
 * writes each from precomputed pieces with integer arithmetic. The bytes are those of
 * JSON.stringify of the generic listing (pointsOfUnit) with the request's field mask applied;
 * heart-rate-list.test.ts checks it page by page on an ordinary day, the DST day and both
 * time-zone change days, with and without partial responses.
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
  /** What the request's `fields` keeps (heartRateParts). */
  parts: HeartRateParts;
  /** Called with the last sample's key when more samples match than fit the page. */
  nextPageToken: (lastKey: number) => string;
}

const DATA_SOURCE_TEXT = `"dataSource":${JSON.stringify({
  recordingMethod: 'PASSIVELY_MEASURED',
  device: { displayName: 'Charge 6' },
  platform: 'FITBIT',
})}`;

/** Which members of each sample (and of the page) an answer carries. */
export interface HeartRateParts {
  /** The sample's `"dataSource":{…}` text as the mask keeps it; null: none. */
  dataSource: string | null;
  physicalTime: boolean;
  utcOffset: boolean;
  civilTime: boolean;
  beatsPerMinute: boolean;
  nextPageToken: boolean;
}

const ALL_PARTS: HeartRateParts = {
  dataSource: DATA_SOURCE_TEXT,
  physicalTime: true,
  utcOffset: true,
  civilTime: true,
  beatsPerMinute: true,
  nextPageToken: true,
};

const PROBE_DATA_SOURCE = JSON.parse(`{${DATA_SOURCE_TEXT}}`).dataSource;
const PROBE_CIVIL = {
  date: { year: 1, month: 1, day: 1 },
  time: { hours: 1, minutes: 1, seconds: 1 },
};
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The parts a field mask keeps, found by applying it to a probe page; null when the text writer
 * cannot write its selection (part of `civilTime`, or no `dataPoints`), and the generic listing
 * answers instead. Whatever it keeps of `dataSource` is the same for every sample: written as kept.
 */
export function heartRateParts(mask: FieldMask | null): HeartRateParts | null {
  if (!mask) return ALL_PARTS;
  const probe = {
    dataPoints: [
      {
        dataSource: PROBE_DATA_SOURCE,
        heartRate: {
          sampleTime: { physicalTime: 'p', utcOffset: 'o', civilTime: PROBE_CIVIL },
          beatsPerMinute: 'b',
        },
      },
    ],
    nextPageToken: 'n',
  };
  const page = applyFieldMask(probe, mask) as { dataPoints?: unknown[]; nextPageToken?: string };
  const point = page.dataPoints?.[0] as
    | {
        dataSource?: unknown;
        heartRate?: { sampleTime?: Record<string, unknown>; beatsPerMinute?: string };
      }
    | undefined;
  if (!point) return null;
  const time = point.heartRate?.sampleTime ?? {};
  if (time.civilTime !== undefined && !same(time.civilTime, PROBE_CIVIL)) return null;
  return {
    dataSource:
      point.dataSource === undefined ? null : `"dataSource":${JSON.stringify(point.dataSource)}`,
    physicalTime: time.physicalTime !== undefined,
    utcOffset: time.utcOffset !== undefined,
    civilTime: time.civilTime !== undefined,
    beatsPerMinute: point.heartRate?.beatsPerMinute !== undefined,
    nextPageToken: page.nextPageToken !== undefined,
  };
}

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
/** `"civilTime":{"date":{"year":…,"month":…,"day":…},"time":` of a civil day. */
function civilDatePrefix(day: number): string {
  let text = civilDates.get(day);
  if (text === undefined) {
    const d = new Date(day * DAY_MS);
    const date = { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
    text = `"civilTime":{"date":${JSON.stringify(date)},"time":`;
    if (civilDates.size > 10_000) civilDates.clear();
    civilDates.set(day, text);
  }
  return text;
}

const offsetTexts = new Map<number, string>();
/** `"utcOffset":"-18000s"` for an offset in seconds. */
function offsetText(seconds: number): string {
  let text = offsetTexts.get(seconds);
  if (text === undefined) {
    text = `"utcOffset":"${seconds}s"`;
    offsetTexts.set(seconds, text);
  }
  return text;
}

const BPM_TEXTS = Array.from({ length: 256 }, (_, bpm) => `"beatsPerMinute":"${bpm}"`);

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

/**
 * Writes one sample with the members `parts` keeps, in JSON.stringify's order; a message left
 * empty is omitted, a point left empty is `{}` (as applyFieldMask leaves them).
 */
function sampleWriter(parts: HeartRateParts, reconcile: boolean) {
  const dataSource = reconcile ? null : parts.dataSource;
  const sampleTime = parts.physicalTime || parts.utcOffset || parts.civilTime;
  const heartRate = sampleTime || parts.beatsPerMinute;
  const open = `{${dataSource ?? ''}${heartRate ? `${dataSource ? ',' : ''}"heartRate":{` : ''}${sampleTime ? '"sampleTime":{' : ''}`;
  const close = `${heartRate ? '}' : ''}}`;
  const afterTime = parts.physicalTime ? ',' : '';
  const afterOffset = parts.physicalTime || parts.utcOffset ? ',' : '';
  const beforeBpm = sampleTime ? '},' : '';
  return (physical: string, offset: number, localDay: number, localSecond: string, bpm: number) =>
    open +
    (parts.physicalTime ? `"physicalTime":"${physical}Z"` : '') +
    (parts.utcOffset ? afterTime + offsetText(offset) : '') +
    (parts.civilTime ? `${afterOffset + civilDatePrefix(localDay) + localSecond}}` : '') +
    (parts.beatsPerMinute ? beforeBpm + BPM_TEXTS[bpm] : sampleTime ? '}' : '') +
    close;
}

export function heartRatePageText(input: HeartRatePageInput): string {
  const { clock, civil } = secondTables();
  const write = sampleWriter(input.parts, input.reconcile);
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
        write(physical + clock[s], offset, localDay, civil[localSecond] ?? '', day.hrBpm[i] ?? 0),
      );
      lastKey = t;
    }
  }
  if (items.length === 0) return '{}';
  const token =
    more && input.parts.nextPageToken
      ? `,"nextPageToken":${JSON.stringify(input.nextPageToken(lastKey))}`
      : '';
  return `{"dataPoints":[${items.join(',')}]${token}}`;
}
