import {
  civilDateTime,
  civilDayNumber,
  civilMs,
  DAY_MS,
  dateOfDayNumber,
  duration,
  MINUTE_MS,
  rfc3339,
} from './civil.js';
import {
  BMR_KCAL_PER_MINUTE,
  type DayData,
  dayData,
  LEVELS,
  restingHeartRate,
  type SleepSession,
  sleepSession,
  utcOffsetAt,
  ZONES,
  zoneMinimums,
} from './data-generator.js';

/** How a type's points are timed, which decides its filter members. */
export type RecordKind = 'interval' | 'sample' | 'daily' | 'session' | 'sleep' | 'aggregate';

/** Scope areas. */
export type ScopeArea =
  | 'activity_and_fitness'
  | 'health_metrics_and_measurements'
  | 'sleep'
  | 'nutrition';

export interface TypeSpec {
  /** kebab-case, as in URL paths */
  id: string;
  kind: RecordKind;
  area: ScopeArea;
  /** `list`/`reconcile` offered */
  list: boolean;
  /** `rollUp`/`dailyRollUp` offered */
  rollUp: boolean;
  /** 14 or 90 days for the rollups */
  capDays: number;
  /** false: a known type the simulated people have no data for (answers are empty) */
  generated: boolean;
}

const AF = 'activity_and_fitness';
const HM = 'health_metrics_and_measurements';

function spec(
  id: string,
  kind: RecordKind,
  area: ScopeArea,
  list: boolean,
  rollUp: boolean,
  generated: boolean,
  capDays = 90,
): TypeSpec {
  return { id, kind, area, list, rollUp, capDays, generated };
}

export const DATA_TYPES: readonly TypeSpec[] = [
  spec('steps', 'interval', AF, true, true, true),
  spec('distance', 'interval', AF, true, true, true),
  spec('active-energy-burned', 'interval', AF, true, true, true),
  spec('floors', 'interval', AF, false, true, true),
  spec('altitude', 'interval', AF, true, true, true),
  spec('active-minutes', 'interval', AF, true, true, true, 14),
  spec('active-zone-minutes', 'interval', AF, true, true, true),
  spec('sedentary-period', 'interval', AF, true, true, true),
  spec('time-in-heart-rate-zone', 'interval', AF, true, true, true),
  spec('total-calories', 'aggregate', AF, false, true, true, 14),
  spec('calories-in-heart-rate-zone', 'aggregate', AF, false, true, true, 14),
  spec('heart-rate', 'sample', HM, true, true, true, 14),
  spec('daily-resting-heart-rate', 'daily', HM, true, true, true),
  spec('daily-heart-rate-zones', 'daily', HM, true, false, true),
  spec('sleep', 'sleep', 'sleep', true, false, true),
  // Known to the API, never generated here: lists come back empty, rollups without buckets.
  spec('activity-level', 'interval', AF, true, false, false),
  spec('swim-lengths-data', 'interval', AF, true, true, false),
  spec('exercise', 'session', AF, true, false, false),
  spec('vo2-max', 'sample', AF, true, false, false),
  spec('run-vo2-max', 'sample', AF, true, true, false),
  spec('daily-vo2-max', 'daily', AF, true, false, false),
  spec('heart-rate-variability', 'sample', HM, true, false, false),
  spec('daily-heart-rate-variability', 'daily', HM, true, false, false),
  spec('oxygen-saturation', 'sample', HM, true, false, false),
  spec('daily-oxygen-saturation', 'daily', HM, true, false, false),
  spec('daily-respiratory-rate', 'daily', HM, true, false, false),
  spec('respiratory-rate-sleep-summary', 'sample', HM, true, false, false),
  spec('daily-sleep-temperature-derivations', 'daily', HM, true, false, false),
  spec('core-body-temperature', 'sample', HM, true, true, false),
  spec('weight', 'sample', HM, true, true, false),
  spec('height', 'sample', HM, true, false, false),
  spec('body-fat', 'sample', HM, true, true, false),
  spec('blood-glucose', 'sample', HM, true, true, false),
  spec('nutrition-log', 'session', 'nutrition', true, true, false),
  spec('hydration-log', 'session', 'nutrition', true, true, false),
];

