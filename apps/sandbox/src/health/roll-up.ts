import {
  type CivilDate,
  civilDateTime,
  civilDayNumber,
  civilMs,
  DAY_MS,
  dayNumber,
  MINUTE_MS,
  parseDuration,
  parseInstant,
  rfc3339,
} from './civil.js';
import { DATA_START_DAY, dayData, restingHeartRate, utcOffsetAt } from './data-generator.js';
import type { TypeSpec } from './data-types.js';
import { type ApiError, errorInfo, invalidArgument } from './errors.js';
import {
  type Caller,
  checkFields,
  familyOf,
  objectBody,
  pageSizeOf,
  pageToken,
  queryHash,
  readPageToken,
} from './resource-common.js';
import { addMinute, Bucket, rollupKey, rollupValue, sedentaryFlags } from './rollups.js';

/**
 * Walks the atoms (minutes, or heart-rate samples) whose start lies in [from, to) physical time and
 * not after now, handing each to `place` with its instant and local wall time.
 */
function eachAtom(
  caller: Caller,
  type: TypeSpec,
  from: number,
  to: number,
  place: (at: number, local: number) => Bucket | null,
): void {
  const end = Math.min(to, caller.now);
  const firstDay = Math.max(Math.floor(from / DAY_MS), DATA_START_DAY);
  for (let unit = firstDay; unit * DAY_MS < end; unit++) {
    const day = dayData(caller.email, unit);
    const dayStart = unit * DAY_MS;
    if (type.id === 'heart-rate') {
      for (let i = 0; i < day.hrSeconds.length; i++) {
        const s = day.hrSeconds[i] ?? 0;
        const at = dayStart + s * 1000;
        if (at < from || at >= end) continue;
        const bucket = place(at, civilMs(at, day.offset[Math.floor(s / 60)] ?? 0));
        if (!bucket) continue;
        const bpm = day.hrBpm[i] ?? 0;
        bucket.n += 1;
        bucket.hrSum += bpm;
        bucket.hrMin = Math.min(bucket.hrMin, bpm);
        bucket.hrMax = Math.max(bucket.hrMax, bpm);
      }
      continue;
    }
    const flags = type.id === 'sedentary-period' ? sedentaryFlags(day) : null;
    for (let m = 0; m < 1440; m++) {
      const at = dayStart + m * MINUTE_MS;
      if (at < from || at + MINUTE_MS > end) continue;
      const bucket = place(at, civilMs(at, day.offset[m] ?? 0));
      if (!bucket) continue;
      if (addMinute(type.id, bucket, day, m, flags?.[m] === 1)) bucket.n += 1;
    }
  }
}

function capError(type: TypeSpec): ApiError {
  return invalidArgument(
    `The time range exceeds the maximum of ${type.capDays} days for data type ${type.id}.`,
  );
}

function pageOut(
  buckets: Map<number, Bucket>,
  size: number,
  cursor: number | null,
  hash: string,
  render: (index: number, bucket: Bucket) => Record<string, unknown>,
) {
  const indexes = [...buckets.entries()]
    .filter(([i, b]) => b.n > 0 && (cursor === null || i < cursor))
    .map(([i]) => i)
    .sort((a, b) => b - a);
  const page = indexes.slice(0, size);
  const rollupDataPoints = page.map((i) => render(i, buckets.get(i) ?? new Bucket()));
  const last = page.at(-1);
  return {
    ...(rollupDataPoints.length ? { rollupDataPoints } : {}),
    ...(indexes.length > size && last !== undefined
      ? { nextPageToken: pageToken(hash, last) }
      : {}),
  };
}

export function rollUp(caller: Caller, type: TypeSpec, rawBody: unknown, self: boolean) {
  const body = objectBody(rawBody);
  checkFields(body, ['range', 'windowSize', 'pageSize', 'pageToken', 'dataSourceFamily']);
  if (!type.rollUp || type.kind === 'daily') {
    throw invalidArgument(`Roll up is not supported for data type ${type.id}.`);
  }
  const range = body.range;
  if (typeof range !== 'object' || range === null) throw invalidArgument('range is required.');
  const r = range as Record<string, unknown>;
  checkFields(r, ['startTime', 'endTime'], 'range');
  const start = typeof r.startTime === 'string' ? parseInstant(r.startTime) : null;
  const end = typeof r.endTime === 'string' ? parseInstant(r.endTime) : null;
  if (start === null || end === null) {
    throw invalidArgument('range.start_time and range.end_time must be RFC 3339 timestamps.');
  }
  if (start >= end) {
    throw invalidArgument(
      'Invalid time range: start time must be strictly earlier than end time.',
      errorInfo('INVALID_TIME_RANGE'),
    );
  }
  if (end - start > type.capDays * DAY_MS) throw capError(type);
  const window = parseDuration(body.windowSize);
  if (window === null || window < 1) throw invalidArgument('window_size must be at least 1s.');
  const windowMs = window * 1000;
  const family = familyOf(type, body.dataSourceFamily as string | undefined);
  const size = pageSizeOf(body.pageSize, 1440, 10_000);
  const hash = queryHash([
    'rollUp',
    caller.healthUserId,
    type.id,
    start,
    end,
    window,
    size,
    family,
  ]);
  const cursor = readPageToken(body.pageToken as string | undefined, hash);
  if (self || family === 'self-sources') return {};
  const buckets = new Map<number, Bucket>();
  eachAtom(caller, type, start, end, (at) => {
    const i = Math.floor((at - start) / windowMs);
    let b = buckets.get(i);
    if (!b) {
      b = new Bucket();
      buckets.set(i, b);
    }
    return b;
  });
  const key = rollupKey(type.id);
  return pageOut(buckets, size, cursor, hash, (i, b) => ({
    startTime: rfc3339(start + i * windowMs),
    endTime: rfc3339(Math.min(end, start + (i + 1) * windowMs)),
    [key]: rollupValue(type.id, b),
  }));
}

