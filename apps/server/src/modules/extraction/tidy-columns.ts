import { DATA_TYPE_EQUIVALENT_NOTE, DATA_TYPE_NOTES, type DataType } from '@research/contracts';

/** The columns of every tidy table, with the descriptions the data dictionary hands out. */

export type Cell = string | number | boolean | null;

export interface Column {
  name: string;
  description: string;
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
const LOCAL_MINUTE: Column[] = [
  {
    name: 'timestamp_utc',
    description:
      'Start of the one-minute bucket, UTC (RFC 3339). Buckets run from the participant’s local midnight to the next, so a day holds its own local minutes (1,440; 1,380 or 1,500 on a DST day).',
  },
  {
    name: 'utc_offset_seconds',
    description:
      'UTC offset of the participant’s time zone (from their Google settings when the settings scope was granted, else UTC) at the bucket’s start: the provider reports none with a bucket. On a day the participant travelled it is the offset of that zone, not the one the device recorded.',
  },
  {
    name: 'civil_time',
    description:
      'Local wall-clock time of the bucket’s start, yyyy-mm-ddThh:mm:ss: timestamp_utc plus utc_offset_seconds (a DST day shows 01:xx twice, with two offsets).',
  },
];
/** Listed points keep the device they came from (only wearables are asked for). */
const SOURCE: Column = {
  name: 'source',
  description:
    'The device that recorded the point (its display name, e.g. “Charge 6”, else the platform). Only Fitbit trackers and Pixel Watch are asked for: no phone, no manual entry.',
};

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
  activity_steps_intraday: [P, ...TS, col('steps_count', 'Steps in the minute.'), SOURCE],
  activity_calories_intraday: [
    P,
    ...LOCAL_MINUTE,
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
  heartrate_intraday_1sec: [
    P,
    ...TS_SAMPLE,
    col('heart_rate_bpm', 'Raw heart-rate sample, bpm.'),
    SOURCE,
  ],
  heartrate_intraday_1min: [
    P,
    ...LOCAL_MINUTE,
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
