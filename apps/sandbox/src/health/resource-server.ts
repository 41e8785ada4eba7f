import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Grant, GrantStore } from '../oidc-grants.js';
import { HEALTH_SCOPE_PREFIX } from '../oidc-scopes.js';
import {
  type CivilDate,
  civilDateTime,
  civilDayNumber,
  civilMs,
  DAY_MS,
  dayNumber,
  duration,
  MINUTE_MS,
  parseDuration,
  parseInstant,
  rfc3339,
} from './civil.js';
import type { Clock } from './clock.js';
import type { HealthControls } from './controls.js';
import {
  AGE,
  DATA_START_DAY,
  dayData,
  HEALTH_TIMELINE,
  hasHealthProfile,
  healthIdentity,
  RUN_STRIDE_MM,
  restingHeartRate,
  timeZoneAt,
  utcOffsetAt,
  WALK_STRIDE_MM,
  wakeDayOfSleepId,
} from './data-generator.js';
import {
  addMinute,
  Bucket,
  camel,
  findType,
  type Point,
  pointsOfUnit,
  rollupKey,
  rollupValue,
  sedentaryFlags,
  type TypeSpec,
} from './data-types.js';
import {
  ApiError,
  errorInfo,
  invalidArgument,
  notFound,
  sendApiError,
  unauthenticated,
} from './errors.js';
import type { Faults } from './faults.js';
import { applyFieldMask, type FieldMask, parseFieldMask } from './field-mask.js';
import { type Filter, matches, parseFilter, physicalBounds } from './filter.js';
import { heartRatePageText, heartRateParts } from './heart-rate-list.js';
import type { Quota } from './quota.js';

export interface ResourceServerOptions {
  clock: Clock;
  grants: GrantStore;
  controls: () => HealthControls;
  quota: Quota;
  faults: Faults;
}

/** Lists without a lower bound look back this far (Google would page through all history). */
export const UNBOUNDED_LOOKBACK_DAYS = 31;
const FAMILIES = ['all-sources', 'google-wearables', 'google-sources', 'self-sources'];
const DATA_SOURCE = { device: { displayName: 'Charge 6' }, platform: 'FITBIT' };

interface Caller {
  grant: Grant;
  email: string;
  healthUserId: string;
  legacyUserId: string;
  now: number;
}

type Access = 'read' | 'self-only';

function scopeError(method: string): ApiError {
  return new ApiError(403, 'PERMISSION_DENIED', 'Request had insufficient authentication scopes.', [
    errorInfo(
      'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
      { service: 'health.googleapis.com', method: `google.devicesandservices.health.v4.${method}` },
      'googleapis.com',
    ),
  ]);
}

/** Read scope → full access; only the write-only scope → the client's own points (none here). */
function access(grant: Grant, area: string, method: string): Access {
  if (grant.scopes.includes(`${HEALTH_SCOPE_PREFIX}${area}.readonly`)) return 'read';
  if (grant.scopes.includes(`${HEALTH_SCOPE_PREFIX}${area}.writeonly`)) return 'self-only';
  throw scopeError(method);
}

function unknownField(name: string, at?: string): ApiError {
  return invalidArgument(
    `Invalid JSON payload received. Unknown name "${name}"${at ? ` at '${at}'` : ''}: Cannot find field.`,
    {
      '@type': 'type.googleapis.com/google.rpc.BadRequest',
      fieldViolations: [
        {
          ...(at ? { field: at } : {}),
          description: `Invalid JSON payload received. Unknown name "${name}"${at ? ` at '${at}'` : ''}: Cannot find field.`,
        },
      ],
    },
  );
}

function queryParam(query: URLSearchParams, camelName: string): string | null {
  const snakeName = camelName.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return query.get(camelName) ?? query.get(snakeName);
}

function pageSizeOf(raw: unknown, def: number, max: number): number {
  if (raw === null || raw === undefined || raw === '') return def;
  const n = typeof raw === 'number' ? raw : Number(raw);
  if (!Number.isInteger(n) || n < 0) throw invalidArgument('page_size must not be negative.');
  return n === 0 ? def : Math.min(n, max);
}

/** Opaque page tokens: the cursor plus a hash of every other parameter of the request. */
function pageToken(hash: string, cursor: number): string {
  return Buffer.from(JSON.stringify({ h: hash, c: cursor })).toString('base64url');
}

function readPageToken(token: string | null | undefined, hash: string): number | null {
  if (!token) return null;
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as {
      h?: unknown;
      c?: unknown;
    };
    if (parsed.h === hash && typeof parsed.c === 'number') return parsed.c;
  } catch {
    // falls through to the error below
  }
  throw invalidArgument(
    'Invalid page token: the other request parameters must be the same as in the request that returned it.',
  );
}

function queryHash(parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 22);
}

