import {
  DATA_TYPE_SCOPES,
  type DataType,
  type ExtractionDateRange,
  scopeLabel,
  TIME_SERIES_DATA_TYPES,
  TIME_SERIES_DAYS,
} from '@research/contracts';

/**
 * Extraction planning (pure): which Google Health calls each research type needs for a participant
 * and a date range, cut into windows the provider's caps allow
 * (docs/wearables.md#caps-the-planner-respects: 14 or 90 days per rollup; `list` pages of at most
 * 10,000 points, 25 for sleep), so the planned call count is the minimum those limits allow.
 */

/** One kind of request a research type is made of. */
export interface CallSpec {
  /** Stable key inside the type, used in object names. */
  key: string;
  method: 'identity' | 'profile' | 'settings' | 'list' | 'rollUp' | 'dailyRollUp';
  /** kebab-case Google Health type (`list`, `rollUp`, `dailyRollUp`). */
  apiType?: string;
  /** Days one request may cover; null: the request has no date range (profile). */
  chunkDays: number | null;
  /** Expected pages per chunk (1 unless the data is denser than one page). */
  pagesPerChunk: number;
  /** Present only when this scope was granted (optional part of a type). */
  optionalScope?: string;
  /** For `list`: how the date range is written in the filter. */
  filter?: 'interval-civil' | 'sample-civil' | 'daily-date' | 'sleep-civil-end';
  pageSize?: number;
  /** For `rollUp`: the bucket width. */
  windowSize?: string;
  /**
   * For `list`: the sources asked for (Google's `dataSourceFamily`); absent: every source
   * (Google's default, which puts a phone's points beside a watch's).
   */
  dataSourceFamily?: string;
  /**
   * Partial response for the bulk calls, a point per second or minute: only the
   * members their tidy rows read. The raw JSON stored is then exactly what this selection returns.
   */
  fields?: string;
}

const DAY_MS = 86_400_000;
/** Largest page of `list`/`rollUp`. */
export const MAX_PAGE_SIZE = 10_000;
/** Sleep and exercise pages hold at most 25 sessions. */
export const SLEEP_PAGE_SIZE = 25;
/** Whole days of one-minute buckets that fit one page: 6 × 1,440 (or 1,500 on a DST day) ≤ 10,000. */
export const MINUTE_DAYS_PER_PAGE = 6;
/** Raw heart-rate samples of one day fill about three pages (samples every 1–5 s). */
export const HEART_RATE_PAGES_PER_DAY = 3;

const SETTINGS_SCOPE = 'https://www.googleapis.com/auth/googlehealth.settings.readonly';
/** Fitbit trackers and Pixel Watch: no phone, no manual log (docs/wearables.md#sources). */
export const WEARABLES_FAMILY = 'users/me/dataSourceFamilies/google-wearables';
/** The device a point came from, as its `source` column reads it (displayName, else platform). */
const SOURCE_FIELDS = 'dataSource(device/displayName,platform)';

const daily = (key: string, apiType: string, cap: 14 | 90): CallSpec => ({
  key,
  method: 'dailyRollUp',
  apiType,
  chunkDays: cap,
  pagesPerChunk: 1,
});

