import { csvField } from './csv.js';

/**
 * A raw heart-rate page (the engine's partial response; see
 * docs/decisions/0002-heart-rate-byte-reader.md) turned into its tidy CSV rows straight from the
 * answer's bytes. A week of raw heart rate is ~200,000 samples a participant; JSON.parse made four
 * objects and five strings of each, which the rows then copied again, and that was most of the
 * engine's CPU. This reads the one shape the engine asks for,
 *
 *   {"dataPoints":[{"dataSource":{"device":{"displayName":"Charge 6"},"platform":"FITBIT"},
 *     "heartRate":{"sampleTime":{"physicalTime":"2026-11-10T05:00:00Z",
 *     "utcOffset":"-18000s"},"beatsPerMinute":"72"}}, …],"nextPageToken":"…"}
 *
 * (`dataSource` optional, before `heartRate`, its two members in either order, each optional; the
 * `source` column is the display name, else the platform),
 * any JSON white space between tokens, newest sample first as Google lists them, and writes the
 * same bytes `toCsv` writes for `rowsOfPage`'s rows, oldest first. Anything else — another member
 * or order, an escape in a string, a fraction of a second, a non-canonical number, two samples not
 * strictly newest first, a day a `Date` would roll over — answers null, and the page is read as JSON
 * by the generic path, which is therefore the one definition of the rows (heart-rate-page.test.ts
 * checks both give the same bytes, also on mutated pages).
 */
export class TidiedPage {
  constructor(
    /** The rows as CSV, oldest first. */
    readonly csv: Buffer,
    readonly rows: number,
    /** timestamp_utc of the newest (first listed) and oldest (last listed) sample; null if none. */
    readonly newest: string | null,
    readonly oldest: string | null,
    readonly nextPageToken: string | undefined,
  ) {}
}

const key = (name: string) => Buffer.from(`"${name}"`, 'latin1');
const DATA_POINTS = key('dataPoints');
const HEART_RATE = key('heartRate');
const SAMPLE_TIME = key('sampleTime');
const PHYSICAL_TIME = key('physicalTime');
const UTC_OFFSET = key('utcOffset');
const BEATS_PER_MINUTE = key('beatsPerMinute');
const DATA_SOURCE = key('dataSource');
const DEVICE = key('device');
const DISPLAY_NAME = key('displayName');
const PLATFORM = key('platform');
const NEXT_PAGE_TOKEN = key('nextPageToken');

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const DASH = 0x2d;
const ZERO = 0x30;
const NEWLINE = 0x0a;
/** `yyyy-mm-ddThh:mm:ssZ` */
const TIME_LENGTH = 20;
/** `yyyy-mm-ddThh:mm:ss` */
const CIVIL_LENGTH = 19;

// Per sample, where its texts start in the page (reused: decoding is synchronous).
let capacity = 0;
let timeAt = new Int32Array(0);
let offsetAt = new Int32Array(0);
let offsetLength = new Int32Array(0);
let offsetValue = new Int32Array(0);
let bpmAt = new Int32Array(0);
let bpmLength = new Int32Array(0);
/** Where the sample's source text starts and its length (-1: no source). */
let sourceAt = new Int32Array(0);
let sourceLength = new Int32Array(0);
/** Seconds of the UTC day, and which of `days` the sample's UTC day is. */
let secondOfDay = new Int32Array(0);
let dayOf = new Int32Array(0);

function grow(n: number) {
  if (n <= capacity) return;
  capacity = Math.max(n, capacity * 2, 1024);
  const larger = (old: Int32Array) => {
    const array = new Int32Array(capacity);
    array.set(old);
    return array;
  };
  timeAt = larger(timeAt);
  offsetAt = larger(offsetAt);
  offsetLength = larger(offsetLength);
  offsetValue = larger(offsetValue);
  bpmAt = larger(bpmAt);
  bpmLength = larger(bpmLength);
  sourceAt = larger(sourceAt);
  sourceLength = larger(sourceLength);
  secondOfDay = larger(secondOfDay);
  dayOf = larger(dayOf);
}

