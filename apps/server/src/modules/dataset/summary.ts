import { column, type PartitionTable, type Value } from './columns.js';

/** The day's figures the dashboards show without opening files; each type gives its own. */
export interface DaySummary {
  steps: number | null;
  wearMinutes: number | null;
  restingHeartRateBpm: number | null;
  sleepMinutes: number | null;
}

const NONE: DaySummary = {
  steps: null,
  wearMinutes: null,
  restingHeartRateBpm: null,
  sleepMinutes: null,
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
      return { ...NONE, sleepMinutes: sum(column(table, 'minutes_asleep')) };
    default:
      return NONE;
  }
}