export function findType(id: string): TypeSpec | undefined {
  return DATA_TYPES.find((t) => t.id === id);
}

export const camel = (id: string) => id.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
export const snake = (id: string) => id.replace(/-/g, '_');

/** One data point, with the values its filter members compare against. */
export interface Point {
  /** Newest-first sort key (ms, or day number for daily types); unique within a type. */
  key: number;
  /** Physical instant (start, sample time or sleep end) used to hide the future. */
  at: number;
  /** member suffix (e.g. `interval.start_time`) → comparable number (ms or local ms). */
  members: Record<string, number>;
  name?: string;
  payload: Record<string, unknown>;
  recordingMethod: 'PASSIVELY_MEASURED' | 'DERIVED';
}

const round2 = (v: number) => Math.round(v * 100) / 100;

function interval(start: number, end: number, startOffset: number, endOffset: number) {
  return {
    startTime: rfc3339(start),
    startUtcOffset: duration(startOffset),
    endTime: rfc3339(end),
    endUtcOffset: duration(endOffset),
    civilStartTime: civilDateTime(civilMs(start, startOffset)),
    civilEndTime: civilDateTime(civilMs(end, endOffset)),
  };
}

function endOffsetOf(day: DayData, m: number): number {
  return m + 1 < 1440 ? (day.offset[m + 1] ?? 0) : utcOffsetAt((day.utcDay + 1) * DAY_MS);
}

function intervalPoint(
  day: DayData,
  from: number,
  to: number,
  value: Record<string, unknown>,
): Point {
  const start = day.utcDay * DAY_MS + from * MINUTE_MS;
  const end = day.utcDay * DAY_MS + to * MINUTE_MS;
  const startOffset = day.offset[from] ?? 0;
  return {
    key: start,
    at: end,
    members: {
      'interval.start_time': start,
      'interval.civil_start_time': civilMs(start, startOffset),
    },
    payload: { interval: interval(start, end, startOffset, endOffsetOf(day, to - 1)), ...value },
    recordingMethod: 'PASSIVELY_MEASURED',
  };
}

const AZM: Record<number, [string, number]> = {
  2: ['FAT_BURN', 1],
  3: ['CARDIO', 2],
  4: ['PEAK', 2],
};

/** Per-minute values of a minute type; null = no point for that minute. */
function minuteValue(type: string, day: DayData, m: number): Record<string, unknown> | null {
  switch (type) {
    case 'steps':
      return day.steps[m] ? { count: String(day.steps[m]) } : null;
    case 'distance':
      return day.distanceMm[m] ? { millimeters: String(day.distanceMm[m]) } : null;
    case 'active-energy-burned':
      return day.activeKcal[m] ? { kcal: day.activeKcal[m] } : null;
    case 'floors':
      return day.floors[m] ? { count: String(day.floors[m]) } : null;
    case 'altitude':
      return day.floors[m] ? { gainMillimeters: String((day.floors[m] ?? 0) * 3000) } : null;
    case 'active-minutes': {
      const level = day.level[m] ?? 0;
      return level >= 1 && level <= 3
        ? { activeMinutesByActivityLevel: [{ activityLevel: LEVELS[level], activeMinutes: '1' }] }
        : null;
    }
    case 'active-zone-minutes': {
      const azm = AZM[day.zone[m] ?? 0];
      return azm ? { heartRateZone: azm[0], activeZoneMinutes: String(azm[1]) } : null;
    }
    default:
      return null;
  }
}

/** Runs of equal minutes within a UTC day (sedentary periods, time in a heart-rate zone). */
function runs(valueAt: (m: number) => number, minLength: number) {
  const out: { from: number; to: number; value: number }[] = [];
  let from = 0;
  for (let m = 1; m <= 1440; m++) {
    const prev = valueAt(m - 1);
    if (m === 1440 || valueAt(m) !== prev) {
      if (prev > 0 && m - from >= minLength) out.push({ from, to: m, value: prev });
      from = m;
    }
  }
  return out;
}

