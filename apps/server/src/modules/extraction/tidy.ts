import { DATA_TYPE_EQUIVALENT_NOTE, DATA_TYPE_NOTES, type DataType } from '@research/contracts';

/**
 * Raw Google Health answers → one tidy table per research type: one row per participant × time
 * point (or day), times as the UTC instant plus the point's own UTC offset and the civil time it
 * gives, units in the column names. Everything here is pure, so a re-run of the same raw answers
 * gives the same rows.
 */

export type Cell = string | number | boolean | null;

export interface Column {
  name: string;
  description: string;
}

/** The pages of one planned call, in the order they were fetched. */
export interface CallPages {
  key: string;
  pages: unknown[];
}

const P: Column = { name: 'participant_id', description: 'Participant id on this platform.' };
const DATE: Column = {
  name: 'date',
  description: 'Civil (local calendar) day in the participant’s own time zone, yyyy-mm-dd.',
};
const TS: Column[] = [
  { name: 'timestamp_utc', description: 'Start of the point or minute, UTC (RFC 3339).' },
  {
    name: 'utc_offset_seconds',
    description:
      'The participant’s UTC offset at that instant, as the provider recorded it (empty when the provider does not return one).',
  },
  {
    name: 'civil_time',
    description:
      'Local wall-clock time, yyyy-mm-ddThh:mm:ss, as the provider reports it with the point; else timestamp_utc plus utc_offset_seconds (empty when the provider gives neither).',
  },
];
/** Raw heart rate is fetched without the provider's civil time (see its partial response). */
const TS_SAMPLE: Column[] = [
  { name: 'timestamp_utc', description: 'Time of the sample, UTC (RFC 3339).' },
  TS[1] as Column,
  {
    name: 'civil_time',
    description:
      'Local wall-clock time, yyyy-mm-ddThh:mm:ss: timestamp_utc plus utc_offset_seconds, which is how the provider derives its own civil time (empty without an offset).',
  },
];
const UTC_MINUTE: Column[] = [
  {
    name: 'timestamp_utc',
    description: 'Start of the one-minute bucket, UTC (RFC 3339); buckets are aligned to UTC days.',
  },
  {
    name: 'utc_offset_seconds',
    description:
      'Empty: the provider sums minutes into fixed UTC buckets and reports no UTC offset with them, so the offset in force (which changes with DST and travel) is not known for a bucket.',
  },
  {
    name: 'civil_time',
    description:
      'Empty, for the same reason: without an offset the local time of a bucket is not known.',
  },
];

const col = (name: string, description: string): Column => ({ name, description });

