import { civilDayNumber, DAY_MS, MINUTE_MS, parseIsoDate } from './civil.js';
import {
  BMR_KCAL_PER_MINUTE,
  dayData,
  healthIdentity,
  restingHeartRate,
  sleepSession,
} from './data-generator.js';

export interface CivilDayTotals {
  /** Minutes whose civil start falls on the day: 1440, or 1380/1500 on DST days. */
  minutes: number;
  steps: number;
  distanceMm: number;
  floors: number;
  activeKcal: number;
  totalKcal: number;
  heartRateSamples: number;
  restingHeartRate: number;
  /** The main sleep that ended on this day. */
  sleep: { startTime: string; endTime: string; minutesInSleepPeriod: number };
}

/**
 * What the sandbox reports for one civil day of an account (a finished day: the sandbox hides data
 * after its clock's now). Server tests use it to compute expected values without calling the API.
 */
export function civilDayTotals(email: string, date: string): CivilDayTotals {
  const key = email.trim().toLowerCase();
  const day = parseIsoDate(date);
  if (day === null) throw new Error(`not a date: ${date}`);
  const totals = {
    minutes: 0,
    steps: 0,
    distanceMm: 0,
    floors: 0,
    activeKcal: 0,
    totalKcal: 0,
    heartRateSamples: 0,
  };
  for (let unit = day - 1; unit <= day + 1; unit++) {
    const data = dayData(key, unit);
    for (let m = 0; m < 1440; m++) {
      if (civilDayNumber(unit * DAY_MS + m * MINUTE_MS, data.offset[m] ?? 0) !== day) continue;
      totals.minutes += 1;
      totals.steps += data.steps[m] ?? 0;
      totals.distanceMm += data.distanceMm[m] ?? 0;
      totals.floors += data.floors[m] ?? 0;
      totals.activeKcal += data.activeKcal[m] ?? 0;
      totals.totalKcal += BMR_KCAL_PER_MINUTE + (data.activeKcal[m] ?? 0);
    }
    for (const s of data.hrSeconds) {
      const off = data.offset[Math.floor(s / 60)] ?? 0;
      if (civilDayNumber(unit * DAY_MS + s * 1000, off) === day) totals.heartRateSamples += 1;
    }
  }
  const sleep = sleepSession(key, day);
  return {
    ...totals,
    activeKcal: Math.round(totals.activeKcal * 100) / 100,
    totalKcal: Math.round(totals.totalKcal * 100) / 100,
    restingHeartRate: restingHeartRate(key, day),
    sleep: {
      startTime: new Date(sleep.start).toISOString().replace('.000Z', 'Z'),
      endTime: new Date(sleep.end).toISOString().replace('.000Z', 'Z'),
      minutesInSleepPeriod: (sleep.end - sleep.start) / MINUTE_MS,
    },
  };
}

export { healthIdentity };
