import type { DataType } from '@research/contracts';

/**
 * Every column of every export table, in one place: its stored type, unit, meaning and the Google
 * Health member it comes from. The builder makes the columns in this order, the writers type them
 * from here, and data_dictionary.csv is this list. Columns the dataset holds that are not listed
 * (e.g. a `source` column added later) are passed through after these, typed as stored.
 */

export type ExportKind = 'string' | 'date' | 'instant' | 'int32' | 'double' | 'boolean';

export interface ExportColumn {
  name: string;
  kind: ExportKind;
  unit: string;
  meaning: string;
  /** The Google Health member the value comes from ('' when the platform derives it). */
  google: string;
  /** The dataset's tidy column the value is read from (default: the same name). */
  from?: string;
  /** Multiplies the tidy value (unit conversions, e.g. mm → m). */
  scale?: number;
  /** Filled by the builder (times, day state, worn flag), not read from a tidy column. */
  derived?: true;
}

export type ExportTable = DataType | 'sleep_stages';

/** How a table's rows are made. */
export type TableShape = 'profile' | 'daily' | 'points' | 'minutes' | 'sleep' | 'stages';

export const SHAPES: Record<ExportTable, TableShape> = {
  profile: 'profile',
  activity_summary: 'daily',
  activity_steps_timeseries: 'daily',
  activity_calories_timeseries: 'daily',
  activity_distance_timeseries: 'daily',
  heartrate_summary: 'daily',
  heartrate_timeseries: 'daily',
  activity_steps_intraday: 'minutes',
  activity_calories_intraday: 'minutes',
  heartrate_intraday_1min: 'minutes',
  heartrate_intraday_1sec: 'points',
  sleep_log: 'sleep',
  sleep_stages: 'stages',
};

const c = (
  name: string,
  kind: ExportKind,
  unit: string,
  meaning: string,
  google: string,
  extra: Partial<ExportColumn> = {},
): ExportColumn => ({ name, kind, unit, meaning, google, ...extra });
const derived = (name: string, kind: ExportKind, unit: string, meaning: string) =>
  c(name, kind, unit, meaning, '', { derived: true });
const num = (name: string, unit: string, meaning: string, google: string) =>
  c(name, 'double', unit, meaning, google);
const metres = (name: string, from: string, meaning: string) =>
  c(name, 'double', 'm', `${meaning} (converted from ${from}).`, '', { from, scale: 0.001 });

const PARTICIPANT = c(
  'participant_id',
  'string',
  '',
  'Participant id on this platform (text: keep it as text when loading).',
  '',
);
const DATE = derived(
  'date',
  'date',
  '',
  'The participant’s local (civil) day, yyyy-mm-dd, in their own time zone.',
);
const DAY_STATE = derived(
  'day_state',
  'string',
  '',
  'What the dataset holds for the day: complete, partial (not over or not synced yet), empty (Google sent nothing), or why it is missing (missing, failed, scope_missing, revoked, deleted_at_source). Values are empty (NULL) unless complete or partial.',
);
const TIME = [
  derived(
    'time_local',
    'string',
    'ISO 8601',
    'Local wall-clock time WITH its UTC offset, e.g. 2026-11-01T01:30:00-05:00 (text, so the offset survives any reader; on a DST day 01:xx appears twice with different offsets).',
  ),
  derived('time_utc', 'instant', 'UTC', 'The same instant in UTC (start of the minute or sample).'),
  derived(
    'utc_offset_seconds',
    'int32',
    's',
    'The participant’s UTC offset at that instant: as Google recorded it with the point, else from the participant’s time zone (the dataset ledger’s) and neighbouring points.',
  ),
];
const GRID = [
  DAY_STATE,
  derived(
    'worn',
    'boolean',
    '',
    'Minute grid only: true when heart rate was recorded in the minute, false when not (device not worn or not recording), empty when no heart-rate data of the day is held.',
  ),
];

const span = (prefix: 'start' | 'end', what: string, google: string): ExportColumn[] => [
  c(`${prefix}_local`, 'string', 'ISO 8601', `${what}, local time with its UTC offset.`, '', {
    derived: true,
  }),
  c(`${prefix}_utc`, 'instant', 'UTC', `${what}, UTC.`, `${google}Time`, {
    from: `${prefix}_time_utc`,
  }),
  c(
    `${prefix}_utc_offset_seconds`,
    'int32',
    's',
    `UTC offset at the ${prefix}.`,
    `${google}UtcOffset`,
  ),
];