/** A UTC day's civil date and those of the days before and after, as `yyyy-mm-ddT` bytes. */
interface Day {
  /** Midnight of the UTC day, ms since the epoch. */
  ms: number;
  previous: Buffer;
  same: Buffer;
  next: Buffer;
}
const DAY_MS = 86_400_000;
const dayTexts = new Map<number, Day | null>();
const dayText = (ms: number) => Buffer.from(`${new Date(ms).toISOString().slice(0, 10)}T`);
/** yyyymmdd → its texts, or null for a day `Date` does not have as written (Feb 30). */
function dayFor(yyyymmdd: number): Day | null {
  let day = dayTexts.get(yyyymmdd);
  if (day === undefined) {
    const text = `${String(yyyymmdd).slice(0, 4)}-${String(yyyymmdd).slice(4, 6)}-${String(yyyymmdd).slice(6)}`;
    const ms = Date.parse(`${text}T00:00:00Z`);
    day =
      Number.isNaN(ms) || !new Date(ms).toISOString().startsWith(text)
        ? null
        : { ms, previous: dayText(ms - DAY_MS), same: dayText(ms), next: dayText(ms + DAY_MS) };
    if (dayTexts.size >= 10_000) dayTexts.clear();
    dayTexts.set(yyyymmdd, day);
  }
  return day;
}

// The compact text between a sample's values, matched in one go before the general reading.
const OPEN_SOURCE = Buffer.from('{"dataSource":{"device":{"displayName":"', 'latin1');
const AFTER_NAME = Buffer.from('"},"platform":"', 'latin1');
const AFTER_PLATFORM = Buffer.from('"},"heartRate":{"sampleTime":{"physicalTime":"', 'latin1');
const OPEN = Buffer.from('{"heartRate":{"sampleTime":{"physicalTime":"', 'latin1');
const AFTER_TIME = Buffer.from('","utcOffset":"', 'latin1');
const AFTER_OFFSET = Buffer.from('s"},"beatsPerMinute":"', 'latin1');
const AFTER_BPM = Buffer.from('"}}', 'latin1');

/** Index of the first byte from `i` that is not JSON white space. */
function skip(b: Buffer, i: number): number {
  for (; i < b.length; i++) {
    const c = b[i];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
  }
  return i;
}
function literal(b: Buffer, i: number, text: Buffer): boolean {
  if (i + text.length > b.length) return false;
  for (let k = 0; k < text.length; k++) if (b[i + k] !== text[k]) return false;
  return true;
}
/** White space, the byte `c`, white space: the index after them, or -1. */
function token(b: Buffer, i: number, c: number): number {
  if (i < 0) return -1;
  const at = skip(b, i);
  return b[at] === c ? skip(b, at + 1) : -1;
}
/** A member's name at `i` and its colon: the index of its value, or -1. */
function member(b: Buffer, i: number, name: Buffer): number {
  return i >= 0 && literal(b, i, name) ? token(b, i + name.length, COLON) : -1;
}
/** `"` at `i`: the index after it, or -1. */
const quote = (b: Buffer, i: number) => (i >= 0 && b[i] === QUOTE ? i + 1 : -1);
/** The digit at `at`, or a large negative number so that any sum of it stays negative. */
function digitAt(b: Buffer, at: number): number {
  const d = (b[at] ?? -1) - ZERO;
  return d >= 0 && d <= 9 ? d : -100_000;
}
/** Digits as Number() prints them (no leading zero) from `i`: the index after them, or -1. */
function canonicalDigits(b: Buffer, i: number, max: number): number {
  const from = i;
  if (b[i] === ZERO) i++;
  else if ((b[i] ?? 0) > ZERO && (b[i] ?? 0) <= 0x39) {
    i++;
    while (i < b.length && (b[i] as number) >= ZERO && (b[i] as number) <= 0x39) i++;
  }
  return i === from || i - from > max ? -1 : i;
}

/**
 * A plain string's text from `i` (just after its opening quote) to its closing quote: the index of
 * that quote, or -1 for an escape, a control character, or a byte CSV would quote (`,`).
 */
function plainText(b: Buffer, i: number): number {
  if (i < 0) return -1;
  while (i < b.length) {
    const c = b[i] as number;
    if (c === QUOTE) return i;
    if (c === 0x5c || c < 0x20 || c === COMMA) return -1;
    i++;
  }
  return -1;
}

/**
 * The sample's `"dataSource":{…}` from `i` (at its name) into sourceAt/sourceLength[n]: the index
 * after the object, or -1 when it is not `device` (with only `displayName`) and `platform`.
 */
