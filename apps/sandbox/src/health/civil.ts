/** Civil (wall-clock) time helpers: instants are epoch ms, offsets are seconds east of UTC. */

export const DAY_MS = 86_400_000;
export const MINUTE_MS = 60_000;

export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

/** Days since 1970-01-01 of a civil date (proleptic Gregorian). */
export function dayNumber(date: CivilDate): number {
  return Math.floor(Date.UTC(date.year, date.month - 1, date.day) / DAY_MS);
}

export function dateOfDayNumber(days: number): CivilDate {
  const d = new Date(days * DAY_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** "YYYY-MM-DD" → day number, or null when the text is not a real date. */
export function parseIsoDate(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  const date = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  const n = dayNumber(date);
  const back = dateOfDayNumber(n);
  return back.month === date.month && back.day === date.day ? n : null;
}

export function isoDate(days: number): string {
  return new Date(days * DAY_MS).toISOString().slice(0, 10);
}

/** The local day number of an instant seen with an offset. */
export function civilDayNumber(ms: number, offsetSeconds: number): number {
  return Math.floor((ms + offsetSeconds * 1000) / DAY_MS);
}

/** Local wall-clock time as if it were UTC ms: comparable across points with different offsets. */
export function civilMs(ms: number, offsetSeconds: number): number {
  return ms + offsetSeconds * 1000;
}

/** Google's CivilDateTime: zero time parts are omitted, so midnight is `time: {}`. */
export function civilDateTime(localMs: number): {
  date: CivilDate;
  time: { hours?: number; minutes?: number; seconds?: number };
} {
  const d = new Date(localMs);
  const time: { hours?: number; minutes?: number; seconds?: number } = {};
  if (d.getUTCHours()) time.hours = d.getUTCHours();
  if (d.getUTCMinutes()) time.minutes = d.getUTCMinutes();
  if (d.getUTCSeconds()) time.seconds = d.getUTCSeconds();
  return {
    date: { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() },
    time,
  };
}

/** RFC 3339 UTC without fractional seconds when there are none, as Google prints it. */
export function rfc3339(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}

export function duration(seconds: number): string {
  return `${seconds}s`;
}

/** Parses "3600s" / "1.5s" (google-duration); null when malformed. */
export function parseDuration(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const m = /^(\d+)(\.\d{1,9})?s$/.exec(text);
  return m ? Number(`${m[1]}${m[2] ?? ''}`) : null;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;

/** An RFC 3339 instant (with Z or an offset) → epoch ms; null otherwise. */
export function parseInstant(text: string): number | null {
  if (!RFC3339.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

/** A civil literal "YYYY-MM-DD" or "YYYY-MM-DDTHH:mm:ss" (no zone) → local ms; null otherwise. */
export function parseCivil(text: string): number | null {
  const m = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2}):(\d{2}))?$/.exec(text);
  if (!m?.[1]) return null;
  const day = parseIsoDate(m[1]);
  if (day === null) return null;
  const [h, mi, s] = [Number(m[2] ?? 0), Number(m[3] ?? 0), Number(m[4] ?? 0)];
  if (h > 23 || mi > 59 || s > 59) return null;
  return day * DAY_MS + ((h * 60 + mi) * 60 + s) * 1000;
}

const offsetCache = new Map<string, number>();
const formatters = new Map<string, Intl.DateTimeFormat>();

/** UTC offset in seconds of an IANA zone at an instant (cached per UTC hour). */
export function zoneOffsetSeconds(zone: string, ms: number): number {
  const hour = Math.floor(ms / 3_600_000);
  const key = `${zone}@${hour}`;
  const cached = offsetCache.get(key);
  if (cached !== undefined) return cached;
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, format);
  }
  const at = hour * 3_600_000;
  const parts: Record<string, number> = {};
  for (const p of format.formatToParts(new Date(at))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const local = Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  const offset = Math.round((local - at) / 1000);
  if (offsetCache.size > 50_000) offsetCache.clear();
  offsetCache.set(key, offset);
  return offset;
}