/** The value columns of each table (after participant, date/time and state columns). */
const VALUES: Record<ExportTable, ExportColumn[]> = {
  profile: [
    c('health_user_id', 'string', '', 'Google Health user id (text).', 'profile.healthUserId'),
    c(
      'legacy_fitbit_user_id',
      'string',
      '',
      'The old Fitbit user id (text).',
      'profile.legacyUserId',
    ),
    num('age_years', 'years', 'Age.', 'profile.age'),
    c('membership_start_date', 'date', '', 'Account creation day.', 'profile.membershipStartDate'),
    num(
      'walking_stride_length_mm',
      'mm',
      'Walking stride length.',
      'profile.userConfiguredWalkingStrideLengthMm',
    ),
    metres('walking_stride_length_m', 'walking_stride_length_mm', 'Walking stride length'),
    num(
      'running_stride_length_mm',
      'mm',
      'Running stride length.',
      'profile.userConfiguredRunningStrideLengthMm',
    ),
    metres('running_stride_length_m', 'running_stride_length_mm', 'Running stride length'),
    c('time_zone', 'string', 'IANA', 'Time zone in the settings.', 'settings.timeZone'),
    c('utc_offset_seconds', 'int32', 's', 'UTC offset in the settings.', 'settings.utcOffset'),
    c('language_locale', 'string', '', 'Language locale.', 'settings.languageLocale'),
    c('distance_unit', 'string', '', 'Display unit for distance.', 'settings.distanceUnit'),
    c('weight_unit', 'string', '', 'Display unit for weight.', 'settings.weightUnit'),
  ],
  activity_summary: [
    num('steps_count', 'steps', 'Steps in the day.', 'steps.countSum'),
    num('distance_mm', 'mm', 'Distance (Google’s unit).', 'distance.millimetersSum'),
    metres('distance_m', 'distance_mm', 'Distance'),
    num('floors_count', 'floors', 'Floors climbed.', 'floors.countSum'),
    num(
      'altitude_gain_mm',
      'mm',
      'Altitude gained (Google’s unit).',
      'altitude.gainMillimetersSum',
    ),
    metres('altitude_gain_m', 'altitude_gain_mm', 'Altitude gained'),
    num('total_calories_kcal', 'kcal', 'Total energy.', 'totalCalories.kcalSum'),
    num('active_calories_kcal', 'kcal', 'Active energy.', 'activeCalories.kcalSum'),
    num('light_active_minutes', 'min', 'Minutes at LIGHT activity.', 'activityLevel'),
    num('moderate_active_minutes', 'min', 'Minutes at MODERATE activity.', 'activityLevel'),
    num('vigorous_active_minutes', 'min', 'Minutes at VIGOROUS activity.', 'activityLevel'),
    num('sedentary_minutes', 'min', 'Sedentary minutes.', 'sedentaryPeriod'),
    num('azm_fat_burn_minutes', 'min', 'Active zone minutes, fat burn.', 'activeZoneMinutes'),
    num('azm_cardio_minutes', 'min', 'Active zone minutes, cardio.', 'activeZoneMinutes'),
    num('azm_peak_minutes', 'min', 'Active zone minutes, peak.', 'activeZoneMinutes'),
  ],
  activity_steps_timeseries: [num('steps_count', 'steps', 'Steps in the day.', 'steps.countSum')],
  activity_calories_timeseries: [
    num('total_calories_kcal', 'kcal', 'Total energy in the day.', 'totalCalories.kcalSum'),
  ],
  activity_distance_timeseries: [
    num('distance_mm', 'mm', 'Distance (Google’s unit).', 'distance.millimetersSum'),
    metres('distance_m', 'distance_mm', 'Distance'),
  ],
  heartrate_summary: [
    num('resting_heart_rate_bpm', 'bpm', 'Resting heart rate.', 'dailyRestingHeartRate'),
    ...['light', 'moderate', 'vigorous', 'peak'].flatMap((zone) => [
      num(`${zone}_zone_minutes`, 'min', `Minutes in the ${zone} zone.`, 'heartRateZones'),
      num(`${zone}_zone_calories_kcal`, 'kcal', `Energy in the ${zone} zone.`, 'heartRateZones'),
    ]),
  ],
  heartrate_timeseries: [
    num('resting_heart_rate_bpm', 'bpm', 'Resting heart rate.', 'dailyRestingHeartRate'),
    num('heart_rate_avg_bpm', 'bpm', 'Average of the day.', 'heartRate.beatsPerMinuteAvg'),
    num('heart_rate_min_bpm', 'bpm', 'Lowest of the day.', 'heartRate.beatsPerMinuteMin'),
    num('heart_rate_max_bpm', 'bpm', 'Highest of the day.', 'heartRate.beatsPerMinuteMax'),
  ],
  activity_steps_intraday: [
    num(
      'steps_count',
      'steps',
      'Steps in the minute (minute grid: 0 where Google sent no point on a day held).',
      'steps.count',
    ),
  ],
  activity_calories_intraday: [
    num(
      'total_calories_kcal',
      'kcal',
      'Energy in the minute (minute grid: 0 where Google sent no point on a day held).',
      'totalCalories.kcalSum',
    ),
  ],
  heartrate_intraday_1min: [
    num('heart_rate_avg_bpm', 'bpm', 'Average of the minute.', 'heartRate.beatsPerMinuteAvg'),
    num('heart_rate_min_bpm', 'bpm', 'Lowest of the minute.', 'heartRate.beatsPerMinuteMin'),
    num('heart_rate_max_bpm', 'bpm', 'Highest of the minute.', 'heartRate.beatsPerMinuteMax'),
  ],
  heartrate_intraday_1sec: [
    num('heart_rate_bpm', 'bpm', 'Raw heart-rate sample.', 'heartRate.beatsPerMinute'),
  ],
  sleep_log: [
    c('sleep_id', 'string', '', 'Google’s id of the sleep session (text).', 'sleep dataPoint name'),
    c(
      'date_of_sleep',
      'date',
      '',
      'Local day the session ended (the partition’s day).',
      'interval.civilEndTime',
    ),
    ...span('start', 'Session start', 'interval.start'),
    ...span('end', 'Session end', 'interval.end'),
    c('main_sleep', 'boolean', '', 'Main sleep of the night (false: nap).', 'metadata.mainSleep'),
    num(
      'minutes_in_sleep_period',
      'min',
      'Minutes from start to end.',
      'summary.minutesInSleepPeriod',
    ),
    num('minutes_asleep', 'min', 'Minutes asleep.', 'summary.minutesAsleep'),
    num('minutes_awake', 'min', 'Minutes awake within the period.', 'summary.minutesAwake'),
    num('minutes_to_fall_asleep', 'min', 'Minutes to fall asleep.', 'summary.minutesToFallAsleep'),
    num('awake_minutes', 'min', 'Minutes in the AWAKE stage.', 'summary.stagesSummary'),
    num('light_minutes', 'min', 'Minutes in the LIGHT stage.', 'summary.stagesSummary'),
    num('deep_minutes', 'min', 'Minutes in the DEEP stage.', 'summary.stagesSummary'),
    num('rem_minutes', 'min', 'Minutes in the REM stage.', 'summary.stagesSummary'),
    c('stages_status', 'string', '', 'Stage classification status.', 'metadata.stagesStatus'),
    c('processed', 'boolean', '', 'False while Google may revise it.', 'metadata.processed'),
  ],
  sleep_stages: [
    c('sleep_id', 'string', '', 'The session (sleep_log.sleep_id), text.', 'sleep dataPoint name'),
    c('stage', 'string', '', 'AWAKE, LIGHT, DEEP, REM, …', 'stages[].type', { derived: true }),
    ...span('start', 'Segment start', 'stages[].start').map((x) => ({
      ...x,
      derived: true as const,
    })),
    ...span('end', 'Segment end', 'stages[].end').map((x) => ({ ...x, derived: true as const })),
    derived('duration_seconds', 'double', 's', 'Length of the segment.'),
  ],
};

/** The columns of a table as exported (without passed-through ones). */
export function exportColumns(table: ExportTable, minuteGrid: boolean): ExportColumn[] {
  const shape = SHAPES[table];
  const values = VALUES[table];
  switch (shape) {
    case 'profile':
      return [
        PARTICIPANT,
        { ...DATE, meaning: 'The local day the profile was read for.' },
        ...values,
      ];
    case 'daily':
      return [PARTICIPANT, DATE, DAY_STATE, ...values];
    case 'minutes':
      return [PARTICIPANT, DATE, ...TIME, ...(minuteGrid ? GRID : []), ...values];
    case 'points':
      return [PARTICIPANT, DATE, ...TIME, ...values];
    case 'sleep':
    case 'stages':
      return [PARTICIPANT, ...values];
  }
}

/** Tidy columns the builder reads for the time and key columns (never passed through). */
export const CONSUMED = new Set([
  'participant_id',
  'date',
  'timestamp_utc',
  'utc_offset_seconds',
  'civil_time',
  'start_civil_time',
  'end_civil_time',
  'start_time_utc',
  'end_time_utc',
]);

export const DICTIONARY_HEADER = ['file', 'column', 'type', 'unit', 'meaning', 'google_member'];
