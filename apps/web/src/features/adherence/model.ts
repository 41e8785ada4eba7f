import {
  ADHERENCE_MAX_DAYS,
  type AdherenceCellState,
  type AdherenceMetric,
  type AdherenceRow,
} from '@research/contracts';

const DAY_MS = 86_400_000;

/** Today's civil day in UTC, as the server's default range ends. */
export const todayUtc = (now: Date = new Date()): string => now.toISOString().slice(0, 10);

export const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** Days from `from` to `to`, both counted. */
export const dayCount = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

export type RangePreset = '28' | '90' | 'whole' | 'custom';
export interface DayRange {
  from: string;
  to: string;
}

/** A preset's days up to today; the whole study starts on its creation day, at most 400 days back. */
export function presetRange(
  preset: Exclude<RangePreset, 'custom'>,
  studyStart: string,
  today: string,
): DayRange {
  if (preset === 'whole') {
    const earliest = addDays(today, -(ADHERENCE_MAX_DAYS - 1));
    const start = studyStart.slice(0, 10);
    return { from: start > today ? today : start < earliest ? earliest : start, to: today };
  }
  return { from: addDays(today, -(Number(preset) - 1)), to: today };
}

export type RangeProblem = 'reversed' | 'tooLong' | null;

export function rangeProblem({ from, to }: DayRange): RangeProblem {
  if (!from || !to) return 'reversed';
  if (from > to) return 'reversed';
  return dayCount(from, to) > ADHERENCE_MAX_DAYS ? 'tooLong' : null;
}

export type ParticipantFilter = 'all' | 'atRisk' | 'notConnected' | 'needsReauthorization';
export type ParticipantSort = 'adherenceLow' | 'adherenceHigh' | 'name' | 'lastSync';

export const displayName = (row: AdherenceRow): string => row.name?.trim() || row.participantId;

/** Valid days over eligible days; null without an eligible day (sorted last). */
export const adherenceOf = (row: AdherenceRow): number | null =>
  row.eligibleDays > 0 ? row.validDays / row.eligibleDays : null;

const FILTERS: Record<ParticipantFilter, (row: AdherenceRow) => boolean> = {
  all: () => true,
  atRisk: (row) => row.atRisk,
  notConnected: (row) => row.connection === 'not_connected',
  needsReauthorization: (row) => row.connection === 'needs_reauthorization',
};

const byName = (a: AdherenceRow, b: AdherenceRow) =>
  displayName(a).localeCompare(displayName(b), 'en', { sensitivity: 'base' });

function compareNullable(a: number | null, b: number | null, ascending: boolean): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return ascending ? a - b : b - a;
}

/** At risk first: between equal adherence, the one who stopped syncing needs the look. */
const byRisk = (a: AdherenceRow, b: AdherenceRow) => Number(b.atRisk) - Number(a.atRisk);

const SORTS: Record<ParticipantSort, (a: AdherenceRow, b: AdherenceRow) => number> = {
  adherenceLow: (a, b) =>
    compareNullable(adherenceOf(a), adherenceOf(b), true) || byRisk(a, b) || byName(a, b),
  adherenceHigh: (a, b) => compareNullable(adherenceOf(a), adherenceOf(b), false) || byName(a, b),
  name: byName,
  // Never synced first, then the oldest sync.
  lastSync: (a, b) =>
    (a.lastDeviceSyncAt ?? '').localeCompare(b.lastDeviceSyncAt ?? '') || byName(a, b),
};

/** The rows the map and the table show: filtered, searched by name or id, sorted. */
export function visibleRows(
  rows: readonly AdherenceRow[],
  filter: ParticipantFilter,
  search: string,
  sort: ParticipantSort,
): AdherenceRow[] {
  const needle = search.trim().toLowerCase();
  return rows
    .filter(
      (row) =>
        FILTERS[filter](row) &&
        (needle === '' ||
          row.participantId.toLowerCase().includes(needle) ||
          (row.name ?? '').toLowerCase().includes(needle)),
    )
    .sort(SORTS[sort]);
}

/** Wear colour bucket 0–3 under the rule (3: a valid day), as the legend's labels say. */
export function wearBucket(minutes: number, validDayMinHours: number): number {
  const hours = minutes / 60;
  const third = Math.max(1, Math.round(validDayMinHours / 3));
  const twoThirds = Math.max(third + 1, Math.round((2 * validDayMinHours) / 3));
  if (hours >= validDayMinHours) return 3;
  if (hours >= twoThirds) return 2;
  if (hours >= third) return 1;
  return 0;
}

export function stepBucket(steps: number): number {
  if (steps >= 10_000) return 3;
  if (steps >= 5_000) return 2;
  if (steps >= 2_000) return 1;
  return 0;
}

/**
 * The class of a cell. Days with data are coloured by the metric's bucket (a dashed inner line
 * while not synced past the day); every other state has its own fill and sign (see the legend),
 * so nothing is told by colour alone.
 */
export function cellClass(
  state: AdherenceCellState,
  metric: AdherenceMetric,
  wearMinutes: number | null,
  steps: number | null,
  validDayMinHours: number,
): string {
  const partial = state === 'partial' ? ' hm-partial' : '';
  if (state === 'complete' || state === 'partial') {
    if (metric === 'wear' && wearMinutes !== null) {
      return wearMinutes === 0
        ? `hm-c hm-empty${partial}`
        : `hm-c hm-w${wearBucket(wearMinutes, validDayMinHours)}${partial}`;
    }
    if (metric === 'steps' && steps !== null) return `hm-c hm-s${stepBucket(steps)}${partial}`;
    if (metric === 'sync') return `hm-c hm-complete${partial}`;
    return `hm-c hm-nodata${partial}`;
  }
  return `hm-c hm-${state}`;
}