export const COLUMNS: Record<DataType, Column[]> = {
  profile: [
    P,
    col('health_user_id', 'Google Health user id (stable).'),
    col('legacy_fitbit_user_id', 'The old Fitbit user id, for joining pre-migration records.'),
    col('age_years', 'Age in years (no date of birth is available).'),
    col('membership_start_date', 'Date the account was created, yyyy-mm-dd.'),
    col('walking_stride_length_mm', 'Walking stride length (user set, else automatic), mm.'),
    col('running_stride_length_mm', 'Running stride length (user set, else automatic), mm.'),
    col('time_zone', 'Current IANA time zone (settings scope).'),
    col('utc_offset_seconds', 'Current UTC offset in seconds (settings scope).'),
    col('language_locale', 'Language locale (settings scope).'),
    col('distance_unit', 'Display unit for distance (settings scope); data is always in mm.'),
    col('weight_unit', 'Display unit for weight (settings scope).'),
  ],
  activity_summary: [
    P,
    DATE,
    col('steps_count', 'Steps in the day.'),
    col('distance_mm', 'Distance in millimetres.'),
    col('floors_count', 'Floors climbed.'),
    col('altitude_gain_mm', 'Altitude gained in millimetres.'),
    col('total_calories_kcal', 'Total energy (BMR + activity), kcal.'),
    col('active_calories_kcal', 'Active energy, kcal.'),
    col('light_active_minutes', 'Minutes at the LIGHT activity level (≈ Fitbit lightly active).'),
    col(
      'moderate_active_minutes',
      'Minutes at the MODERATE activity level (≈ Fitbit fairly active).',
    ),
    col(
      'vigorous_active_minutes',
      'Minutes at the VIGOROUS activity level (≈ Fitbit very active).',
    ),
    col('sedentary_minutes', 'Sedentary minutes.'),
    col('azm_fat_burn_minutes', 'Active zone minutes earned in the fat-burn zone.'),
    col('azm_cardio_minutes', 'Active zone minutes earned in the cardio zone.'),
    col('azm_peak_minutes', 'Active zone minutes earned in the peak zone.'),
  ],
  activity_steps_timeseries: [P, DATE, col('steps_count', 'Steps in the day.')],
  activity_calories_timeseries: [
    P,
    DATE,
    col('total_calories_kcal', 'Total energy (BMR + activity), kcal.'),
  ],
  activity_distance_timeseries: [P, DATE, col('distance_mm', 'Distance in millimetres.')],
  activity_steps_intraday: [P, ...TS, col('steps_count', 'Steps in the minute.')],
  activity_calories_intraday: [
    P,
    ...UTC_MINUTE,
    col('total_calories_kcal', 'Total energy in the minute, kcal.'),
  ],
  heartrate_summary: [
    P,
    DATE,
    col('resting_heart_rate_bpm', 'Resting heart rate, beats per minute.'),
    ...['light', 'moderate', 'vigorous', 'peak'].flatMap((zone) => [
      col(`${zone}_zone_minutes`, `Minutes in the ${zone.toUpperCase()} heart-rate zone.`),
      col(`${zone}_zone_calories_kcal`, `Energy in the ${zone.toUpperCase()} zone, kcal.`),
    ]),
  ],
  heartrate_timeseries: [
    P,
    DATE,
    col('resting_heart_rate_bpm', 'Resting heart rate, beats per minute.'),
    col('heart_rate_avg_bpm', 'Average heart rate of the day, beats per minute.'),
    col('heart_rate_min_bpm', 'Lowest heart rate of the day, beats per minute.'),
    col('heart_rate_max_bpm', 'Highest heart rate of the day, beats per minute.'),
  ],
  heartrate_intraday_1sec: [P, ...TS_SAMPLE, col('heart_rate_bpm', 'Raw heart-rate sample, bpm.')],
  heartrate_intraday_1min: [
    P,
    ...UTC_MINUTE,
    col('heart_rate_avg_bpm', 'Average of the minute, beats per minute.'),
    col('heart_rate_min_bpm', 'Lowest sample of the minute, beats per minute.'),
    col('heart_rate_max_bpm', 'Highest sample of the minute, beats per minute.'),
  ],
  sleep_log: [
    P,
    col('sleep_id', 'Provider id of the sleep session (Fitbit logId has no equivalent).'),
    col('date_of_sleep', 'Civil date the session ended (Fitbit dateOfSleep).'),
    col('start_time_utc', 'Session start, UTC.'),
    col('start_utc_offset_seconds', 'UTC offset at the start, seconds.'),
    col('start_civil_time', 'Local wall-clock time at the start.'),
    col('end_time_utc', 'Session end, UTC.'),
    col('end_utc_offset_seconds', 'UTC offset at the end, seconds.'),
    col('end_civil_time', 'Local wall-clock time at the end.'),
    col('main_sleep', 'True for the main sleep of the night (false for naps).'),
    col('minutes_in_sleep_period', 'Minutes from start to end.'),
    col('minutes_asleep', 'Minutes asleep.'),
    col('minutes_awake', 'Minutes awake within the period.'),
    col('minutes_to_fall_asleep', 'Minutes before falling asleep.'),
    col('awake_minutes', 'Minutes in the AWAKE stage.'),
    col('light_minutes', 'Minutes in the LIGHT stage.'),
    col('deep_minutes', 'Minutes in the DEEP stage.'),
    col('rem_minutes', 'Minutes in the REM stage.'),
    col('stages_status', 'Whether stage classification succeeded.'),
    col('processed', 'False while the provider may still revise the session.'),
  ],
};

// ---- small readers -------------------------------------------------------------------------

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const num = (v: unknown): number | null => {
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
const localTime = (civil: unknown, instant: string, offset: number | null) =>
  (civil === undefined ? null : civilDateTimeText(civil)) ?? civilTime(instant, offset);

function pointsOf(pages: unknown[], field: string): Json[] {
  const out: Json[] = [];
  for (const page of pages) for (const point of arr(obj(page)[field])) out.push(obj(point));
  return out;
}
const pagesOf = (calls: CallPages[], key: string) =>
  calls.filter((c) => c.key === key).flatMap((c) => c.pages);

/** dailyRollUp answers of one call key, as date → value object. */
function dailyValues(calls: CallPages[], key: string, field: string): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const point of pointsOf(pagesOf(calls, key), 'rollupDataPoints')) {
    const date = civilDate(obj(point.civilStartTime).date);
    if (date) out.set(date, obj(point[field]));
  }
  return out;
}