function familyOf(type: TypeSpec, raw: string | null | undefined): string {
  if (raw === null || raw === undefined) return 'all-sources';
  const m = /^users\/[^/]+\/dataSourceFamilies\/([a-z-]+)$/.exec(raw);
  if (!m?.[1] || !FAMILIES.includes(m[1]) || type.id === 'sleep') {
    throw invalidArgument('Data family is missing or is not supported.');
  }
  return m[1];
}

function requireType(id: string): TypeSpec {
  const type = findType(id);
  if (!type) {
    throw invalidArgument(
      `Invalid parent data type collection: ${id}.`,
      errorInfo('INVALID_PARENT_DATA_TYPE_COLLECTION'),
    );
  }
  return type;
}

/** Whether a point already exists at the sandbox's now. */
function visible(type: TypeSpec, point: Point, now: number): boolean {
  if (type.kind === 'daily') return point.key <= civilDayNumber(now, utcOffsetAt(now));
  return point.at <= now;
}

// ---- list / reconcile -------------------------------------------------------------------------

/** What a list answer depends on besides the request. */
export type ListCaller = Pick<Caller, 'email' | 'healthUserId' | 'now'>;

/**
 * A `list`/`reconcile` answer: an object for Fastify to serialise, or, for raw heart rate, the
 * same JSON already written as text (heart-rate-list.ts). `generic` forces the object, the
 * reference the golden test compares the text with.
 */
export function listPoints(
  caller: ListCaller,
  type: TypeSpec,
  query: URLSearchParams,
  reconcile: boolean,
  self: boolean,
  options: { generic?: boolean; fields?: FieldMask | null } = {},
): Record<string, unknown> | string {
  if (type.kind === 'aggregate' || (!reconcile && !type.list)) {
    throw invalidArgument(`List is not supported for data type ${type.id}.`);
  }
  const filterText = queryParam(query, 'filter');
  const filter: Filter = parseFilter(type, filterText);
  const family = familyOf(type, queryParam(query, 'dataSourceFamily'));
  const small = type.id === 'sleep' || type.id === 'exercise';
  const size = pageSizeOf(queryParam(query, 'pageSize'), small ? 25 : 1440, small ? 25 : 10_000);
  const hash = queryHash([
    reconcile ? 'reconcile' : 'list',
    caller.healthUserId,
    type.id,
    filterText ?? '',
    size,
    family,
  ]);
  const cursor = readPageToken(queryParam(query, 'pageToken'), hash);
  if (self || family === 'self-sources') return {};

  const now = caller.now;
  const bounds = physicalBounds(filter);
  const hi = Math.min(bounds.hi ?? now, now + DAY_MS);
  const lo = bounds.lo ?? hi - UNBOUNDED_LOOKBACK_DAYS * DAY_MS;
  const exact = type.kind === 'interval' || type.kind === 'sample';
  let first = exact ? Math.floor(lo / DAY_MS) : Math.floor(lo / DAY_MS) - 1;
  const last = exact ? Math.floor((hi - 1) / DAY_MS) : Math.floor(hi / DAY_MS) + 1;
  first = Math.max(first, DATA_START_DAY);

  const parts = heartRateParts(options.fields ?? null);
  if (type.id === 'heart-rate' && type.generated && !options.generic && parts) {
    return heartRatePageText({
      parts,
      email: caller.email,
      now,
      filter,
      cursor,
      size,
      first,
      last,
      reconcile,
      nextPageToken: (lastKey) => pageToken(hash, lastKey),
    });
  }
  const collected: Point[] = [];
  for (let unit = last; unit >= first && collected.length <= size; unit--) {
    const points = pointsOfUnit(type, caller.email, caller.healthUserId, unit).filter(
      (p) =>
        (cursor === null || p.key < cursor) && visible(type, p, now) && matches(filter, p.members),
    );
    points.sort((a, b) => b.key - a.key);
    collected.push(...points);
  }
  const page = collected.slice(0, size);
  const key = camel(type.id);
  const dataPoints = page.map((p) =>
    reconcile
      ? { ...(p.name ? { dataPointName: p.name } : {}), [key]: p.payload }
      : {
          ...(p.name ? { name: p.name } : {}),
          dataSource: { recordingMethod: p.recordingMethod, ...DATA_SOURCE },
          [key]: p.payload,
        },
  );
  const lastPoint = page.at(-1);
  return {
    ...(dataPoints.length ? { dataPoints } : {}),
    ...(collected.length > size && lastPoint
      ? { nextPageToken: pageToken(hash, lastPoint.key) }
      : {}),
  };
}

