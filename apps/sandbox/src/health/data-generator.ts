import { createHash } from 'node:crypto';
import {
  civilDayNumber,
  DAY_MS,
  dayNumber,
  MINUTE_MS,
  parseInstant,
  parseIsoDate,
  zoneOffsetSeconds,
} from './civil.js';

/**
 * The generated history every simulated account shares, so tests elsewhere can target the awkward
 * days. Home is New York (DST); a trip to Berlin changes the zone mid-day.
 * - 2026-03-08: spring forward in New York, a 23-hour civil day.
 * - 2026-11-01: fall back in New York, a 25-hour civil day (-14400s → -18000s at 06:00Z).
 * - 2026-11-10 14:00Z: flies to Berlin (-18000s → +3600s); 2026-11-15 09:00Z: back to New York.
 *   So the civil days 2026-11-10 and 2026-11-15 each see two offsets.
 * Data starts on 2024-01-01 (the membership start) and never goes past the sandbox clock's now.
 */
export const HEALTH_TIMELINE = {
  homeTimeZone: 'America/New_York',
  springForwardDate: '2026-03-08',
  fallBackDate: '2026-11-01',
  travelTimeZone: 'Europe/Berlin',
  travelStart: '2026-11-10T14:00:00Z',
  travelEnd: '2026-11-15T09:00:00Z',
  dataStartDate: '2024-01-01',
} as const;

const TRAVEL_START = parseInstant(HEALTH_TIMELINE.travelStart) ?? 0;
const TRAVEL_END = parseInstant(HEALTH_TIMELINE.travelEnd) ?? 0;
export const DATA_START_DAY = parseIsoDate(HEALTH_TIMELINE.dataStartDate) ?? 0;

/** The zone the simulated person is in at an instant. */
export function timeZoneAt(ms: number): string {
  return ms >= TRAVEL_START && ms < TRAVEL_END
    ? HEALTH_TIMELINE.travelTimeZone
    : HEALTH_TIMELINE.homeTimeZone;
}

/** The UTC offset (seconds) every data point at this instant carries. */
export function utcOffsetAt(ms: number): number {
  return zoneOffsetSeconds(timeZoneAt(ms), ms);
}

