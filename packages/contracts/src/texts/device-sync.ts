import type { CollectedDay } from '../schemas/dataset.js';

/**
 * The Participants tab's wearable columns: when the participant's device last synced, and the
 * latest day collected with its figures ("Nov 25: 8,432 steps · 14.2 h worn · RHR 61 · 7 h 10 min
 * sleep").
 */
export const DEVICE_SYNC_TEXTS = {
  lastSynced: 'Last synced',
  latestDay: 'Latest day',
  never: 'Never',
  noData: 'No data yet',
  /** Said of a day that is not over or that the device has not synced past: figures may grow. */
  soFar: 'so far',
  justNow: 'just now',
} as const;

const RELATIVE = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
const EXACT = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const UNITS = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
] as const;

/** "just now", "5 minutes ago", "3 hours ago", "yesterday", "4 days ago". */
export function syncedAgo(at: string, now: Date = new Date()): string {
  const elapsed = now.getTime() - Date.parse(at);
  // A device clock a little ahead of ours still synced "just now".
  if (!(elapsed >= 60_000)) return DEVICE_SYNC_TEXTS.justNow;
  for (const [unit, ms] of UNITS) {
    if (elapsed >= ms) return RELATIVE.format(-Math.floor(elapsed / ms), unit);
  }
  return DEVICE_SYNC_TEXTS.justNow;
}

/** The exact instant, in the reader's time zone: "Nov 25, 2026, 3:04 PM". */
export const syncedAt = (at: string, timeZone?: string): string =>
  timeZone
    ? new Intl.DateTimeFormat('en-US', {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone,
      }).format(new Date(at))
    : EXACT.format(new Date(at));

const minutesText = (minutes: number) => {
  const h = Math.floor(minutes / 60);
  const m = Math.round(minutes % 60);
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
};

/** The day's figures, those known only: ['8,432 steps', '14.2 h worn', 'RHR 61', '7 h 10 min sleep']. */
export function dayFigures(day: CollectedDay): string[] {
  const figures: string[] = [];
  if (day.steps !== null) figures.push(`${day.steps.toLocaleString('en-US')} steps`);
  if (day.wearMinutes !== null) {
    figures.push(
      day.wearMinutes < 60
        ? `${day.wearMinutes} min worn`
        : `${(day.wearMinutes / 60).toFixed(1)} h worn`,
    );
  }
  if (day.restingHeartRateBpm !== null) figures.push(`RHR ${Math.round(day.restingHeartRateBpm)}`);
  if (day.sleepMinutes !== null) figures.push(`${minutesText(day.sleepMinutes)} sleep`);
  return figures;
}

/** "Nov 25" of a civil day, the same in every time zone; "Nov 25 (so far)" while partial. */
export function dayLabel(day: Pick<CollectedDay, 'date' | 'partial'>): string {
  const label = DAY.format(new Date(`${day.date}T00:00:00Z`));
  return day.partial ? `${label} (${DEVICE_SYNC_TEXTS.soFar})` : label;
}

/** "Nov 25: 8,432 steps · 14.2 h worn · RHR 61 · 7 h 10 min sleep". */
export function daySummaryLine(day: CollectedDay): string {
  const figures = dayFigures(day);
  return figures.length > 0 ? `${dayLabel(day)}: ${figures.join(' · ')}` : dayLabel(day);
}