const sedentary = (day: DayData) => runs((m) => (day.level[m] === 0 ? 1 : 0), 10);
const zoneRuns = (day: DayData) => runs((m) => day.zone[m] ?? 0, 1);

function sleepPoint(healthUserId: string, s: SleepSession): Point {
  const stagesSummary = new Map<string, { minutes: number; count: number }>();
  for (const stage of s.stages) {
    const entry = stagesSummary.get(stage.type) ?? { minutes: 0, count: 0 };
    entry.minutes += (stage.end - stage.start) / MINUTE_MS;
    entry.count += 1;
    stagesSummary.set(stage.type, entry);
  }
  const total = (s.end - s.start) / MINUTE_MS;
  const awake = stagesSummary.get('AWAKE')?.minutes ?? 0;
  const first = s.stages[0];
  const toFallAsleep = first?.type === 'AWAKE' ? (first.end - first.start) / MINUTE_MS : 0;
  const processedAt = rfc3339(s.end + 10 * MINUTE_MS);
  const offsetAt = (ms: number) => utcOffsetAt(ms);
  return {
    key: s.end,
    at: s.end,
    members: {
      'interval.end_time': s.end,
      'interval.civil_end_time': civilMs(s.end, s.endOffset),
    },
    name: `users/${healthUserId}/dataTypes/sleep/dataPoints/${s.id}`,
    payload: {
      interval: {
        startTime: rfc3339(s.start),
        startUtcOffset: duration(s.startOffset),
        endTime: rfc3339(s.end),
        endUtcOffset: duration(s.endOffset),
      },
      type: 'STAGES',
      stages: s.stages.map((stage) => ({
        startTime: rfc3339(stage.start),
        startUtcOffset: duration(offsetAt(stage.start)),
        endTime: rfc3339(stage.end),
        endUtcOffset: duration(offsetAt(stage.end)),
        type: stage.type,
        createTime: processedAt,
        updateTime: processedAt,
      })),
      metadata: { stagesStatus: 'SUCCEEDED', processed: true, mainSleep: true },
      summary: {
        minutesInSleepPeriod: String(total),
        ...(toFallAsleep ? { minutesToFallAsleep: String(toFallAsleep) } : {}),
        minutesAsleep: String(total - awake),
        ...(awake ? { minutesAwake: String(awake) } : {}),
        stagesSummary: ['AWAKE', 'LIGHT', 'DEEP', 'REM']
          .filter((t) => stagesSummary.has(t))
          .map((t) => ({
            type: t,
            minutes: String(stagesSummary.get(t)?.minutes ?? 0),
            count: String(stagesSummary.get(t)?.count ?? 0),
          })),
      },
      createTime: processedAt,
      updateTime: processedAt,
    },
    recordingMethod: 'DERIVED',
  };
}

function dailyPoint(type: string, email: string, localDay: number): Point | null {
  const date = dateOfDayNumber(localDay);
  const rhr = restingHeartRate(email, localDay);
  const base = {
    key: localDay,
    at: localDay * DAY_MS,
    members: { date: localDay * DAY_MS },
    recordingMethod: 'DERIVED' as const,
  };
  if (type === 'daily-resting-heart-rate') {
    return {
      ...base,
      payload: {
        date,
        beatsPerMinute: String(rhr),
        dailyRestingHeartRateMetadata: { calculationMethod: 'WITH_SLEEP' },
      },
    };
  }
  if (type === 'daily-heart-rate-zones') {
    const mins = zoneMinimums(rhr);
    return {
      ...base,
      payload: {
        date,
        heartRateZones: ['LIGHT', 'MODERATE', 'VIGOROUS', 'PEAK'].map((zone, i) => ({
          heartRateZoneType: zone,
          minBeatsPerMinute: String(mins[i]),
          maxBeatsPerMinute: String(i < 3 ? (mins[i + 1] ?? 0) - 1 : 220 - 41),
        })),
      },
    };
  }
  return null;
}