function readSource(b: Buffer, i: number, n: number): number {
  i = token(b, member(b, i, DATA_SOURCE), 0x7b);
  let name = -1;
  let nameEnd = -1;
  let platform = -1;
  let platformEnd = -1;
  while (i >= 0 && b[i] !== 0x7d) {
    if (name >= 0 || platform >= 0) i = token(b, i, COMMA);
    if (i < 0) return -1;
    if (literal(b, i, DEVICE) && name < 0) {
      i = quote(b, member(b, token(b, member(b, i, DEVICE), 0x7b), DISPLAY_NAME));
      nameEnd = plainText(b, i);
      if (nameEnd < 0) return -1;
      name = i;
      i = token(b, nameEnd + 1, 0x7d);
    } else if (literal(b, i, PLATFORM) && platform < 0) {
      i = quote(b, member(b, i, PLATFORM));
      platformEnd = plainText(b, i);
      if (platformEnd < 0) return -1;
      platform = i;
      i = skip(b, platformEnd + 1);
    } else return -1;
  }
  if (i < 0) return -1;
  if (name >= 0 && nameEnd > name) {
    sourceAt[n] = name;
    sourceLength[n] = nameEnd - name;
  } else if (platform >= 0 && platformEnd > platform) {
    sourceAt[n] = platform;
    sourceLength[n] = platformEnd - platform;
  } else {
    sourceAt[n] = 0;
    sourceLength[n] = -1;
  }
  return skip(b, i + 1);
}

/** The page's rows, or null when it is not exactly the shape above (read it as JSON then). */
export function tidyHeartRatePage(b: Buffer, participantId: string): TidiedPage | null {
  const page = scanPage(b);
  if (!page) return null;
  const { count, days, nextPageToken } = page;
  const timeText = (n: number) => {
    const t = timeAt[n] as number;
    return b.toString('latin1', t, t + TIME_LENGTH);
  };
  return new TidiedPage(
    writeRows(b, count, days, Buffer.from(`${csvField(participantId)},`)),
    count,
    count ? timeText(0) : null,
    count ? timeText(count - 1) : null,
    nextPageToken,
  );
}

/**
 * The same rows as typed columns, oldest first, for writers that store values rather than text
 * (the dataset's Parquet files); null exactly when `tidyHeartRatePage` is.
 */
export interface HeartRateColumns {
  rows: number;
  /** timestamp_utc, ms since the epoch. */
  timeMs: Float64Array;
  utcOffsetSeconds: Int32Array;
  /** civil_time read as if it were UTC, ms since the epoch (timestamp_utc + offset). */
  civilMs: Float64Array;
  bpm: Float64Array;
  /** The device (display name, else platform); null where the sample names none. */
  source: (string | null)[];
  nextPageToken: string | undefined;
}

export function heartRatePageColumns(b: Buffer): HeartRateColumns | null {
  const page = scanPage(b);
  if (!page) return null;
  const { count, days } = page;
  const timeMs = new Float64Array(count);
  const utcOffsetSeconds = new Int32Array(count);
  const civilMs = new Float64Array(count);
  const bpm = new Float64Array(count);
  const source = new Array<string | null>(count);
  // Samples of one source follow each other: decode a text once per run of it.
  let lastAt = -1;
  let lastLength = -2;
  let lastText: string | null = null;
  for (let n = count - 1, r = 0; n >= 0; n--, r++) {
    const at = sourceAt[n] as number;
    const length = sourceLength[n] as number;
    const same =
      length === lastLength &&
      (length < 0 || at === lastAt || b.compare(b, at, at + length, lastAt, lastAt + length) === 0);
    if (!same) {
      lastText = length < 0 ? null : b.toString('utf8', at, at + length);
    }
    lastAt = at;
    lastLength = length;
    source[r] = lastText;
    const ms = (days[dayOf[n] as number] as Day).ms + (secondOfDay[n] as number) * 1000;
    const offset = offsetValue[n] as number;
    timeMs[r] = ms;
    utcOffsetSeconds[r] = offset;
    civilMs[r] = ms + offset * 1000;
    let value = 0;
    const p = bpmAt[n] as number;
    for (let k = p; k < p + (bpmLength[n] as number); k++)
      value = value * 10 + (b[k] as number) - ZERO;
    bpm[r] = value;
  }
  return {
    rows: count,
    timeMs,
    utcOffsetSeconds,
    civilMs,
    bpm,
    source,
    nextPageToken: page.nextPageToken,
  };
}

/** A sample's opening read member by member: the index of its physicalTime's text, or -1. */
function openSample(b: Buffer, i: number, n: number): number {
  i = token(b, i, 0x7b);
  if (i >= 0 && literal(b, i, DATA_SOURCE)) i = token(b, readSource(b, i, n), COMMA);
  i = member(b, token(b, member(b, i, HEART_RATE), 0x7b), SAMPLE_TIME);
  return quote(b, member(b, token(b, i, 0x7b), PHYSICAL_TIME));
}