/** The calls behind each research type, with Google's per-call range caps. */
export const DATA_TYPE_CALLS: Record<DataType, readonly CallSpec[]> = {
  profile: [
    { key: 'identity', method: 'identity', chunkDays: null, pagesPerChunk: 1 },
    { key: 'profile', method: 'profile', chunkDays: null, pagesPerChunk: 1 },
    {
      key: 'settings',
      method: 'settings',
      chunkDays: null,
      pagesPerChunk: 1,
      optionalScope: SETTINGS_SCOPE,
    },
  ],
  activity_summary: [
    daily('steps', 'steps', 90),
    daily('distance', 'distance', 90),
    daily('floors', 'floors', 90),
    daily('altitude', 'altitude', 90),
    daily('total-calories', 'total-calories', 14),
    daily('active-energy-burned', 'active-energy-burned', 90),
    daily('active-minutes', 'active-minutes', 14),
    daily('sedentary-period', 'sedentary-period', 90),
    daily('active-zone-minutes', 'active-zone-minutes', 90),
  ],
  activity_steps_timeseries: [daily('steps', 'steps', 90)],
  activity_calories_timeseries: [daily('total-calories', 'total-calories', 14)],
  activity_distance_timeseries: [daily('distance', 'distance', 90)],
  activity_steps_intraday: [
    {
      key: 'steps',
      method: 'list',
      apiType: 'steps',
      chunkDays: MINUTE_DAYS_PER_PAGE,
      pagesPerChunk: 1,
      filter: 'interval-civil',
      pageSize: MAX_PAGE_SIZE,
      dataSourceFamily: WEARABLES_FAMILY,
      fields: `dataPoints(${SOURCE_FIELDS},steps(interval(startTime,startUtcOffset,civilStartTime),count)),nextPageToken`,
    },
  ],
  activity_calories_intraday: [
    {
      key: 'total-calories',
      method: 'rollUp',
      apiType: 'total-calories',
      chunkDays: MINUTE_DAYS_PER_PAGE,
      pagesPerChunk: 1,
      windowSize: '60s',
      pageSize: MAX_PAGE_SIZE,
      fields: 'rollupDataPoints(startTime,totalCalories/kcalSum),nextPageToken',
    },
  ],
  heartrate_summary: [
    {
      key: 'daily-resting-heart-rate',
      method: 'list',
      apiType: 'daily-resting-heart-rate',
      chunkDays: 90,
      pagesPerChunk: 1,
      filter: 'daily-date',
      pageSize: MAX_PAGE_SIZE,
    },
    daily('time-in-heart-rate-zone', 'time-in-heart-rate-zone', 90),
    daily('calories-in-heart-rate-zone', 'calories-in-heart-rate-zone', 14),
  ],
  heartrate_timeseries: [
    {
      key: 'daily-resting-heart-rate',
      method: 'list',
      apiType: 'daily-resting-heart-rate',
      chunkDays: 90,
      pagesPerChunk: 1,
      filter: 'daily-date',
      pageSize: MAX_PAGE_SIZE,
    },
    daily('heart-rate', 'heart-rate', 14),
  ],
  heartrate_intraday_1sec: [
    {
      key: 'heart-rate',
      method: 'list',
      apiType: 'heart-rate',
      chunkDays: 1,
      pagesPerChunk: HEART_RATE_PAGES_PER_DAY,
      filter: 'sample-civil',
      pageSize: MAX_PAGE_SIZE,
      dataSourceFamily: WEARABLES_FAMILY,
      // Not civilTime: it is physicalTime + utcOffset, computed here; asking for it
      // would make each sample's JSON twice as long.
      fields: `dataPoints(${SOURCE_FIELDS},heartRate(sampleTime(physicalTime,utcOffset),beatsPerMinute)),nextPageToken`,
    },
  ],
  heartrate_intraday_1min: [
    {
      key: 'heart-rate',
      method: 'rollUp',
      apiType: 'heart-rate',
      chunkDays: MINUTE_DAYS_PER_PAGE,
      pagesPerChunk: 1,
      windowSize: '60s',
      pageSize: MAX_PAGE_SIZE,
      fields:
        'rollupDataPoints(startTime,heartRate(beatsPerMinuteAvg,beatsPerMinuteMin,beatsPerMinuteMax)),nextPageToken',
    },
  ],
  sleep_log: [
    {
      key: 'sleep',
      method: 'list',
      apiType: 'sleep',
      // About one session a night: 25 nights fill one page.
      chunkDays: SLEEP_PAGE_SIZE,
      pagesPerChunk: 1,
      filter: 'sleep-civil-end',
      pageSize: SLEEP_PAGE_SIZE,
    },
  ],
};

/** The Google Health data types (kebab-case) behind the given research types, each once, sorted. */
export function googleDataTypes(dataTypes: readonly DataType[]): string[] {
  const types = new Set<string>();
  for (const dataType of dataTypes) {
    for (const spec of DATA_TYPE_CALLS[dataType]) if (spec.apiType) types.add(spec.apiType);
  }
  return [...types].sort();
}

/**
 * Whether the type is read with Google's `rollUp`, whose buckets carry no UTC offset: its days are
 * cut at the local midnights of the participant's time zone (local-day.ts), which a task asks
 * Google's settings for first (ZONE_CALL).
 */
export function readsZoneDays(dataType: DataType): boolean {
  return DATA_TYPE_CALLS[dataType].some((call) => call.method === 'rollUp');
}

/** The settings call a run's task of a `readsZoneDays` type makes first: the participant's time zone. */
export const ZONE_CALL: CallSpec = {
  key: 'settings',
  method: 'settings',
  chunkDays: null,
  pagesPerChunk: 1,
  optionalScope: SETTINGS_SCOPE,
};

/** The zone call of a run's task (none without the settings scope: its days are UTC days then). */
export function zoneCalls(dataType: DataType, granted: readonly string[]): PlannedCall[] {
  return readsZoneDays(dataType) && granted.includes(SETTINGS_SCOPE) ? [{ spec: ZONE_CALL }] : [];
}

/** The research types whose calls read the Google Health type `apiType` (kebab-case). */
export function researchTypesOf(apiType: string): DataType[] {
  return (Object.keys(DATA_TYPE_CALLS) as DataType[]).filter((dataType) =>
    DATA_TYPE_CALLS[dataType].some((spec) => spec.apiType === apiType),
  );
}

/** One request (before paging) of a task: a call spec over [from, toExclusive). */
export interface PlannedCall {
  spec: CallSpec;
  /** yyyy-mm-dd, inclusive; absent for calls without a range. */
  from?: string;
  /** yyyy-mm-dd, exclusive. */
  to?: string;
  /**
   * For `rollUp`: the IANA zone whose local midnights bound the days [from, to); absent: UTC.
   * Set when the call is made (the zone is the participant's, known then), never planned.
   */
  timeZone?: string;
}