/**
 * The points of one generation unit: a UTC day for interval and sample types, a civil day for
 * daily types, the civil day of waking up for sleep. Unsorted; callers filter and order.
 */
export function pointsOfUnit(
  type: TypeSpec,
  email: string,
  healthUserId: string,
  unit: number,
): Point[] {
  if (!type.generated) return [];
  if (type.kind === 'daily') {
    const point = dailyPoint(type.id, email, unit);
    return point ? [point] : [];
  }
  if (type.kind === 'sleep') return [sleepPoint(healthUserId, sleepSession(email, unit))];
  const day = dayData(email, unit);
  const out: Point[] = [];
  if (type.id === 'heart-rate') {
    const dayStart = unit * DAY_MS;
    for (let i = 0; i < day.hrSeconds.length; i++) {
      const t = dayStart + (day.hrSeconds[i] ?? 0) * 1000;
      const off = day.offset[Math.floor((day.hrSeconds[i] ?? 0) / 60)] ?? 0;
      out.push({
        key: t,
        at: t,
        members: { 'sample_time.physical_time': t, 'sample_time.civil_time': civilMs(t, off) },
        payload: {
          sampleTime: {
            physicalTime: rfc3339(t),
            utcOffset: duration(off),
            civilTime: civilDateTime(civilMs(t, off)),
          },
          beatsPerMinute: String(day.hrBpm[i]),
        },
        recordingMethod: 'PASSIVELY_MEASURED',
      });
    }
    return out;
  }
  if (type.id === 'sedentary-period') {
    return sedentary(day).map((r) => intervalPoint(day, r.from, r.to, {}));
  }
  if (type.id === 'time-in-heart-rate-zone') {
    return zoneRuns(day).map((r) =>
      intervalPoint(day, r.from, r.to, { heartRateZoneType: ZONES[r.value] }),
    );
  }
  for (let m = 0; m < 1440; m++) {
    const value = minuteValue(type.id, day, m);
    if (value) out.push(intervalPoint(day, m, m + 1, value));
  }
  return out;
}

// ---- Rollups ---------------------------------------------------------------------------------

/** Sums over the atoms (minutes or samples) of one bucket. */
export class Bucket {
  n = 0;
  steps = 0;
  mm = 0;
  floors = 0;
  activeKcal = 0;
  totalKcal = 0;
  byLevel = [0, 0, 0, 0];
  azm = [0, 0, 0];
  sedentaryMinutes = 0;
  zoneMinutes = [0, 0, 0, 0, 0];
  zoneKcal = [0, 0, 0, 0, 0];
  hrSum = 0;
  hrMin = Number.POSITIVE_INFINITY;
  hrMax = 0;
  rhrMin = Number.POSITIVE_INFINITY;
  rhrMax = 0;
}