/** Reads the page into the per-sample arrays above; null when it is not exactly that shape. */
function scanPage(
  b: Buffer,
): { count: number; days: Day[]; nextPageToken: string | undefined } | null {
  let count = 0;
  let date = -1;
  let previousKey = Number.POSITIVE_INFINITY;
  const days: Day[] = [];
  let nextPageToken: string | undefined;
  let i = token(b, 0, 0x7b);
  if (i < 0) return null;
  let more = b[i] === QUOTE;
  if (more && b[i + 1] === 0x64 /* d */) {
    i = token(b, member(b, i, DATA_POINTS), 0x5b);
    if (i < 0) return null;
    while (b[i] !== 0x5d) {
      // After a sample: a comma and another sample, or the end of the list.
      if (count > 0) i = token(b, i, COMMA);
      if (i < 0) return null;
      grow(count + 1);
      sourceLength[count] = -1;
      if (literal(b, i, OPEN_SOURCE)) {
        // {"dataSource":{"device":{"displayName":"…"},"platform":"…"},"heartRate":{…
        const name = i + OPEN_SOURCE.length;
        const nameEnd = plainText(b, name);
        const platformEnd =
          nameEnd >= 0 && literal(b, nameEnd, AFTER_NAME)
            ? plainText(b, nameEnd + AFTER_NAME.length)
            : -1;
        if (platformEnd >= 0 && nameEnd > name && literal(b, platformEnd, AFTER_PLATFORM)) {
          sourceAt[count] = name;
          sourceLength[count] = nameEnd - name;
          i = platformEnd + AFTER_PLATFORM.length;
        } else i = openSample(b, i, count);
      } else if (literal(b, i, OPEN)) i += OPEN.length;
      else i = openSample(b, i, count);
      if (i < 0) return null;
      // yyyy-mm-ddThh:mm:ssZ"
      const t = i;
      if (t + TIME_LENGTH >= b.length || b[t + TIME_LENGTH] !== QUOTE) return null;
      if (b[t + 4] !== DASH || b[t + 7] !== DASH || b[t + 10] !== 0x54 /* T */) return null;
      if (b[t + 13] !== COLON || b[t + 16] !== COLON || b[t + 19] !== 0x5a /* Z */) return null;
      const year =
        digitAt(b, t) * 1000 + digitAt(b, t + 1) * 100 + digitAt(b, t + 2) * 10 + digitAt(b, t + 3);
      const month = digitAt(b, t + 5) * 10 + digitAt(b, t + 6);
      const dayOfMonth = digitAt(b, t + 8) * 10 + digitAt(b, t + 9);
      const h = digitAt(b, t + 11) * 10 + digitAt(b, t + 12);
      const m = digitAt(b, t + 14) * 10 + digitAt(b, t + 15);
      const s = digitAt(b, t + 17) * 10 + digitAt(b, t + 18);
      // Years next to 0000 or 10000 print differently through Date: the generic path has them.
      if (year < 1000 || year > 9998 || month < 1 || month > 12 || dayOfMonth < 1) return null;
      if (dayOfMonth > 31 || h < 0 || h > 23 || m < 0 || m > 59 || s < 0 || s > 59) return null;
      const sampleDate = (year * 100 + month) * 100 + dayOfMonth;
      if (sampleDate !== date) {
        const day = dayFor(sampleDate);
        if (!day) return null;
        days.push(day);
        date = sampleDate;
      }
      const second = (h * 60 + m) * 60 + s;
      // Strictly newest first, as the text compares; other pages go the generic way (TaskPart).
      const orderKey = date * 100_000 + second;
      if (orderKey >= previousKey) return null;
      previousKey = orderKey;
      timeAt[count] = t;
      secondOfDay[count] = second;
      dayOf[count] = days.length - 1;
      // ","utcOffset":"-18000s"
      i = t + TIME_LENGTH;
      if (literal(b, i, AFTER_TIME)) i += AFTER_TIME.length;
      else i = quote(b, member(b, token(b, i + 1, COMMA), UTC_OFFSET));
      if (i < 0) return null;
      const o = i;
      const negative = b[i] === DASH;
      i = canonicalDigits(b, negative ? i + 1 : i, 5);
      if (i < 0 || b[i] !== 0x73 /* s */ || b[i + 1] !== QUOTE) return null;
      let offset = 0;
      for (let k = negative ? o + 1 : o; k < i; k++) offset = offset * 10 + (b[k] as number) - ZERO;
      // "-0s" prints as 0 through Number; a day or more would move the date by more than one.
      if ((negative && offset === 0) || offset >= 86_400) return null;
      offsetAt[count] = o;
      offsetLength[count] = i - o;
      offsetValue[count] = negative ? -offset : offset;
      // s"},"beatsPerMinute":"72"}}
      if (literal(b, i, AFTER_OFFSET)) i += AFTER_OFFSET.length;
      else {
        i = member(b, token(b, token(b, i + 2, 0x7d), COMMA), BEATS_PER_MINUTE);
        i = quote(b, i);
        if (i < 0) return null;
      }
      const p = i;
      i = canonicalDigits(b, i, 9);
      if (i < 0 || b[i] !== QUOTE) return null;
      bpmAt[count] = p;
      bpmLength[count] = i - p;
      if (literal(b, i, AFTER_BPM)) i = skip(b, i + AFTER_BPM.length);
      else i = token(b, token(b, i + 1, 0x7d), 0x7d);
      if (i < 0) return null;
      count++;
    }
    i = skip(b, i + 1);
    more = false;
    if (b[i] === COMMA) {
      i = skip(b, i + 1);
      more = true;
    }
  }
  if (more) {
    i = quote(b, member(b, i, NEXT_PAGE_TOKEN));
    if (i < 0) return null;
    const from = i;
    while (i < b.length && b[i] !== QUOTE && b[i] !== 0x5c && (b[i] as number) >= 0x20) i++;
    if (b[i] !== QUOTE) return null;
    nextPageToken = b.toString('utf8', from, i);
    i++;
  }
  if (token(b, i, 0x7d) !== b.length) return null;
  return { count, days, nextPageToken };
}