function dailyListValues(calls: CallPages[], key: string, field: string): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const point of pointsOf(pagesOf(calls, key), 'dataPoints')) {
    const value = obj(point[field]);
    const date = civilDate(value.date);
    if (date) out.set(date, value);
  }
  return out;
}

const inWindow = (date: string, window: { start: string; end: string }) =>
  date >= window.start && date <= window.end;

function byDate(
  participantId: string,
  window: { start: string; end: string },
  sources: Map<string, Json>[],
  cells: (date: string) => Cell[],
): Cell[][] {
  const dates = new Set<string>();
  for (const source of sources) for (const date of source.keys()) dates.add(date);
  return [...dates]
    .filter((d) => inWindow(d, window))
    .sort()
    .map((date) => [participantId, date, ...cells(date)]);
}

const zoneValue = (
  list: unknown,
  zone: string,
  field: string,
  read: (v: unknown) => number | null,
) => {
  const entry = arr(list)
    .map(obj)
    .find((z) => z.heartRateZone === zone);
  return entry ? read(entry[field]) : null;
};

const minutesOf = (v: unknown) => {
  const s = seconds(v);
  return s === null ? null : s / 60;
};

/**
 * The tidy rows of one task: a participant, a type, a window of civil days, and the pages of its
 * calls. Rows come out in time order.
 */
export function tidyRows(
  dataType: DataType,
  participantId: string,
  window: { start: string; end: string },
  calls: CallPages[],
): Cell[][] {
  switch (dataType) {
    case 'profile': {
      const identity = obj(pagesOf(calls, 'identity')[0]);
      const profile = obj(pagesOf(calls, 'profile')[0]);
      const settings = obj(pagesOf(calls, 'settings')[0]);
      const stride = (user: unknown, auto: unknown) => num(user) ?? num(auto);
      return [
        [
          participantId,
          (identity.healthUserId as string) ?? null,
          (identity.legacyUserId as string) ?? null,
          num(profile.age),
          civilDate(profile.membershipStartDate),
          stride(profile.userConfiguredWalkingStrideLengthMm, profile.autoWalkingStrideLengthMm),
          stride(profile.userConfiguredRunningStrideLengthMm, profile.autoRunningStrideLengthMm),
          (settings.timeZone as string) ?? null,
          seconds(settings.utcOffset),
          (settings.languageLocale as string) ?? null,
          (settings.distanceUnit as string) ?? null,
          (settings.weightUnit as string) ?? null,
        ],
      ];
    }
    case 'activity_summary': {
      const v = (key: string, field: string) => dailyValues(calls, key, field);
      const steps = v('steps', 'steps');
      const distance = v('distance', 'distance');
      const floors = v('floors', 'floors');
      const altitude = v('altitude', 'altitude');
      const total = v('total-calories', 'totalCalories');
      const active = v('active-energy-burned', 'activeEnergyBurned');
      const minutes = v('active-minutes', 'activeMinutes');
      const sedentary = v('sedentary-period', 'sedentaryPeriod');
      const azm = v('active-zone-minutes', 'activeZoneMinutes');
      const level = (date: string, name: string) => {
        const entry = arr(minutes.get(date)?.activeMinutesRollupByActivityLevel)
          .map(obj)
          .find((e) => e.activityLevel === name);
        return entry ? num(entry.activeMinutesSum) : minutes.has(date) ? 0 : null;
      };
      const azmOf = (date: string, field: string) => {
        const value = azm.get(date);
        return value ? (num(value[field]) ?? 0) : null;
      };
      return byDate(
        participantId,
        window,
        [steps, distance, floors, altitude, total, active, minutes, sedentary, azm],
        (date) => [
          num(steps.get(date)?.countSum),
          num(distance.get(date)?.millimetersSum),
          num(floors.get(date)?.countSum),
          num(altitude.get(date)?.gainMillimetersSum),
          num(total.get(date)?.kcalSum),
          num(active.get(date)?.kcalSum),
          level(date, 'LIGHT'),
          level(date, 'MODERATE'),
          level(date, 'VIGOROUS'),
          minutesOf(sedentary.get(date)?.durationSum),
          azmOf(date, 'sumInFatBurnHeartZone'),
          azmOf(date, 'sumInCardioHeartZone'),
          azmOf(date, 'sumInPeakHeartZone'),
        ],
      );
    }
    case 'activity_steps_timeseries': {
      const steps = dailyValues(calls, 'steps', 'steps');
      return byDate(participantId, window, [steps], (d) => [num(steps.get(d)?.countSum)]);
    }
    case 'activity_calories_timeseries': {
      const kcal = dailyValues(calls, 'total-calories', 'totalCalories');
      return byDate(participantId, window, [kcal], (d) => [num(kcal.get(d)?.kcalSum)]);
    }
    case 'activity_distance_timeseries': {
      const mm = dailyValues(calls, 'distance', 'distance');
      return byDate(participantId, window, [mm], (d) => [num(mm.get(d)?.millimetersSum)]);
    }
    case 'activity_steps_intraday':
    case 'heartrate_intraday_1sec':
    case 'activity_calories_intraday':
    case 'heartrate_intraday_1min':
    case 'sleep_log': {
      const rows: Cell[][] = [];
      for (const call of calls) {
        for (const page of call.pages) {
          const pageRows = rowsOfPage(dataType, participantId, call.key, page);
          if (pageRows) for (const row of pageRows) rows.push(row);
        }
      }
      return orderRows(dataType, window, rows);
    }
    case 'heartrate_summary': {
      const rhr = dailyListValues(calls, 'daily-resting-heart-rate', 'dailyRestingHeartRate');
      const time = dailyValues(calls, 'time-in-heart-rate-zone', 'timeInHeartRateZone');
      const kcal = dailyValues(calls, 'calories-in-heart-rate-zone', 'caloriesInHeartRateZone');
      return byDate(participantId, window, [rhr, time, kcal], (date) => [
        num(rhr.get(date)?.beatsPerMinute),
        ...['LIGHT', 'MODERATE', 'VIGOROUS', 'PEAK'].flatMap((zone) => [
          time.has(date)
            ? (zoneValue(time.get(date)?.timeInHeartRateZones, zone, 'duration', minutesOf) ?? 0)
            : null,
          kcal.has(date)
            ? (zoneValue(kcal.get(date)?.caloriesInHeartRateZones, zone, 'kcal', num) ?? 0)
            : null,
        ]),
      ]);
    }
    case 'heartrate_timeseries': {
      const rhr = dailyListValues(calls, 'daily-resting-heart-rate', 'dailyRestingHeartRate');
      const hr = dailyValues(calls, 'heart-rate', 'heartRate');
      return byDate(participantId, window, [rhr, hr], (date) => [
        num(rhr.get(date)?.beatsPerMinute),
        num(hr.get(date)?.beatsPerMinuteAvg),
        num(hr.get(date)?.beatsPerMinuteMin),
        num(hr.get(date)?.beatsPerMinuteMax),
      ]);
    }
  }
}