/** Adds one minute; returns whether the minute holds data for the type. */
export function addMinute(type: string, b: Bucket, day: DayData, m: number, sedentaryRun: boolean) {
  const total = BMR_KCAL_PER_MINUTE + (day.activeKcal[m] ?? 0);
  const zone = day.zone[m] ?? 0;
  switch (type) {
    case 'steps':
      b.steps += day.steps[m] ?? 0;
      return (day.steps[m] ?? 0) > 0;
    case 'distance':
      b.mm += day.distanceMm[m] ?? 0;
      return (day.distanceMm[m] ?? 0) > 0;
    case 'floors':
    case 'altitude':
      b.floors += day.floors[m] ?? 0;
      return (day.floors[m] ?? 0) > 0;
    case 'active-energy-burned':
      b.activeKcal += day.activeKcal[m] ?? 0;
      return (day.activeKcal[m] ?? 0) > 0;
    case 'total-calories':
      b.totalKcal += total;
      return true;
    case 'active-minutes': {
      const level = day.level[m] ?? 0;
      if (level < 1 || level > 3) return false;
      b.byLevel[level] = (b.byLevel[level] ?? 0) + 1;
      return true;
    }
    case 'active-zone-minutes': {
      const azm = AZM[zone];
      if (!azm) return false;
      const i = zone - 2;
      b.azm[i] = (b.azm[i] ?? 0) + azm[1];
      return true;
    }
    case 'sedentary-period':
      if (sedentaryRun) b.sedentaryMinutes += 1;
      return sedentaryRun;
    case 'time-in-heart-rate-zone':
      if (!zone) return false;
      b.zoneMinutes[zone] = (b.zoneMinutes[zone] ?? 0) + 1;
      return true;
    case 'calories-in-heart-rate-zone':
      if (!zone) return false;
      b.zoneKcal[zone] = (b.zoneKcal[zone] ?? 0) + total;
      return true;
    default:
      return false;
  }
}

/** Minute flags for sedentary-period rollups: minutes inside a sedentary period of ≥10 minutes. */
export function sedentaryFlags(day: DayData): Uint8Array {
  const flags = new Uint8Array(1440);
  for (const r of sedentary(day)) flags.fill(1, r.from, r.to);
  return flags;
}

/** The rollup value under the type's camelCase key. */
export function rollupValue(type: string, b: Bucket): Record<string, unknown> {
  const zones = (values: number[], field: string, format: (v: number) => unknown) =>
    values
      .map((v, i) => ({ heartRateZone: ZONES[i], [field]: format(v), v }))
      .filter((z, i) => i > 0 && z.v > 0)
      .map(({ v: _v, ...rest }) => rest);
  switch (type) {
    case 'steps':
      return { countSum: String(b.steps) };
    case 'distance':
      return { millimetersSum: String(b.mm) };
    case 'floors':
      return { countSum: String(b.floors) };
    case 'altitude':
      return { gainMillimetersSum: String(b.floors * 3000) };
    case 'active-energy-burned':
      return { kcalSum: round2(b.activeKcal) };
    case 'total-calories':
      return { kcalSum: round2(b.totalKcal) };
    case 'active-minutes':
      return {
        activeMinutesRollupByActivityLevel: [1, 2, 3]
          .filter((l) => (b.byLevel[l] ?? 0) > 0)
          .map((l) => ({ activityLevel: LEVELS[l], activeMinutesSum: String(b.byLevel[l]) })),
      };
    case 'active-zone-minutes': {
      const [fat = 0, cardio = 0, peak = 0] = b.azm;
      return {
        ...(fat ? { sumInFatBurnHeartZone: String(fat) } : {}),
        ...(cardio ? { sumInCardioHeartZone: String(cardio) } : {}),
        ...(peak ? { sumInPeakHeartZone: String(peak) } : {}),
      };
    }
    case 'sedentary-period':
      return { durationSum: duration(b.sedentaryMinutes * 60) };
    case 'time-in-heart-rate-zone':
      return { timeInHeartRateZones: zones(b.zoneMinutes, 'duration', (v) => duration(v * 60)) };
    case 'calories-in-heart-rate-zone':
      return { caloriesInHeartRateZones: zones(b.zoneKcal, 'kcal', round2) };
    case 'heart-rate':
      return {
        beatsPerMinuteAvg: round2(b.hrSum / b.n),
        beatsPerMinuteMin: b.hrMin,
        beatsPerMinuteMax: b.hrMax,
      };
    case 'daily-resting-heart-rate':
      return { beatsPerMinuteMin: b.rhrMin, beatsPerMinuteMax: b.rhrMax };
    default:
      return {};
  }
}

/** The JSON key of a rollup value (daily-resting-heart-rate answers as a personal range). */
export function rollupKey(type: string): string {
  return type === 'daily-resting-heart-rate' ? 'restingHeartRatePersonalRange' : camel(type);
}

export { civilDayNumber };
