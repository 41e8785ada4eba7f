import type { NotificationInterval } from '@research/contracts';

/**
 * The civil (the participant's local calendar) days a notification's intervals touch: what the
 * platform fetches again. Dates are 'YYYY-MM-DD'; null means "the whole range" (no interval, or
 * one longer than a fetch per day is worth).
 */

/** Longer intervals are handed on as the whole range rather than as hundreds of days. */
export const MAX_DAYS_PER_INTERVAL = 93;
const DAY_MS = 86_400_000;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface CivilPoint {
  /** Midnight UTC of the civil date, as a count of milliseconds (only the date part is used). */
  dateMs: number;
  /** Whether the point is exactly midnight (an end there does not touch that day). */
  midnight: boolean;
}

function civilFromParts(parts: {
  date: { year: number; month: number; day: number };
  time?: { hours?: number; minutes?: number; seconds?: number; nanos?: number } | undefined;
}): CivilPoint | null {
  const { year, month, day } = parts.date;
  const dateMs = Date.UTC(year, month - 1, day);
  if (Number.isNaN(dateMs) || dayOf(dateMs) !== `${pad(year, 4)}-${pad(month)}-${pad(day)}`)
    return null;
  const t = parts.time ?? {};
  return {
    dateMs,
    midnight: !(t.hours || t.minutes || t.seconds || t.nanos),
  };
}

function civilFromIso(text: string): CivilPoint | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?$/.exec(
    text,
  );
  if (!match) return null;
  const [, y, mo, d, h, mi, s, frac] = match;
  return civilFromParts({
    date: { year: Number(y), month: Number(mo), day: Number(d) },
    time: {
      hours: Number(h ?? 0),
      minutes: Number(mi ?? 0),
      seconds: Number(s ?? 0),
      nanos: Number(frac ?? 0),
    },
  });
}

function daysBetween(start: CivilPoint, end: CivilPoint): string[] | null {
  // An end at midnight closes the day before it (unless the interval is that instant alone).
  const lastMs =
    end.midnight && end.dateMs > start.dateMs
      ? end.dateMs - DAY_MS
      : Math.max(end.dateMs, start.dateMs);
  const count = Math.round((lastMs - start.dateMs) / DAY_MS) + 1;
  if (count > MAX_DAYS_PER_INTERVAL) return null;
  return Array.from({ length: count }, (_, i) => dayOf(start.dateMs + i * DAY_MS));
}

/** The civil days of one interval, from whichever of its three forms it carries. */
export function civilDaysOf(interval: NotificationInterval): string[] | null {
  const civil = interval.civilDateTimeInterval;
  if (civil) {
    const start = civilFromParts(civil.startDateTime);
    const end = civilFromParts(civil.endDateTime);
    if (start && end) return daysBetween(start, end);
  }
  const iso = interval.civilIso8601TimeInterval;
  if (iso) {
    const start = civilFromIso(iso.startTime);
    const end = civilFromIso(iso.endTime);
    if (start && end) return daysBetween(start, end);
  }
  const physical = interval.physicalTimeInterval;
  if (physical) {
    const start = Date.parse(physical.startTime);
    const end = Date.parse(physical.endTime);
    if (Number.isFinite(start) && Number.isFinite(end)) {
      // Instants alone do not say the participant's offset (up to 14 hours either side of
      // UTC): every civil day the instants could fall on is fetched.
      const from = { dateMs: Date.parse(dayOf(start - 14 * 3_600_000)), midnight: false };
      const to = {
        dateMs: Date.parse(dayOf(Math.max(start, end) + 14 * 3_600_000)),
        midnight: false,
      };
      return daysBetween(from, to);
    }
  }
  return null;
}

/** Every civil day of a notification's intervals, sorted; null when the whole range is meant. */
export function civilDaysOfAll(intervals: readonly NotificationInterval[]): string[] | null {
  if (intervals.length === 0) return null;
  const days = new Set<string>();
  for (const interval of intervals) {
    const some = civilDaysOf(interval);
    if (!some) return null;
    for (const day of some) days.add(day);
  }
  return [...days].sort();
}

/** `heartRate` and `heart_rate` → `heart-rate`: the form the API's paths and our rows use. */
export const kebabDataType = (dataType: string) =>
  dataType
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();