/** `get` for sleep, the one identifiable type generated here: the bare DataPoint. */
function getSleep(caller: Caller, type: TypeSpec, id: string) {
  const wakeDay = wakeDayOfSleepId(id);
  if (type.id !== 'sleep' || wakeDay === null || wakeDay < DATA_START_DAY) throw notFound();
  const [point] = pointsOfUnit(type, caller.email, caller.healthUserId, wakeDay);
  if (!point?.name?.endsWith(`/${id}`) || !visible(type, point, caller.now)) throw notFound();
  return {
    name: point.name,
    dataSource: { recordingMethod: point.recordingMethod, ...DATA_SOURCE },
    sleep: point.payload,
  };
}

// ---- rollUp / dailyRollUp ---------------------------------------------------------------------

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidArgument('Invalid JSON payload received. Expected an object.');
  }
  return body as Record<string, unknown>;
}

function checkFields(obj: Record<string, unknown>, allowed: string[], at?: string): void {
  for (const key of Object.keys(obj)) if (!allowed.includes(key)) throw unknownField(key, at);
}

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

function rollUp(caller: Caller, type: TypeSpec, rawBody: unknown, self: boolean) {
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

function dailyRollUp(caller: Caller, type: TypeSpec, rawBody: unknown, self: boolean) {
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

// ---- users.* ----------------------------------------------------------------------------------

function identity(caller: Caller) {
  const readable = caller.grant.scopes.some(
    (s) =>
      s.startsWith(HEALTH_SCOPE_PREFIX) &&
      s.endsWith('.readonly') &&
      s !== `${HEALTH_SCOPE_PREFIX}location.readonly`,
  );
  if (!readable) throw scopeError('HealthProfileService.GetIdentity');
  return {
    name: 'users/me/identity',
    healthUserId: caller.healthUserId,
    legacyUserId: caller.legacyUserId,
  };
}

function profile(caller: Caller) {
  if (access(caller.grant, 'profile', 'HealthProfileService.GetProfile') !== 'read') {
    throw scopeError('HealthProfileService.GetProfile');
  }
  const strides = caller.grant.scopes.includes(
    `${HEALTH_SCOPE_PREFIX}activity_and_fitness.readonly`,
  );
  const [year, month, day] = HEALTH_TIMELINE.dataStartDate.split('-').map(Number);
  return {
    name: `users/${caller.healthUserId}/profile`,
    age: AGE,
    membershipStartDate: { year, month, day },
    ...(strides
      ? { autoWalkingStrideLengthMm: WALK_STRIDE_MM, autoRunningStrideLengthMm: RUN_STRIDE_MM }
      : {}),
  };
}

function settings(caller: Caller) {
  if (access(caller.grant, 'settings', 'HealthProfileService.GetSettings') !== 'read') {
    throw scopeError('HealthProfileService.GetSettings');
  }
  return {
    name: `users/${caller.healthUserId}/settings`,
    timeZone: timeZoneAt(caller.now),
    utcOffset: duration(utcOffsetAt(caller.now)),
    languageLocale: 'en_US',
    foodLanguageCode: 'en-US',
    distanceUnit: 'DISTANCE_UNIT_MILES',
    heightUnit: 'HEIGHT_UNIT_INCHES',
    weightUnit: 'WEIGHT_UNIT_POUNDS',
    temperatureUnit: 'TEMPERATURE_UNIT_FAHRENHEIT',
    waterUnit: 'WATER_UNIT_FL_OZ',
    swimUnit: 'SWIM_UNIT_YARDS',
    glucoseUnit: 'GLUCOSE_UNIT_MG_DL',
    autoStrideEnabled: true,
    strideLengthWalkingType: 'STRIDE_LENGTH_TYPE_AUTO',
    strideLengthRunningType: 'STRIDE_LENGTH_TYPE_AUTO',
  };
}

function device(caller: Caller) {
  const id = caller.healthUserId.slice(-9);
  const mac = createHash('sha256').update(`mac:${caller.email}`).digest();
  return {
    name: `users/${caller.healthUserId}/pairedDevices/${id}`,
    deviceType: 'TRACKER',
    deviceVersion: 'Charge 6',
    batteryStatus: 'High',
    batteryLevel: 84,
    lastSyncTime: rfc3339(Math.floor(caller.now / 900_000) * 900_000),
    macAddress: [...mac.subarray(0, 6)]
      .map((b) => b.toString(16).padStart(2, '0').toUpperCase())
      .join(':'),
    features: ['STEPS', 'HEART_RATE', 'SLEEP', 'SPO2'],
  };
}

function pairedDevices(caller: Caller, query: URLSearchParams, id?: string) {
  if (access(caller.grant, 'settings', 'PairedDeviceService.ListPairedDevices') !== 'read') {
    throw scopeError('PairedDeviceService.ListPairedDevices');
  }
  const only = device(caller);
  if (id !== undefined) {
    if (!only.name.endsWith(`/${id}`)) throw notFound();
    return only;
  }
  pageSizeOf(queryParam(query, 'pageSize'), 5, 100);
  const hash = queryHash(['pairedDevices', caller.healthUserId]);
  readPageToken(queryParam(query, 'pageToken'), hash);
  return { pairedDevices: [only] };
}

// ---- routing ----------------------------------------------------------------------------------

function bearer(request: FastifyRequest, query: URLSearchParams): string | null {
  const header = request.headers.authorization;
  if (header && /^Bearer\s+/i.test(header)) return header.replace(/^Bearer\s+/i, '').trim();
  return query.get('access_token') ?? query.get('oauth_token');
}

/** Google's Health API at `/v4/users/{me|healthUserId}/…`. */
export function registerResourceServer(app: FastifyInstance, options: ResourceServerOptions): void {
  const { grants, clock, controls, quota, faults } = options;

  async function handle(request: FastifyRequest, reply: FastifyReply) {
    const knobs = controls();
    if (knobs.latencyMs > 0) await sleep(knobs.latencyMs);
    reply.header('Cache-Control', 'private');
    try {
      const raw = request.raw.url ?? '';
      const q = raw.indexOf('?');
      let path: string;
      try {
        // `:rollUp` may arrive as `%3ArollUp`.
        path = decodeURIComponent(q < 0 ? raw : raw.slice(0, q));
      } catch {
        throw notFound();
      }
      const query = new URLSearchParams(q < 0 ? '' : raw.slice(q + 1));
      const token = bearer(request, query);
      const found = token ? grants.lookupAccessToken(token) : null;
      if (!found) throw unauthenticated();
      const { grant } = found;
      const ids = healthIdentity(grant.account.email);
      quota.check(ids.healthUserId, grant.clientId, {
        perUser: knobs.perUserPerMinute,
        perProject: knobs.perProjectPerMinute,
      });
      faults.check(knobs);
      if (!hasHealthProfile(grant.account.email)) {
        throw new ApiError(
          400,
          'FAILED_PRECONDITION',
          'The Google account is not linked to a Google Health (Fitbit) profile.',
          [
            errorInfo('ACCOUNT_NOT_LINKED', {
              redirect_uri: 'https://fitbit.google.com/auth/signup',
            }),
          ],
        );
      }
      const caller: Caller = {
        grant,
        email: grant.account.email,
        ...ids,
        now: clock.now(),
      };
      // Partial responses: a malformed selection is refused before any work.
      const fieldsText = query.get('fields');
      const fields = fieldsText ? parseFieldMask(fieldsText) : null;
      const route = (): unknown => {
        const segments = path.replace(/^\/v4\//, '').split('/');
        const [root, user, ...rest] = segments;
        if (root !== 'users' || !user) throw notFound();
        if (user !== 'me' && user !== ids.healthUserId) {
          throw new ApiError(403, 'PERMISSION_DENIED', 'The caller does not have permission');
        }
        const method = request.method;
        const [head, second, third, fourth] = rest;
        if (method === 'GET' && rest.length === 1 && head === 'identity') return identity(caller);
        if (method === 'GET' && rest.length === 1 && head === 'profile') return profile(caller);
        if (method === 'GET' && rest.length === 1 && head === 'settings') return settings(caller);
        if (method === 'GET' && head === 'pairedDevices' && rest.length <= 2) {
          return pairedDevices(caller, query, second);
        }
        if (head === 'dataTypes' && second && third?.startsWith('dataPoints') && !fourth) {
          const type = requireType(second);
          const verb = third.slice('dataPoints'.length);
          const self =
            access(grant, type.area, `DataPointService.${verb || 'List'}`) === 'self-only';
          if (method === 'GET' && (verb === '' || verb === ':reconcile')) {
            return listPoints(caller, type, query, verb === ':reconcile', self, { fields });
          }
          if (method === 'POST' && verb === ':rollUp')
            return rollUp(caller, type, request.body, self);
          if (method === 'POST' && verb === ':dailyRollUp') {
            return dailyRollUp(caller, type, request.body, self);
          }
        }
        if (
          method === 'GET' &&
          head === 'dataTypes' &&
          second &&
          third === 'dataPoints' &&
          fourth
        ) {
          const type = requireType(second);
          access(grant, type.area, 'DataPointService.GetDataPoint');
          return getSleep(caller, type, fourth);
        }
        throw notFound();
      };
      const answer = route();
      if (typeof answer === 'string') {
        // Already JSON text, the mask applied: Fastify sends a string with a JSON type as it is.
        reply.type('application/json; charset=utf-8');
        return answer;
      }
      return fields ? applyFieldMask(answer, fields) : answer;
    } catch (error) {
      if (error instanceof ApiError) return sendApiError(reply, error);
      throw error;
    }
  }

  app.get('/v4/*', handle);
  app.post('/v4/*', handle);
}
