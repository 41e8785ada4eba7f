import {
  civilDateTime,
  civilMs,
  DAY_MS,
  dateOfDayNumber,
  duration,
  MINUTE_MS,
  rfc3339,
} from './civil.js';
import {
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
import type { TypeSpec } from './data-types.js';
import { PHONE_SOURCE } from './resource-common.js';

/** The points of each type, generated per day (or per sleep) from the simulated account. */

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
  /** The device and platform, when not the tracker's (resource-common DATA_SOURCE). */
  source?: Record<string, unknown>;
}

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

export const AZM: Record<number, [string, number]> = {
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

export const sedentary = (day: DayData) => runs((m) => (day.level[m] === 0 ? 1 : 0), 10);
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

/**
 * The phone's points of a UTC day (accounts with `+phone`, see resource-common hasPhone): steps
 * it counted while carried (every other active minute, most of the tracker's count, in intervals
 * starting 30 s into the minute) and a strap's heart rate every ten minutes at :30 s where the
 * tracker has no sample then. They overlap the tracker's: only a list of every source shows them,
 * never the roll-ups, which Google computes over the reconciled stream.
 */
export function phonePointsOfUnit(type: TypeSpec, email: string, unit: number): Point[] {
  if (!type.generated || (type.id !== 'steps' && type.id !== 'heart-rate')) return [];
  const day = dayData(email, unit);
  const dayStart = unit * DAY_MS;
  const out: Point[] = [];
  if (type.id === 'steps') {
    for (let m = 0; m < 1440; m += 2) {
      const steps = day.steps[m] ?? 0;
      if (!steps) continue;
      const start = dayStart + m * MINUTE_MS + 30_000;
      const end = start + MINUTE_MS;
      const offset = day.offset[m] ?? 0;
      out.push({
        key: start,
        at: end,
        members: {
          'interval.start_time': start,
          'interval.civil_start_time': civilMs(start, offset),
        },
        payload: {
          interval: interval(start, end, offset, utcOffsetAt(end)),
          count: String(Math.max(1, Math.round(steps * 0.8))),
        },
        recordingMethod: 'PASSIVELY_MEASURED',
        source: PHONE_SOURCE,
      });
    }
    return out;
  }
  const taken = new Set(day.hrSeconds);
  for (let m = 5; m < 1440; m += 10) {
    const second = m * 60 + 30;
    if (taken.has(second)) continue;
    const t = dayStart + second * 1000;
    const offset = day.offset[m] ?? 0;
    out.push({
      key: t,
      at: t,
      members: { 'sample_time.physical_time': t, 'sample_time.civil_time': civilMs(t, offset) },
      payload: {
        sampleTime: {
          physicalTime: rfc3339(t),
          utcOffset: duration(offset),
          civilTime: civilDateTime(civilMs(t, offset)),
        },
        beatsPerMinute: String(60 + (m % 40)),
      },
      recordingMethod: 'PASSIVELY_MEASURED',
      source: PHONE_SOURCE,
    });
  }
  return out;
}