/** Types whose rows are one per data point, each made from its page alone. */
const POINT_ROWS: Partial<
  Record<
    DataType,
    {
      /** The call key and the page field holding the points. */
      key: string;
      field: 'dataPoints' | 'rollupDataPoints';
      row: (participantId: string, point: Json) => Cell[];
      /** The column rows are ordered by. */
      order: number;
    }
  >
> = {
  activity_steps_intraday: {
    key: 'steps',
    field: 'dataPoints',
    row: (participantId, p) => {
      const steps = obj(p.steps);
      const interval = obj(steps.interval);
      const start = String(interval.startTime ?? '');
      const offset = seconds(interval.startUtcOffset);
      const civil = localTime(interval.civilStartTime, start, offset);
      return [participantId, start, offset, civil, num(steps.count)];
    },
    order: 1,
  },
  heartrate_intraday_1sec: {
    key: 'heart-rate',
    field: 'dataPoints',
    row: (participantId, p) => {
      const hr = obj(p.heartRate);
      const at = obj(hr.sampleTime);
      const time = String(at.physicalTime ?? '');
      const offset = seconds(at.utcOffset);
      const civil = localTime(at.civilTime, time, offset);
      return [participantId, time, offset, civil, num(hr.beatsPerMinute)];
    },
    order: 1,
  },
  // Roll-up buckets carry no UTC offset (see UTC_MINUTE): those two columns stay empty.
  activity_calories_intraday: {
    key: 'total-calories',
    field: 'rollupDataPoints',
    row: (participantId, p) => [
      participantId,
      String(p.startTime ?? ''),
      null,
      null,
      num(obj(p.totalCalories).kcalSum),
    ],
    order: 1,
  },
  heartrate_intraday_1min: {
    key: 'heart-rate',
    field: 'rollupDataPoints',
    row: (participantId, p) => {
      const hr = obj(p.heartRate);
      return [
        participantId,
        String(p.startTime ?? ''),
        null,
        null,
        num(hr.beatsPerMinuteAvg),
        num(hr.beatsPerMinuteMin),
        num(hr.beatsPerMinuteMax),
      ];
    },
    order: 1,
  },
  sleep_log: {
    key: 'sleep',
    field: 'dataPoints',
    row: (participantId, p) => {
      const sleep = obj(p.sleep);
      const interval = obj(sleep.interval);
      const summary = obj(sleep.summary);
      const metadata = obj(sleep.metadata);
      const start = String(interval.startTime ?? '');
      const end = String(interval.endTime ?? '');
      const startOffset = seconds(interval.startUtcOffset);
      const endOffset = seconds(interval.endUtcOffset);
      const endCivil = localTime(interval.civilEndTime, end, endOffset);
      const stage = (type: string) =>
        num(
          arr(summary.stagesSummary)
            .map(obj)
            .find((s) => s.type === type)?.minutes,
        ) ?? 0;
      const name = String(p.name ?? p.dataPointName ?? '');
      return [
        participantId,
        name.slice(name.lastIndexOf('/') + 1),
        endCivil?.slice(0, 10) ?? null,
        start,
        startOffset,
        localTime(interval.civilStartTime, start, startOffset),
        end,
        endOffset,
        endCivil,
        metadata.mainSleep === true,
        num(summary.minutesInSleepPeriod),
        num(summary.minutesAsleep) ?? 0,
        num(summary.minutesAwake) ?? 0,
        num(summary.minutesToFallAsleep) ?? 0,
        stage('AWAKE'),
        stage('LIGHT'),
        stage('DEEP'),
        stage('REM'),
        (metadata.stagesStatus as string) ?? null,
        metadata.processed === true,
      ];
    },
    order: 3,
  },
};

