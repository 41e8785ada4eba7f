import { zoneOffsetSeconds } from '../extraction/index.js';

/**
 * Local times of a participant: the UTC offset in force at an instant, from the offsets Google
 * recorded with the participant's points (which follow travel) and, between them, the time zone
 * the dataset's ledger cut the day in (which follows DST). Local days are bounded by local
 * midnights, so a DST day has 23 or 25 hours and a travel day as many as the offsets make.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `2026-11-01T01:30:00-05:00`: the wall clock at the instant with the offset, ISO 8601. */
export function localText(ms: number, offsetSeconds: number): string {
  const wall = new Date(ms + offsetSeconds * 1000).toISOString().slice(0, 19);
  const sign = offsetSeconds < 0 ? '-' : '+';
  const abs = Math.abs(offsetSeconds);
  return `${wall}${sign}${pad(Math.floor(abs / 3600))}:${pad(Math.floor((abs % 3600) / 60))}`;
}

/** The local day of an instant at the offset, yyyy-mm-dd. */
export const localDate = (ms: number, offsetSeconds: number) =>
  new Date(ms + offsetSeconds * 1000).toISOString().slice(0, 10);

interface Run {
  from: number;
  to: number;
  offset: number;
}

/** A participant's offsets over time. */
export class OffsetTimeline {
  private points: [number, number][] = [];
  private runs: Run[] | null = null;
  /** The ledger's time zone of each local day (the zone used between recorded offsets). */
  private zones = new Map<string, string>();
  private sortedDays: string[] | null = null;

  constructor(private readonly fallbackZone = 'UTC') {}

  /** An offset Google recorded with a point at `ms`. */
  record(ms: number, offsetSeconds: number) {
    this.points.push([ms, offsetSeconds]);
    this.runs = null;
  }

  /** The zone the ledger cut the participant's `date` in. */
  zoneOfDay(date: string, timeZone: string) {
    if (!this.zones.has(date)) {
      this.zones.set(date, timeZone);
      this.sortedDays = null;
    }
  }

  private zoneAt(ms: number): string {
    if (this.zones.size === 0) return this.fallbackZone;
    if (!this.sortedDays) this.sortedDays = [...this.zones.keys()].sort();
    // The zone of the UTC date's day, else the nearest day's before it, else the first.
    const day = new Date(ms).toISOString().slice(0, 10);
    let zone = this.zones.get(this.sortedDays[0] as string) as string;
    for (const d of this.sortedDays) {
      if (d > day) break;
      zone = this.zones.get(d) as string;
    }
    return zone;
  }

  private runsOf(): Run[] {
    if (this.runs) return this.runs;
    const sorted = this.points.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const runs: Run[] = [];
    for (const [ms, offset] of sorted) {
      const last = runs.at(-1);
      if (last && last.offset === offset) last.to = ms;
      else runs.push({ from: ms, to: ms, offset });
    }
    this.runs = runs;
    return runs;
  }

  /**
   * The offset in force at `ms`: inside a run of recorded offsets, that run's; between two runs
   * (or before the first, after the last), the zone's when it agrees with a neighbour (a DST
   * change between points), else the neighbour's before (travel: kept until the next point).
   */
  offsetAt(ms: number): number {
    const runs = this.runsOf();
    const zone = zoneOffsetSeconds(this.zoneAt(ms), ms);
    if (runs.length === 0) return zone;
    let lo = 0;
    let hi = runs.length - 1;
    let before = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((runs[mid] as Run).from <= ms) {
        before = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const prev = before >= 0 ? runs[before] : undefined;
    const next = runs[before + 1];
    if (prev && ms <= prev.to) return prev.offset;
    if (zone === prev?.offset || zone === next?.offset) return zone;
    // Far from any recorded point (more than a day), the zone says more than a stale point.
    const near = (run: Run | undefined, at: number) => run && Math.abs(at - ms) <= DAY_MS;
    if (near(prev, prev?.to ?? 0)) return (prev as Run).offset;
    if (near(next, next?.from ?? 0)) return (next as Run).offset;
    return zone;
  }

  /** The instant of local midnight starting `date`. */
  midnight(date: string): number {
    const wall = Date.parse(`${date}T00:00:00Z`);
    let ms = wall - zoneOffsetSeconds(this.zoneAt(wall), wall) * 1000;
    for (let i = 0; i < 3; i++) {
      const next = wall - this.offsetAt(ms) * 1000;
      if (next === ms) break;
      ms = next;
    }
    return ms;
  }

  /**
   * `offsetAt` over [from, to) as steps: each segment's offset holds from its start to the next
   * segment's. offsetAt changes only where a run starts or ends, a day from a run, at UTC
   * midnights (the ledger's zone of the day) and where a zone's offset changes; it is evaluated
   * there, so the steps are exact.
   */
  segments(from: number, to: number): { from: number; offset: number }[] {
    const at = new Set<number>([from]);
    const add = (ms: number) => {
      if (ms > from && ms < to) at.add(ms);
    };
    for (const run of this.runsOf()) {
      add(run.from);
      add(run.to + 1);
      add(run.from - DAY_MS);
      add(run.to + DAY_MS + 1);
    }
    for (let day = Math.ceil(from / DAY_MS) * DAY_MS; day < to; day += DAY_MS) add(day);
    for (const zone of new Set([this.fallbackZone, ...this.zones.values()])) {
      for (const ms of zoneChanges(zone, from, to)) add(ms);
    }
    const out: { from: number; offset: number }[] = [];
    for (const ms of [...at].sort((a, b) => a - b)) {
      const offset = this.offsetAt(ms);
      if (out.at(-1)?.offset !== offset) out.push({ from: ms, offset });
    }
    return out;
  }
}

const STEP_MS = 6 * 3_600_000;

/** The instants in [from, to) where the zone's offset changes (zones change at whole minutes). */
function zoneChanges(zone: string, from: number, to: number): number[] {
  const out: number[] = [];
  if (zone === 'UTC') return out;
  let ms = Math.floor(from / MINUTE_MS) * MINUTE_MS;
  let offset = zoneOffsetSeconds(zone, ms);
  while (ms < to) {
    const next = ms + STEP_MS;
    const nextOffset = zoneOffsetSeconds(zone, next);
    if (nextOffset !== offset) {
      // The first minute with the new offset.
      let lo = ms;
      let hi = next;
      while (hi - lo > MINUTE_MS) {
        const mid = lo + Math.floor((hi - lo) / 2 / MINUTE_MS) * MINUTE_MS;
        if (zoneOffsetSeconds(zone, mid) === offset) lo = mid;
        else hi = mid;
      }
      out.push(hi);
    }
    ms = next;
    offset = nextOffset;
  }
  return out;
}
