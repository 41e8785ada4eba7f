import { civilTime } from './tidy-readers.js';

/**
 * Civil days of an IANA time zone as physical instants, for the calls whose answers carry no UTC
 * offset (60-second `rollUp` buckets). A day D is [local midnight of D, local midnight of D + 1):
 * 1,440 minutes, 1,380 or 1,500 on a DST day. The zone is the participant's, from their Google
 * settings: the one the dataset already cuts every partition's day in (the ledger's time zone).
 */

const DAY_MS = 86_400_000;
const formats = new Map<string, Intl.DateTimeFormat>();

function format(timeZone: string) {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, f);
  }
  return f;
}

/** The zone's UTC offset at an instant, seconds (whole seconds of the wall clock). */
export function zoneOffsetSeconds(timeZone: string, ms: number): number {
  if (timeZone === 'UTC') return 0;
  const parts: Record<string, number> = {};
  for (const part of format(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const wall = Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / 1000);
}

/**
 * The instant (ms) of local midnight starting `date` (yyyy-mm-dd) in the zone. Where the zone
 * skips midnight (a DST gap at 00:00), the first instant of the day: the transition.
 */
export function localMidnight(timeZone: string, date: string): number {
  const wall = Date.parse(`${date}T00:00:00Z`);
  const localOf = (at: number) => at + zoneOffsetSeconds(timeZone, at) * 1000;
  // The offsets in force around the day: midnight is the wall clock less one of them.
  const candidates = [
    ...new Set([-DAY_MS, 0, DAY_MS].map((d) => zoneOffsetSeconds(timeZone, wall + d))),
  ]
    .map((offset) => wall - offset * 1000)
    .sort((a, b) => a - b);
  for (const at of candidates) if (localOf(at) === wall) return at;
  // A gap: the first second whose wall clock is past midnight.
  let lo = candidates[0] as number;
  let hi = candidates.at(-1) as number;
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (localOf(mid) >= wall) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** RFC 3339 without fractions, as the requests write instants. */
export const instantText = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/**
 * Offsets of one zone by instant, remembered per quarter hour (every zone's transitions fall on
 * one): a day's 1,440 buckets cost 96 look-ups, not 1,440.
 */
export class ZoneOffsets {
  private readonly cache = new Map<number, number>();
  constructor(readonly timeZone: string) {}

  at(ms: number): number {
    if (this.timeZone === 'UTC') return 0;
    const slot = Math.floor(ms / 900_000);
    let offset = this.cache.get(slot);
    if (offset === undefined) {
      offset = zoneOffsetSeconds(this.timeZone, slot * 900_000);
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(slot, offset);
    }
    return offset;
  }

  /** The civil date (yyyy-mm-dd) of an instant. */
  dateOf(ms: number): string {
    return new Date(ms + this.at(ms) * 1000).toISOString().slice(0, 10);
  }

  /** `yyyy-mm-ddThh:mm:ss` of an instant given as RFC 3339 text; null when unreadable. */
  civilOf(instant: string): { offset: number; civil: string } | null {
    const ms = Date.parse(instant);
    if (Number.isNaN(ms)) return null;
    const offset = this.at(ms);
    const civil = civilTime(instant, offset);
    return civil === null ? null : { offset, civil };
  }
}
