import { duration } from './civil.js';
import { BMR_KCAL_PER_MINUTE, type DayData, LEVELS, ZONES } from './data-generator.js';
import { AZM, sedentary } from './data-points.js';
import { camel } from './data-types.js';

const round2 = (v: number) => Math.round(v * 100) / 100;

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
