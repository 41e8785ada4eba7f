import type { SleepStages } from '../../db/schema/index.js';
import { column, type PartitionTable, type Value } from './columns.js';

/** The day's figures the dashboards show without opening files; each type gives its own. */
export interface DaySummary {
  steps: number | null;
  wearMinutes: number | null;
  restingHeartRateBpm: number | null;
  sleepMinutes: number | null;
  sleepStages: SleepStages | null;
}

const NONE: DaySummary = {
  steps: null,
  wearMinutes: null,
  restingHeartRateBpm: null,
  sleepMinutes: null,
  sleepStages: null,
};

/** The sum of a column's numbers; null when it has none. */
function sum(values: ArrayLike<Value> | undefined): number | null {
  if (!values) return null;
  let total = 0;
  let any = false;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v === 'number') {
      total += v;
      any = true;
    }
  }
  return any ? total : null;
}

function first(values: ArrayLike<Value> | undefined): number | null {
  const v = values?.[0];
  return typeof v === 'number' ? v : null;
}

/**
 * Minutes holding at least one sample (UTC minutes are local minutes too: offsets are whole
 * minutes). The rows are in time order, so a new minute is one that differs from the last.
 */
function minutesWithSamples(times: ArrayLike<Value> | undefined): number | null {
  if (!times) return null;
  let minutes = 0;
  let last = Number.NaN;
  for (let i = 0; i < times.length; i++) {
    const t = times[i];
    if (typeof t !== 'number') continue;
    const minute = Math.floor(t / 60_000);
    if (minute !== last) minutes++;
    last = minute;
  }
  return minutes;
}

/**
 * The day's sleep by stage, summed over its sessions: a staged session adds its deep, light, REM
 * and awake minutes; a classic one (no stages) its minutes asleep and awake. Null without sessions.
 * Kept on the ledger row so the charts never open a night's files.
 */
function sleepStages(table: PartitionTable): SleepStages | null {
  if (table.rows === 0) return null;
  const stage = (name: string) => column(table, name);
  const [deep, light, rem, stagedAwake] = ['deep', 'light', 'rem', 'awake'].map((s) =>
    stage(`${s}_minutes`),
  );
  const asleep = stage('minutes_asleep');
  const awake = stage('minutes_awake');
  const total: SleepStages = { deep: 0, light: 0, rem: 0, awake: 0, asleep: 0 };
  const n = (values: ArrayLike<Value> | undefined, i: number) => {
    const v = values?.[i];
    return typeof v === 'number' ? v : null;
  };
  for (let i = 0; i < table.rows; i++) {
    const staged = [deep, light, rem].some((values) => n(values, i) !== null);
    if (staged) {
      total.deep += n(deep, i) ?? 0;
      total.light += n(light, i) ?? 0;
      total.rem += n(rem, i) ?? 0;
      total.awake += n(stagedAwake, i) ?? 0;
    } else {
      total.asleep += n(asleep, i) ?? 0;
      total.awake += n(awake, i) ?? 0;
    }
  }
  for (const key of Object.keys(total) as (keyof SleepStages)[])
    total[key] = Math.round(total[key]);
  return total;
}

export function summarize(table: PartitionTable): DaySummary {
  switch (table.dataType) {
    case 'activity_summary':
    case 'activity_steps_timeseries':
      return { ...NONE, steps: first(column(table, 'steps_count')) };
    case 'activity_steps_intraday':
      return { ...NONE, steps: sum(column(table, 'steps_count')) };
    case 'heartrate_intraday_1sec':
      return { ...NONE, wearMinutes: minutesWithSamples(column(table, 'timestamp_utc')) };
    case 'heartrate_intraday_1min': {
      const avg = column(table, 'heart_rate_avg_bpm');
      let minutes = 0;
      for (let i = 0; i < (avg?.length ?? 0); i++) if (typeof avg?.[i] === 'number') minutes++;
      return { ...NONE, wearMinutes: minutes };
    }
    case 'heartrate_summary':
    case 'heartrate_timeseries':
      return { ...NONE, restingHeartRateBpm: first(column(table, 'resting_heart_rate_bpm')) };
    case 'sleep_log':
      // Sessions are kept by the day they ended on, as Fitbit's dateOfSleep: naps included.
      return {
        ...NONE,
        sleepMinutes: sum(column(table, 'minutes_asleep')),
        sleepStages: sleepStages(table),
      };
    default:
      return NONE;
  }
}