/**
 * The rows of one page of a type whose rows are one per point, so a task keeps rows rather than
 * the parsed pages (a day of raw heart rate is ~29,000 points); null for every other type, whose
 * rows need all the task's pages (tidyRows).
 */
export function rowsOfPage(
  dataType: DataType,
  participantId: string,
  callKey: string,
  page: unknown,
): Cell[][] | null {
  const spec = POINT_ROWS[dataType];
  if (!spec) return null;
  if (callKey !== spec.key) return [];
  const rows: Cell[][] = [];
  for (const point of arr(obj(page)[spec.field])) rows.push(spec.row(participantId, obj(point)));
  return rows;
}

/** A point-per-row type's rows of a task, from rowsOfPage in fetch order, in time order. */
export function orderRows(
  dataType: DataType,
  window: { start: string; end: string },
  rows: Cell[][],
): Cell[][] {
  const kept =
    dataType === 'sleep_log'
      ? rows.filter((row) => typeof row[2] === 'string' && inWindow(row[2], window))
      : rows;
  // Pages come newest first: the sort meets descending runs, which it reverses in linear time.
  return kept.sort(byCell(POINT_ROWS[dataType]?.order ?? 1));
}

/** The order of two cells of the column rows are sorted by. */
export const compareKeys = (a: Cell, b: Cell) => String(a).localeCompare(String(b));

function byCell(index: number) {
  return (a: Cell[], b: Cell[]) => compareKeys(a[index] as Cell, b[index] as Cell);
}

/**
 * The column a point-per-row type's rows are ordered by, when every point becomes a row (no
 * window filter), so rows can be written as pages arrive; null for every other type.
 */
export function streamOrder(dataType: DataType): number | null {
  return dataType === 'sleep_log' ? null : (POINT_ROWS[dataType]?.order ?? null);
}

/** The data dictionary: every column of every type, and what differs from Fitbit's type. */
export function dictionaryRows(dataTypes: readonly DataType[]): Cell[][] {
  return dataTypes.flatMap((type) =>
    COLUMNS[type].map((c) => [
      `${type}.csv`,
      c.name,
      c.description,
      DATA_TYPE_NOTES[type] ?? DATA_TYPE_EQUIVALENT_NOTE,
    ]),
  );
}
export const DICTIONARY_COLUMNS = ['file', 'column', 'description', 'difference_from_fitbit'];
