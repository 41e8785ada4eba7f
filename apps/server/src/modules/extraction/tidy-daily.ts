import type { Cell } from './tidy-columns.js';
import {
  arr,
  type CallPages,
  civilDate,
  type DayWindow,
  inWindow,
  type Json,
  minutesOf,
  num,
  obj,
  pagesOf,
  seconds,
} from './tidy-readers.js';

/**
 * The types whose rows need every page of the task at once: the profile (three calls make one
 * row) and the daily tables (several calls, one per measure, joined on the civil day).
 */

function pointsOf(pages: unknown[], field: string): Json[] {
  const out: Json[] = [];
  for (const page of pages) for (const point of arr(obj(page)[field])) out.push(obj(point));
  return out;
}

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

function byDate(
  participantId: string,
  window: DayWindow,
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

export function profileRows(participantId: string, calls: CallPages[]): Cell[][] {
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

export function activitySummaryRows(
  participantId: string,
  window: DayWindow,
  calls: CallPages[],
): Cell[][] {
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

/** A daily table of one measure: one roll-up call, one value field of it. */
export function dailySeriesRows(
  participantId: string,
  window: DayWindow,
  calls: CallPages[],
  call: { key: string; field: string; value: string },
): Cell[][] {
  const values = dailyValues(calls, call.key, call.field);
  return byDate(participantId, window, [values], (d) => [num(values.get(d)?.[call.value])]);
}

export function heartRateSummaryRows(
  participantId: string,
  window: DayWindow,
  calls: CallPages[],
): Cell[][] {
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

export function heartRateSeriesRows(
  participantId: string,
  window: DayWindow,
  calls: CallPages[],
): Cell[][] {
  const rhr = dailyListValues(calls, 'daily-resting-heart-rate', 'dailyRestingHeartRate');
  const hr = dailyValues(calls, 'heart-rate', 'heartRate');
  return byDate(participantId, window, [rhr, hr], (date) => [
    num(rhr.get(date)?.beatsPerMinute),
    num(hr.get(date)?.beatsPerMinuteAvg),
    num(hr.get(date)?.beatsPerMinuteMin),
    num(hr.get(date)?.beatsPerMinuteMax),
  ]);
}