export interface PlannedTask {
  participantId: string;
  dataType: DataType;
  /** 1-based order inside the participant's job. */
  seq: number;
  /** yyyy-mm-dd, inclusive. */
  windowStart: string;
  windowEnd: string;
  status: 'pending' | 'skipped';
  skipReason: string | null;
  calls: PlannedCall[];
  callsPlanned: number;
}

export interface PlanParticipant {
  id: string;
  grantedScopes: readonly string[];
}

export interface PlanInput {
  participants: readonly PlanParticipant[];
  dataTypes: readonly DataType[];
  dateRange: ExtractionDateRange;
}

export interface ExtractionPlan {
  tasks: PlannedTask[];
  callsPlanned: number;
  callsByParticipant: Map<string, number>;
}

export const parseDay = (date: string): number =>
  Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
export const formatDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);
export const addDays = (date: string, days: number) => formatDay(parseDay(date) + days);

/** The dates a type covers: the 7 days ending on the date for time series in single mode. */
export function typeRange(
  dataType: DataType,
  range: ExtractionDateRange,
): { start: string; end: string } {
  const single =
    (range.mode ?? (range.startDate === range.endDate ? 'single' : 'range')) === 'single';
  if (single && TIME_SERIES_DATA_TYPES.includes(dataType)) {
    return { start: addDays(range.endDate, -(TIME_SERIES_DAYS - 1)), end: range.endDate };
  }
  return { start: range.startDate, end: range.endDate };
}

/** Splits [start, end] (inclusive days) into pieces of at most `size` days. */
export function chunks(start: string, end: string, size: number): { from: string; to: string }[] {
  const out: { from: string; to: string }[] = [];
  const last = parseDay(end) + 1;
  for (let day = parseDay(start); day < last; day += size) {
    out.push({ from: formatDay(day), to: formatDay(Math.min(day + size, last)) });
  }
  return out;
}

/** The scopes of `dataType` that `granted` lacks. */
export function missingScopes(dataType: DataType, granted: readonly string[]): string[] {
  return DATA_TYPE_SCOPES[dataType].filter((scope) => !granted.includes(scope));
}

const specsFor = (dataType: DataType, granted: readonly string[]) =>
  DATA_TYPE_CALLS[dataType].filter((s) => !s.optionalScope || granted.includes(s.optionalScope));

/** Task windows of a type over [start, end]: pieces as wide as the type's widest call. */
export function taskWindows(
  dataType: DataType,
  start: string,
  end: string,
  granted: readonly string[],
): { start: string; end: string }[] {
  const widest = Math.max(...specsFor(dataType, granted).map((s) => s.chunkDays ?? 0));
  if (widest === 0) return [{ start, end }];
  return chunks(start, end, widest).map((c) => ({ start: c.from, end: addDays(c.to, -1) }));
}

/** The requests (before paging) of one task window: each call cut to its own cap. */
export function callsFor(
  dataType: DataType,
  windowStart: string,
  windowEnd: string,
  granted: readonly string[],
): PlannedCall[] {
  const calls: PlannedCall[] = [];
  for (const spec of specsFor(dataType, granted)) {
    if (spec.chunkDays === null) {
      calls.push({ spec });
      continue;
    }
    for (const piece of chunks(windowStart, windowEnd, spec.chunkDays)) {
      calls.push({ spec, from: piece.from, to: piece.to });
    }
  }
  return calls;
}

/**
 * Tasks per participant × type × window. A task's window is the widest chunk among the type's calls
 * (so a 14-day call and a 90-day call of one type share a task); each call is then cut to its own
 * cap inside the task. Types whose scope the participant did not grant become skipped tasks.
 */
export function planExtraction(input: PlanInput): ExtractionPlan {
  const tasks: PlannedTask[] = [];
  const callsByParticipant = new Map<string, number>();
  for (const participant of input.participants) {
    let seq = 0;
    let total = 0;
    for (const dataType of input.dataTypes) {
      const { start, end } = typeRange(dataType, input.dateRange);
      const missing = missingScopes(dataType, participant.grantedScopes);
      if (missing.length > 0) {
        tasks.push({
          participantId: participant.id,
          dataType,
          seq: ++seq,
          windowStart: start,
          windowEnd: end,
          status: 'skipped',
          skipReason: `Scope not granted: ${missing.map(scopeLabel).join(', ')}`,
          calls: [],
          callsPlanned: 0,
        });
        continue;
      }
      for (const window of taskWindows(dataType, start, end, participant.grantedScopes)) {
        const calls = [
          ...zoneCalls(dataType, participant.grantedScopes),
          ...callsFor(dataType, window.start, window.end, participant.grantedScopes),
        ];
        const planned = calls.reduce((sum, call) => sum + call.spec.pagesPerChunk, 0);
        const windowEnd = window.end;
        tasks.push({
          participantId: participant.id,
          dataType,
          seq: ++seq,
          windowStart: window.start,
          windowEnd,
          status: 'pending',
          skipReason: null,
          calls,
          callsPlanned: planned,
        });
        total += planned;
      }
    }
    callsByParticipant.set(participant.id, total);
  }
  let callsPlanned = 0;
  for (const n of callsByParticipant.values()) callsPlanned += n;
  return { tasks, callsPlanned, callsByParticipant };
}