function civilBound(value: unknown, at: string): number {
  if (typeof value !== 'object' || value === null) throw invalidArgument(`${at} is required.`);
  const v = value as Record<string, unknown>;
  checkFields(v, ['date', 'time'], at);
  const date = v.date as Partial<CivilDate> | undefined;
  if (
    typeof date !== 'object' ||
    date === null ||
    !Number.isInteger(date.year) ||
    !Number.isInteger(date.month) ||
    !Number.isInteger(date.day)
  ) {
    throw invalidArgument(`${at}.date must have a year, month and day.`);
  }
  checkFields(date as Record<string, unknown>, ['year', 'month', 'day'], `${at}.date`);
  const time = (v.time ?? {}) as Record<string, unknown>;
  checkFields(time, ['hours', 'minutes', 'seconds', 'nanos'], `${at}.time`);
  const n = (x: unknown) => (typeof x === 'number' ? x : 0);
  return (
    dayNumber(date as CivilDate) * DAY_MS +
    ((n(time.hours) * 60 + n(time.minutes)) * 60 + n(time.seconds)) * 1000
  );
}

export function dailyRollUp(caller: Caller, type: TypeSpec, rawBody: unknown, self: boolean) {
  const body = objectBody(rawBody);
  checkFields(body, ['range', 'windowSizeDays', 'pageSize', 'pageToken', 'dataSourceFamily']);
  if (!type.rollUp)
    throw invalidArgument(`Daily roll up is not supported for data type ${type.id}.`);
  const range = body.range;
  if (typeof range !== 'object' || range === null) throw invalidArgument('range is required.');
  checkFields(range as Record<string, unknown>, ['start', 'end'], 'range');
  const r = range as Record<string, unknown>;
  const start = civilBound(r.start, 'range.start');
  const end = civilBound(r.end, 'range.end');
  if (start >= end) {
    throw invalidArgument(
      'Invalid time range: start time must be strictly earlier than end time.',
      errorInfo('INVALID_TIME_RANGE'),
    );
  }
  if (end - start > type.capDays * DAY_MS) throw capError(type);
  const days = body.windowSizeDays ?? 1;
  if (typeof days !== 'number' || !Number.isInteger(days) || days < 1) {
    throw invalidArgument('window_size_days must be a positive integer.');
  }
  const windowMs = days * DAY_MS;
  const family = familyOf(type, body.dataSourceFamily as string | undefined);
  const size = pageSizeOf(body.pageSize, 1440, 10_000);
  const hash = queryHash([
    'dailyRollUp',
    caller.healthUserId,
    type.id,
    start,
    end,
    days,
    size,
    family,
  ]);
  const cursor = readPageToken(body.pageToken as string | undefined, hash);
  if (self || family === 'self-sources') return {};

  const buckets = new Map<number, Bucket>();
  const bucketOf = (local: number) => {
    if (local < start || local >= end) return null;
    const i = Math.floor((local - start) / windowMs);
    let b = buckets.get(i);
    if (!b) {
      b = new Bucket();
      buckets.set(i, b);
    }
    return b;
  };
  if (type.id === 'daily-resting-heart-rate') {
    const today = civilDayNumber(caller.now, utcOffsetAt(caller.now));
    for (let d = Math.ceil(start / DAY_MS); d * DAY_MS < end && d <= today; d++) {
      if (d < DATA_START_DAY) continue;
      const b = bucketOf(d * DAY_MS);
      if (!b) continue;
      const rhr = restingHeartRate(caller.email, d);
      b.n += 1;
      b.rhrMin = Math.min(b.rhrMin, rhr);
      b.rhrMax = Math.max(b.rhrMax, rhr);
    }
  } else {
    // Each atom lands on the civil day of its own offset: travel and DST days bucket correctly.
    eachAtom(caller, type, start - 14 * 3_600_000, end + 12 * 3_600_000, (_at, local) =>
      bucketOf(local),
    );
  }
  const key = rollupKey(type.id);
  return pageOut(buckets, size, cursor, hash, (i, b) => ({
    civilStartTime: civilDateTime(start + i * windowMs),
    civilEndTime: civilDateTime(Math.min(end, start + (i + 1) * windowMs)),
    [key]: rollupValue(type.id, b),
  }));
}
