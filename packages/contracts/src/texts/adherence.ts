/**
 * The Adherence tab of the study screen (the heat map of participants × days, its table and
 * summary, the daily digest switch), the participant charts page, and the study's adherence
 * settings in Create Study and Edit Study. Ours: the product gives no wording for these.
 */

// Types only from the schemas: a value import would bring zod into every page that reads a text.
import type { AdherenceCellState } from '../schemas/adherence.js';
import { ROUTE_LOADING_TEXTS } from './shell.js';

const DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const FULL_DAY = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});
const NUMBER = new Intl.NumberFormat('en-US');

/** "Nov 3" of a civil day ('2026-11-03'), the same in every time zone. */
export const adherenceDay = (date: string): string => DAY.format(new Date(`${date}T00:00:00Z`));

/** "Tue, Nov 3, 2026": a column's full name. */
export const adherenceFullDay = (date: string): string =>
  FULL_DAY.format(new Date(`${date}T00:00:00Z`));

/** "11.2 h", "45 min": wear time of a day. */
export const wearText = (minutes: number): string =>
  minutes < 60 ? `${minutes} min` : `${(minutes / 60).toFixed(1)} h`;

/** What a day's state says, in the cell's name and its details: "not worn", "fetch failed". */
export const ADHERENCE_STATE_LABELS: Record<AdherenceCellState, string> = {
  complete: 'complete',
  partial: 'not synced yet',
  empty: 'not worn',
  failed: 'fetch failed',
  scope_missing: 'scope missing',
  revoked: 'access revoked',
  deleted_at_source: 'deleted at source',
  not_collected: 'not collected yet',
  not_enrolled: 'not enrolled yet',
};

export type AdherenceMetric = 'wear' | 'steps' | 'sync';

/**
 * A cell's accessible name and its details on hover, focus and tap: "Nov 3: 11.2 h worn",
 * "Nov 4: not worn", "Nov 5: fetch failed — Google answered 503". `day` is the day's label
 * ("Nov 3", from adherenceDay), formatted once per column rather than once per cell.
 */
export function adherenceCellText(input: {
  day: string;
  state: AdherenceCellState;
  metric: AdherenceMetric;
  wearMinutes: number | null;
  steps: number | null;
  reason?: string;
}): string {
  const reason = input.reason ? ` — ${input.reason}` : '';
  const hasData = input.state === 'complete' || input.state === 'partial';
  const soFar = input.state === 'partial' ? ` (${ADHERENCE_STATE_LABELS.partial})` : '';
  if (hasData && input.metric === 'wear' && input.wearMinutes !== null) {
    return input.wearMinutes === 0
      ? `${input.day}: ${ADHERENCE_STATE_LABELS.empty}${soFar}${reason}`
      : `${input.day}: ${wearText(input.wearMinutes)} worn${soFar}${reason}`;
  }
  if (hasData && input.metric === 'steps' && input.steps !== null) {
    return `${input.day}: ${NUMBER.format(input.steps)} steps${soFar}${reason}`;
  }
  return `${input.day}: ${ADHERENCE_STATE_LABELS[input.state]}${reason}`;
}

/** Colour buckets of wear hours under the study's rule: the last one is a valid day. */
export const wearBucketLabels = (validDayMinHours: number): string[] => {
  const third = Math.max(1, Math.round(validDayMinHours / 3));
  const twoThirds = Math.max(third + 1, Math.round((2 * validDayMinHours) / 3));
  return [
    `Under ${third} h`,
    `${third}–${twoThirds} h`,
    `${twoThirds}–${validDayMinHours} h`,
    `${validDayMinHours} h or more (valid day)`,
  ];
};

export const STEP_BUCKET_LABELS = [
  'Under 2,000 steps',
  '2,000–5,000',
  '5,000–10,000',
  '10,000 or more',
] as const;