/**
 * `participant,timestamp_utc,utc_offset_seconds,civil_time,heart_rate_bpm,source` rows, oldest
 * first (a source is never quoted: plainText refuses what CSV would quote).
 */
function writeRows(b: Buffer, count: number, days: Day[], prefix: Buffer): Buffer {
  let size = 0;
  for (let n = 0; n < count; n++) {
    size += prefix.length + TIME_LENGTH + CIVIL_LENGTH + 5;
    size += (offsetLength[n] as number) + (bpmLength[n] as number);
    size += Math.max(0, sourceLength[n] as number);
  }
  const out = Buffer.allocUnsafe(size);
  let o = 0;
  // Byte loops, not copy(): most runs are a few bytes, shorter than a native call costs.
  for (let n = count - 1; n >= 0; n--) {
    o += prefix.copy(out, o);
    const t = timeAt[n] as number;
    o += b.copy(out, o, t, t + TIME_LENGTH);
    out[o++] = COMMA;
    const offset = offsetAt[n] as number;
    for (let k = offset; k < offset + (offsetLength[n] as number); k++) out[o++] = b[k] as number;
    out[o++] = COMMA;
    // Civil time: the UTC clock moved by the offset, on the day before or after when it crosses.
    const day = days[dayOf[n] as number] as Day;
    let local = (secondOfDay[n] as number) + (offsetValue[n] as number);
    let date = day.same;
    if (local < 0) {
      local += 86_400;
      date = day.previous;
    } else if (local >= 86_400) {
      local -= 86_400;
      date = day.next;
    }
    for (let k = 0; k < 11; k++) out[o++] = date[k] as number;
    const h = (local / 3600) | 0;
    const m = ((local / 60) | 0) % 60;
    const s = local % 60;
    out[o++] = ZERO + ((h / 10) | 0);
    out[o++] = ZERO + (h % 10);
    out[o++] = COLON;
    out[o++] = ZERO + ((m / 10) | 0);
    out[o++] = ZERO + (m % 10);
    out[o++] = COLON;
    out[o++] = ZERO + ((s / 10) | 0);
    out[o++] = ZERO + (s % 10);
    out[o++] = COMMA;
    const bpm = bpmAt[n] as number;
    for (let k = bpm; k < bpm + (bpmLength[n] as number); k++) out[o++] = b[k] as number;
    out[o++] = COMMA;
    const source = sourceAt[n] as number;
    for (let k = source; k < source + (sourceLength[n] as number); k++) out[o++] = b[k] as number;
    out[o++] = NEWLINE;
  }
  return out;
}