/** Deterministic generator (mulberry32), seeded from text: no Math.random anywhere in the data. */
export function rng(seedText: string): () => number {
  // The state lives in a typed array: a 32-bit number kept in a closure variable is boxed on
  // each call (a day's generation draws ~60,000 numbers).
  const state = Int32Array.of(createHash('sha256').update(seedText).digest().readInt32LE(0));
  return () => {
    state[0] = (state[0] as number) + 0x6d2b79f5;
    const a = state[0] as number;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The wake day a sleep id carries (see sleepSession), or null for a malformed id. */
export function wakeDayOfSleepId(id: string): number | null {
  return /^8\d{18}$/.test(id) ? Number(id.slice(1, 7)) : null;
}

function digits(text: string, length: number, first = '1'): string {
  const digest = createHash('sha256').update(text).digest();
  let out = first;
  for (let i = 0; out.length < length; i++) out += ((digest[i % 32] ?? 0) % 10).toString();
  return out;
}

/** Stable ids of a simulated account, derived from its e-mail. */
export function healthIdentity(email: string): { healthUserId: string; legacyUserId: string } {
  const key = email.trim().toLowerCase();
  const digest = createHash('sha256').update(`legacy:${key}`).digest();
  const alphabet = '0123456789ABCDEFGHJKLMNPQRSTVWXYZ';
  let legacy = '';
  for (let i = 0; i < 6; i++) legacy += alphabet[(digest[i] ?? 0) % alphabet.length];
  return { healthUserId: digits(`health:${key}`, 19), legacyUserId: legacy };
}

/** Accounts whose e-mail starts with "nohealth" have no Google Health data profile. */
export function hasHealthProfile(email: string): boolean {
  return !email.trim().toLowerCase().startsWith('nohealth');
}

export const AGE = 41;
export const MAX_HEART_RATE = 220 - AGE;
export const WALK_STRIDE_MM = 716;
export const RUN_STRIDE_MM = 1124;
/** Basal energy per minute (about 1,650 kcal a day). */
export const BMR_KCAL_PER_MINUTE = 1.15;

/** Minute activity levels (index = value in DayData.level). */
export const LEVELS = ['SEDENTARY', 'LIGHT', 'MODERATE', 'VIGOROUS', 'ASLEEP'] as const;
/** Heart-rate zones (index = value in DayData.zone; 0 = below the light zone). */
export const ZONES = ['NONE', 'LIGHT', 'MODERATE', 'VIGOROUS', 'PEAK'] as const;

/** Resting heart rate of a civil day. */
export function restingHeartRate(email: string, localDay: number): number {
  return 54 + Math.floor(rng(`rhr:${email}:${localDay}`)() * 10);
}

/** Karvonen thresholds of a civil day: [min of LIGHT, MODERATE, VIGOROUS, PEAK]. */
export function zoneMinimums(rhr: number): number[] {
  const reserve = MAX_HEART_RATE - rhr;
  return [0.3, 0.5, 0.7, 0.85].map((f) => Math.round(rhr + f * reserve));
}

export function zoneOf(bpm: number, minimums: number[]): number {
  let zone = 0;
  minimums.forEach((min, i) => {
    if (bpm >= min) zone = i + 1;
  });
  return zone;
}

export interface SleepStage {
  start: number;
  end: number;
  type: 'AWAKE' | 'LIGHT' | 'DEEP' | 'REM';
}

export interface SleepSession {
  /** Civil day (number) of waking up: one main sleep per night. */
  wakeDay: number;
  id: string;
  start: number;
  end: number;
  startOffset: number;
  endOffset: number;
  stages: SleepStage[];
}

/** Local wall time (as UTC ms) → instant, using the offset in force then. */
function fromLocal(localMs: number): number {
  let utc = localMs - utcOffsetAt(localMs) * 1000;
  utc = localMs - utcOffsetAt(utc) * 1000;
  return utc;
}

/** The main sleep ending on a civil day: in bed ~22:30–00:00, 6.5–8.5 hours, stages in cycles. */
export function sleepSession(email: string, wakeDay: number): SleepSession {
  const random = rng(`sleep:${email}:${wakeDay}`);
  const bedLocal = (wakeDay - 1) * DAY_MS + (22 * 60 + 30 + Math.floor(random() * 90)) * MINUTE_MS;
  const start = fromLocal(bedLocal);
  const end = start + (390 + Math.floor(random() * 120)) * MINUTE_MS;
  const stages: SleepStage[] = [];
  let t = start;
  const push = (type: SleepStage['type'], minutes: number) => {
    const stageEnd = Math.min(end, t + minutes * MINUTE_MS);
    if (stageEnd > t) stages.push({ start: t, end: stageEnd, type });
    t = stageEnd;
  };
  push('AWAKE', 3 + Math.floor(random() * 12));
  for (let cycle = 0; t < end; cycle++) {
    push('LIGHT', 25 + Math.floor(random() * 25));
    push('DEEP', Math.max(5, 25 - cycle * 5 + Math.floor(random() * 10)));
    push('LIGHT', 8 + Math.floor(random() * 10));
    push('REM', 8 + cycle * 4 + Math.floor(random() * 10));
    if (random() < 0.4) push('AWAKE', 1 + Math.floor(random() * 4));
  }
  return {
    wakeDay,
    // Long-integer ids like Google's; the wake day is readable from them so `get` can find the night.
    id: `8${String(wakeDay).padStart(6, '0')}${digits(`sleep-id:${email}:${wakeDay}`, 12, '')}`,
    start,
    end,
    startOffset: utcOffsetAt(start),
    endOffset: utcOffsetAt(end),
    stages,
  };
}

/** Everything generated for one UTC day, minute by minute, plus the raw heart-rate samples. */
export interface DayData {
  utcDay: number;
  /** UTC offset (s) at the start of each minute. */
  offset: Int32Array;
  steps: Uint16Array;
  distanceMm: Uint32Array;
  /** kcal above basal, two decimals. */
  activeKcal: Float64Array;
  floors: Uint8Array;
  level: Uint8Array;
  /** Heart-rate zone of the minute's average, see ZONES. */
  zone: Uint8Array;
  /** Sum and count of the minute's samples (for rollups). */
  hrSeconds: Int32Array;
  hrBpm: Uint8Array;
}

const cache = new Map<string, DayData>();
/**
 * About 180 KB a day (mostly the ~29,000 heart-rate samples): room for 20 participants × a month,
 * so a benchmark run (20 × 7 days and their neighbours, asked for again by every page) never
 * regenerates a day.
 */
let cacheDays = 640;

/**
 * How many generated account-days to keep (default 640). A benchmark of hundreds of people over
 * months raises it, so that the sandbox does not regenerate a day for each call (Google's work is
 * not what such a run measures). Memory: about 180 KB a day.
 */
export function setGeneratedDaysCache(days: number): void {
  if (!Number.isInteger(days) || days < 1)
    throw new RangeError('cache days must be a positive integer');
  cacheDays = days;
  while (cache.size > cacheDays) {
    const oldest = cache.keys().next().value;
    if (oldest === undefined) break;
    cache.delete(oldest);
  }
}

/** The day's data for an account: generated on first use, then kept in a small LRU cache. */
export function dayData(email: string, utcDay: number): DayData {
  const key = `${email}:${utcDay}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const data = generateDay(email, utcDay);
  cache.set(key, data);
  if (cache.size > cacheDays) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  return data;
}

/** How many account-days are generated and kept now, and how many may be. */
export function generatedDays(): { kept: number; limit: number } {
  return { kept: cache.size, limit: cacheDays };
}

/** Forgets the generated days (tests of determinism regenerate from scratch). */
export function clearGeneratedDays(): void {
  cache.clear();
}

/**
 * A day's raw samples are written here, then copied out at their count: samples are at least a
 * second apart, so a day has at most 86,400 (growing plain arrays sample by sample cost six
 * times the whole generation).
 */
const sampleSeconds = new Int32Array(86_400);
const sampleBpm = new Uint8Array(86_400);

function generateDay(email: string, utcDay: number): DayData {
  const random = rng(`day:${email}:${utcDay}`);
  const dayStart = utcDay * DAY_MS;
  const offset = new Int32Array(1440);
  const steps = new Uint16Array(1440);
  const distanceMm = new Uint32Array(1440);
  const activeKcal = new Float64Array(1440);
  const floors = new Uint8Array(1440);
  const level = new Uint8Array(1440);
  const zone = new Uint8Array(1440);
  let samples = 0;

  // Sleep sessions that can touch this UTC day: the nights ending on the neighbouring civil days.
  const firstLocal = civilDayNumber(dayStart, -14 * 3600);
  const sessions = [];
  for (let d = firstLocal; d <= firstLocal + 3; d++) sessions.push(sleepSession(email, d));
  // A workout on most local days, around 18:00–19:00 local.
  const workouts = new Map<number, { from: number; to: number }>();
  // Resting heart rate and zones per local day (a SHA-256 each), not per minute.
  const zoneLimits = new Map<number, { rhr: number; minimums: number[] }>();

  let sampleAt = Math.floor(random() * 3);
  for (let m = 0; m < 1440; m++) {
    const ms = dayStart + m * MINUTE_MS;
    const off = utcOffsetAt(ms);
    offset[m] = off;
    const localDay = civilDayNumber(ms, off);
    const localMinute = Math.floor(((ms + off * 1000) % DAY_MS) / MINUTE_MS);
    let limits = zoneLimits.get(localDay);
    if (!limits) {
      const rhr = restingHeartRate(email, localDay);
      limits = { rhr, minimums: zoneMinimums(rhr) };
      zoneLimits.set(localDay, limits);
    }
    const { rhr, minimums } = limits;
    let workout = workouts.get(localDay);
    if (!workout) {
      const w = rng(`workout:${email}:${localDay}`);
      const on = w() < 0.65;
      const from = 18 * 60 + Math.floor(w() * 60);
      workout = on ? { from, to: from + 25 + Math.floor(w() * 25) } : { from: -1, to: -1 };
      workouts.set(localDay, workout);
    }
    const asleep = sessions.some((s) => ms >= s.start && ms < s.end);
    const hour = localMinute / 60;
    let target: number;
    if (asleep) {
      level[m] = 4;
      target = rhr - 3 + random() * 6;
    } else if (localMinute >= workout.from && localMinute < workout.to) {
      const cadence = 150 + Math.floor(random() * 20);
      steps[m] = cadence;
      distanceMm[m] = cadence * RUN_STRIDE_MM;
      activeKcal[m] = Math.round(cadence * 9) / 100;
      level[m] = 3;
      target = 138 + random() * 30;
    } else {
      const busy =
        (hour >= 7 && hour < 9) || (hour >= 12 && hour < 13.5) || (hour >= 17 && hour < 19.5);
      const walkChance = busy ? 0.4 : hour >= 6 && hour < 22 ? 0.14 : 0.03;
      if (random() < walkChance) {
        const count = 20 + Math.floor(random() * 100);
        steps[m] = count;
        distanceMm[m] = count * WALK_STRIDE_MM;
        activeKcal[m] = Math.round(count * 4) / 100;
        level[m] = count >= 100 ? 2 : 1;
        if (random() < 0.06) floors[m] = 1;
        target = rhr + 20 + count / 4 + random() * 8;
      } else {
        level[m] = 0;
        target = rhr + 10 + random() * 12;
      }
    }
    // Irregular raw samples 1–5 s apart, as the device records them.
    let sum = 0;
    let n = 0;
    while (sampleAt < (m + 1) * 60) {
      const bpm = Math.max(40, Math.min(MAX_HEART_RATE, Math.round(target + (random() - 0.5) * 4)));
      sampleSeconds[samples] = sampleAt;
      sampleBpm[samples] = bpm;
      samples += 1;
      sum += bpm;
      n += 1;
      sampleAt += 1 + Math.floor(random() * 5);
    }
    zone[m] = n ? zoneOf(sum / n, minimums) : 0;
  }
  return {
    utcDay,
    offset,
    steps,
    distanceMm,
    activeKcal,
    floors,
    level,
    zone,
    hrSeconds: sampleSeconds.slice(0, samples),
    hrBpm: sampleBpm.slice(0, samples),
  };
}

/** Civil day number of a "YYYY-MM-DD" text; throws on a bad date (test helper). */
export function civilDay(text: string): number {
  const day = parseIsoDate(text);
  if (day === null) throw new Error(`not a date: ${text}`);
  return day;
}

export { dayNumber };