export const ADHERENCE_TEXTS = {
  loading: 'Loading adherence…',
  loadFailed: 'Could not load adherence. Try again.',
  retry: 'Retry',
  noParticipants: 'No enrolled participants yet',
  noParticipantsBody: 'Once participants enrol and connect their Fitbit, their days show here.',
  noMatches: 'No participants match the filter or search.',
  range: {
    label: 'Range',
    last28: '28 days',
    last90: '90 days',
    whole: 'Whole study',
    custom: 'Custom',
    from: 'From',
    to: 'To',
    reversed: 'The start comes after the end.',
    tooLong: (maxDays: number) => `A range covers at most ${maxDays} days.`,
    /** "Nov 3 – Nov 30 (28 days)". */
    shown: (from: string, to: string, days: number) =>
      `${adherenceDay(from)} – ${adherenceDay(to)} (${days} ${days === 1 ? 'day' : 'days'})`,
  },
  metric: {
    label: 'Show',
    wear: 'Wear time',
    steps: 'Steps',
    sync: 'Sync state',
  },
  legend: {
    title: 'Legend',
    noData: 'No data',
  },
  /** The summary line over the map. */
  summary: (s: {
    enrolled: number;
    connected: number;
    atRisk: number;
    validDayPercent: number | null;
  }) =>
    [
      `${s.enrolled} enrolled`,
      `${s.connected} connected`,
      `${s.atRisk} at risk`,
      s.validDayPercent === null
        ? 'no valid days to count yet'
        : `${Math.round(s.validDayPercent)} % valid days`,
    ].join(' · '),
  rule: (hours: number, days: number) =>
    `A valid day has at least ${hours} h of heart-rate data; a participant is at risk after ${days} ${days === 1 ? 'day' : 'days'} without a sync.`,
  heatmap: {
    label: 'Adherence by participant and day',
    participant: 'Participant',
    help: 'Arrow keys move between days, Home and End to a row’s ends; a day’s details show as you hover, focus or tap it. Enter on a name opens the participant’s charts.',
    /** Shown beside the map for the day last hovered, focused or tapped. */
    details: (participant: string, cell: string) => `${participant} · ${cell}`,
    rowsShown: (shown: number, total: number) =>
      shown === total ? `${total} participants` : `${shown} of ${total} participants`,
  },
  controls: {
    search: 'Search by name or ID',
    filter: 'Participants',
    sort: 'Sort by',
  },
  filter: {
    all: 'All',
    atRisk: 'At risk',
    notConnected: 'Not connected',
    needsReauthorization: 'Needs reauthorization',
  },
  sort: {
    adherenceLow: 'Adherence, lowest first',
    adherenceHigh: 'Adherence, highest first',
    name: 'Name or ID',
    lastSync: 'Last sync, oldest first',
  },
  table: {
    label: 'Participants’ adherence',
    participant: 'Participant',
    lastSynced: 'Last synced',
    battery: 'Battery',
    validDays: 'Valid days',
    status: 'Status',
    actions: 'Charts',
    /** "12 / 28". */
    validDaysValue: (valid: number, eligible: number) => `${valid} / ${eligible}`,
    batteryValue: (level: number) => `${level} %`,
    batteryUnknown: 'Not reported',
    atRisk: 'At risk',
    onTrack: 'On track',
    notConnected: 'Not connected',
    needsReauthorization: 'Needs reauthorization',
    openCharts: (name: string) => `Open charts of ${name}`,
    open: 'Charts',
  },
  digest: {
    label: 'E-mail me a daily digest',
    help: 'Each morning: who is at risk and who has not synced, for this study. Only your own choice changes.',
    failed: 'Could not save your digest choice. Try again.',
  },
} as const;

/** The participant charts page and the way to it from the Participant Details dialog. */
export const PARTICIPANT_CHARTS_TEXTS = {
  title: 'Participant charts',
  loading: ROUTE_LOADING_TEXTS.participantCharts,
  loadFailed: 'Could not load the charts. Try again.',
  notFound: 'Participant not found',
  notFoundBody: 'They may have been deleted, or you are not a member of their study.',
  backToStudy: 'Back to study',
  /** The Participant Details dialog's section. */
  section: 'Charts',
  sectionBody:
    'Daily steps, resting heart rate, sleep by stage and wear time, and any day’s heart rate.',
  open: 'Open charts',
  range: 'Range',
  steps: 'Daily steps',
  restingHeartRate: 'Resting heart rate (bpm)',
  sleep: 'Sleep by stage (hours)',
  wear: 'Wear time (hours with heart-rate data)',
  heartRateDay: 'Heart rate of one day',
  day: 'Day',
  bpm: 'bpm',
  hours: 'h',
  stages: {
    deep: 'Deep',
    light: 'Light',
    rem: 'REM',
    awake: 'Awake',
    asleep: 'Asleep (no stages)',
  },
  timeZone: (tz: string) => `Times in the participant’s time zone: ${tz}`,
  downsampled: (samples: number, points: number) =>
    `Downsampled from ${NUMBER.format(samples)} samples to ${NUMBER.format(points)} points`,
  allSamples: (samples: number) =>
    `${NUMBER.format(samples)} ${samples === 1 ? 'sample' : 'samples'}, all shown`,
  noHeartRate: 'No heart rate stored for this day.',
  noData: 'No data in this range yet.',
  /** A chart's text alternative: "Daily steps, Nov 3 – Nov 30: 24 days with data, average 8,432." */
  summary: (chart: string, from: string, to: string, days: number, average: string | null) =>
    `${chart}, ${adherenceDay(from)} – ${adherenceDay(to)}: ${days} ${days === 1 ? 'day' : 'days'} with data${average ? `, average ${average}` : ''}.`,
  heartRateSummary: (day: string, min: number, max: number, points: number) =>
    `Heart rate on ${adherenceDay(day)}: ${NUMBER.format(points)} points from ${min} to ${max} bpm.`,
} as const;

/** The study's adherence rules in Create Study and Edit Study (owner only). */
export const ADHERENCE_SETTING_TEXTS = {
  title: 'Adherence',
  validDayMinHours: 'Hours of wear for a valid day',
  validDayMinHoursHelp:
    'A day counts as valid when heart-rate data covers at least this many hours (1–24).',
  riskNoSyncDays: 'Days without a sync before “at risk”',
  riskNoSyncDaysHelp: 'A connected participant is flagged at risk after this many days (1–30).',
  reminder: 'Remind participants to sync',
  reminderOff: 'Off',
  reminderOn: 'After days without a sync',
  reminderNoSyncDays: 'Days without a sync before a reminder',
  reminderHelp:
    'The participant gets one e-mail after this many days without a sync (1–30), with a link to stop reminders.',
  outOfRange: (min: number, max: number) => `Enter a whole number from ${min} to ${max}.`,
} as const;
