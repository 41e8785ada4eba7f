/**
 * Small readers of the provider's raw answers: loose JSON access, offsets and civil times. The
 * time readers sit on the hot path of raw heart rate (one call per sample), hence their caches.
 */

export type Json = Record<string, unknown>;
export const obj = (v: unknown): Json => (typeof v === 'object' && v !== null ? (v as Json) : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const num = (v: unknown): number | null => {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
};
const parsedSeconds = new Map<string, number | null>();
/**
 * `"-18000s"` → -18000; `"60.5s"` → 60.5. A participant's offsets are a handful of texts repeated
 * on every sample, so each is parsed once.
 */
export function seconds(v: unknown): number | null {
  if (typeof v !== 'string') return null;
  let parsed = parsedSeconds.get(v);
  if (parsed === undefined) {
    parsed = /^-?\d+(\.\d+)?s$/.test(v) ? Number(v.slice(0, -1)) : null;
    if (parsedSeconds.size >= 10_000) parsedSeconds.clear();
    parsedSeconds.set(v, parsed);
  }
  return parsed;
}
const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => pad(n));

/** `{year, month, day}` → `yyyy-mm-dd`. */
export function civilDate(v: unknown): string | null {
  const d = obj(v);
  const [y, m, day] = [num(d.year), num(d.month), num(d.day)];
  return y === null || m === null || day === null ? null : `${pad(y, 4)}-${pad(m)}-${pad(day)}`;
}

const digit = (code: number) => (code >= 48 && code <= 57 ? code - 48 : Number.NaN);
/** Two decimal digits at `at`; NaN unless both are digits. */
const digits = (text: string, at: number) =>
  digit(text.charCodeAt(at)) * 10 + digit(text.charCodeAt(at + 1));
let lastDay = '\u0000';
let lastDayValid = false;

/** An instant moved by an offset, as local wall-clock time `yyyy-mm-ddThh:mm:ss`. */
export function civilTime(instant: string, offsetSeconds: number | null): string | null {
  if (offsetSeconds === null) return null;
  // Nearly every point is `yyyy-mm-ddThh:mm:ssZ` whose local time falls on the same day: only the
  // clock moves (a week of raw heart rate is ~200,000 of them; Date costs several times more).
  if (instant.length === 20 && instant[10] === 'T' && instant[19] === 'Z') {
    const h = digits(instant, 11);
    const m = digits(instant, 14);
    const sec = digits(instant, 17);
    const local = h * 3600 + m * 60 + sec + offsetSeconds;
    // Points come in runs of one UTC day: check a day once, not per point.
    let valid = lastDayValid;
    if (!instant.startsWith(lastDay)) {
      const day = instant.slice(0, 11);
      const ms = Date.parse(`${day}00:00:00Z`);
      // A day Date would roll over (Feb 30) takes the Date path below, as before.
      valid = !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(day);
      lastDay = day;
      lastDayValid = valid;
    }
    if (valid && h < 24 && m < 60 && sec < 60 && Number.isInteger(local)) {
      if (local >= 0 && local < 86_400) {
        const lh = Math.floor(local / 3600);
        const lm = Math.floor(local / 60) % 60;
        return `${lastDay}${TWO_DIGITS[lh]}:${TWO_DIGITS[lm]}:${TWO_DIGITS[local % 60]}`;
      }
    }
  }
  const ms = Date.parse(instant);
  if (Number.isNaN(ms)) return null;
  return new Date(ms + offsetSeconds * 1000).toISOString().slice(0, 19);
}

const isPart = (v: unknown, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;
const dateTexts = new Map<number, string>();

/**
 * The provider's own CivilDateTime (`{date: {year, month, day}, time: {hours?, minutes?,
 * seconds?}}`, zero parts omitted) as `yyyy-mm-ddThh:mm:ss`; null when it is missing or malformed.
 * Fractions of a second are dropped, as in `civilTime`.
 */
export function civilDateTimeText(v: unknown): string | null {
  const value = obj(v);
  const d = obj(value.date);
  const t = obj(value.time);
  const { year, month, day } = d;
  const { hours: h = 0, minutes: m = 0, seconds: s = 0 } = t;
  if (!isPart(year, 9999) || !isPart(month, 12) || !isPart(day, 31) || month < 1 || day < 1) {
    return null;
  }
  if (!isPart(h, 23) || !isPart(m, 59) || !isPart(s, 59)) return null;
  const key = (year * 16 + month) * 32 + day;
  let date = dateTexts.get(key);
  if (date === undefined) {
    date = `${pad(year, 4)}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}T`;
    if (dateTexts.size >= 10_000) dateTexts.clear();
    dateTexts.set(key, date);
  }
  return `${date}${TWO_DIGITS[h]}:${TWO_DIGITS[m]}:${TWO_DIGITS[s]}`;
}

/** Local time of a point: the provider's civil time when it gave one, else instant + offset. */
export const localTime = (civil: unknown, instant: string, offset: number | null) =>
  (civil === undefined ? null : civilDateTimeText(civil)) ?? civilTime(instant, offset);

export const minutesOf = (v: unknown) => {
  const s = seconds(v);
  return s === null ? null : s / 60;
};

/** A task's window of civil days, both ends included, `yyyy-mm-dd`. */
export interface DayWindow {
  start: string;
  end: string;
}

export const inWindow = (date: string, window: DayWindow) =>
  date >= window.start && date <= window.end;

/** The pages of one planned call, in the order they were fetched. */
export interface CallPages {
  key: string;
  pages: unknown[];
}

export const pagesOf = (calls: CallPages[], key: string) =>
  calls.filter((c) => c.key === key).flatMap((c) => c.pages);

/**
 * The IANA zone a task's settings answer names (the zone call a run makes first for 60-second
 * buckets), UTC without one, or with one the runtime does not know.
 */
export function zoneOfCalls(calls: CallPages[]): string {
  const zone = obj(pagesOf(calls, 'settings')[0]).timeZone;
  return typeof zone === 'string' && knownZone(zone) ? zone : 'UTC';
}

export function knownZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}
