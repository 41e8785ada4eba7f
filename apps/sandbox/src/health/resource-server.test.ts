import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  civilDayTotals,
  clearGeneratedDays,
  generatedDays,
  HEALTH_TIMELINE,
  healthIdentity,
  type Sandbox,
  startSandbox,
} from '../index.js';
import { ACTIVITY, api, connect, SLEEP, type Tokens } from '../test/health-flow.js';

let sandbox: Sandbox;
let alex: Tokens;
const EMAIL = 'alex.rivera@gmail.test';

beforeAll(async () => {
  sandbox = await startSandbox({ httpPort: 0, smtpPort: 0 });
  alex = await connect(sandbox, EMAIL);
});

afterEach(() => {
  sandbox.health.resetControls();
});

afterAll(async () => {
  await sandbox.close();
});

const get = (path: string, token = alex.access_token) => api(sandbox, token, path);
const post = (path: string, body: unknown, token = alex.access_token) =>
  api(sandbox, token, path, body);
const list = (type: string, filter: string, extra = '') =>
  get(`/v4/users/me/dataTypes/${type}/dataPoints?filter=${encodeURIComponent(filter)}${extra}`);
const dayRange = (from: string, to: string) => {
  const [y1, m1, d1] = from.split('-').map(Number);
  const [y2, m2, d2] = to.split('-').map(Number);
  return {
    start: { date: { year: y1, month: m1, day: d1 } },
    end: { date: { year: y2, month: m2, day: d2 } },
  };
};
const stepsDay = (from: string, to: string) =>
  `steps.interval.start_time >= "${from}T00:00:00Z" AND steps.interval.start_time < "${to}T00:00:00Z"`;

type Json = Record<string, unknown>;
const points = (json: Json) => (json.dataPoints ?? []) as Json[];
const rollups = (json: Json) => (json.rollupDataPoints ?? []) as Json[];

describe('users', () => {
  it('answers identity, profile, settings and paired devices in Google’s shapes', async () => {
    const ids = healthIdentity(EMAIL);
    expect((await get('/v4/users/me/identity')).json).toEqual({
      name: 'users/me/identity',
      healthUserId: ids.healthUserId,
      legacyUserId: ids.legacyUserId,
    });
    expect(ids.healthUserId).toMatch(/^\d{19}$/);
    const profile = await get(`/v4/users/${ids.healthUserId}/profile`);
    expect(profile.json).toMatchObject({
      name: `users/${ids.healthUserId}/profile`,
      age: 41,
      membershipStartDate: { year: 2024, month: 1, day: 1 },
    });
    expect(profile.json).not.toHaveProperty('displayName');
    const settings = (await get('/v4/users/me/settings')).json;
    expect(settings.timeZone).toBe('America/New_York');
    expect(String(settings.utcOffset)).toMatch(/^-1[48]000s$/);
    const devices = (await get('/v4/users/me/pairedDevices')).json;
    expect(devices.pairedDevices).toEqual([
      expect.objectContaining({ deviceType: 'TRACKER', deviceVersion: 'Charge 6' }),
    ]);
  });

  it('refuses another user’s id with 403', async () => {
    const other = await get('/v4/users/1234567890123456789/identity');
    expect(other.status).toBe(403);
    expect(other.json).toMatchObject({ error: { code: 403, status: 'PERMISSION_DENIED' } });
  });
});

describe('errors', () => {
  it('401 UNAUTHENTICATED without a token, with a bad one, after an hour and after revocation', async () => {
    const response = await fetch(`${sandbox.health.urls.apiBaseUrl}/v4/users/me/identity`);
    expect(response.status).toBe(401);
    const body = (await response.json()) as { error: Json };
    expect(body.error).toEqual({
      code: 401,
      message: expect.stringContaining('Request had invalid authentication credentials.'),
      status: 'UNAUTHENTICATED',
    });
    expect((await get('/v4/users/me/identity', 'ya29.bogus')).status).toBe(401);

    const tokens = await connect(sandbox, 'short.lived@example.test');
    expect((await get('/v4/users/me/identity', tokens.access_token)).status).toBe(200);
    sandbox.health.clock.advance(3_600_000);
    expect((await get('/v4/users/me/identity', tokens.access_token)).status).toBe(401);
    sandbox.health.clock.offsetMs = 0;

    const revoked = await connect(sandbox, 'revoked.user@example.test');
    sandbox.health.revoke('revoked.user@example.test');
    expect((await get('/v4/users/me/identity', revoked.access_token)).status).toBe(401);
  });

  it('403 PERMISSION_DENIED for a type whose scope was not granted; identity still works', async () => {
    const tokens = await connect(sandbox, 'sleep.only@example.test', {
      scopes: [SLEEP, ACTIVITY],
      granted: [SLEEP],
    });
    expect(tokens.scope).toBe(SLEEP);
    const denied = await get(
      `/v4/users/me/dataTypes/steps/dataPoints?filter=${encodeURIComponent(stepsDay('2026-11-01', '2026-11-02'))}`,
      tokens.access_token,
    );
    expect(denied.status).toBe(403);
    expect(denied.json).toMatchObject({
      error: {
        code: 403,
        status: 'PERMISSION_DENIED',
        message: 'Request had insufficient authentication scopes.',
      },
    });
    expect((await get('/v4/users/me/identity', tokens.access_token)).status).toBe(200);
    expect((await get('/v4/users/me/settings', tokens.access_token)).status).toBe(403);
  });

  it('400 FAILED_PRECONDITION ACCOUNT_NOT_LINKED for an account without health data', async () => {
    const tokens = await connect(sandbox, 'nohealth.person@example.test');
    const response = await get('/v4/users/me/identity', tokens.access_token);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({
      error: {
        code: 400,
        status: 'FAILED_PRECONDITION',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'ACCOUNT_NOT_LINKED',
            domain: 'health.googleapis.com',
            metadata: { redirect_uri: 'https://fitbit.google.com/auth/signup' },
          },
        ],
      },
    });
  });

  it('names the filter problem with the reasons of the reference', async () => {
    const reason = async (type: string, filter: string) => {
      const response = await list(type, filter);
      expect(response.status).toBe(400);
      const error = response.json.error as {
        details: { metadata?: { detailedReasons?: string } }[];
      };
      return error.details[0]?.metadata?.detailedReasons;
    };
    expect(await reason('sleep', 'sleep.interval.civil_start_time >= "2026-11-01"')).toBe(
      'INVALID_DATA_POINT_FILTER_DATA_TYPE_MEMBER',
    );
    expect(
      await reason(
        'daily-resting-heart-rate',
        'daily_resting_heart_rate.date >= "2026-11-01T00:00:00Z"',
      ),
    ).toBe('INVALID_DATA_POINT_FILTER_CIVIL_DATE_TIME_FORMAT');
    expect(
      await reason('steps', 'heart_rate.sample_time.physical_time >= "2026-11-01T00:00:00Z"'),
    ).toBe('INVALID_DATA_POINT_FILTER_COLLECTION_MISMATCH');
    expect(await reason('steps', 'stepz.interval.start_time >= "2026-11-01T00:00:00Z"')).toBe(
      'INVALID_DATA_POINT_FILTER_DATA_TYPE_RESTRICTION',
    );
    const unknownType = await get('/v4/users/me/dataTypes/stepz/dataPoints');
    expect(unknownType.status).toBe(400);
    expect(JSON.stringify(unknownType.json)).toContain('INVALID_PARENT_DATA_TYPE_COLLECTION');
  });

  it('refuses list for total-calories and floors', async () => {
    for (const type of ['total-calories', 'floors']) {
      const response = await get(`/v4/users/me/dataTypes/${type}/dataPoints`);
      expect(response.status).toBe(400);
      expect(response.json).toMatchObject({
        error: {
          status: 'INVALID_ARGUMENT',
          message: `List is not supported for data type ${type}.`,
        },
      });
    }
  });

  it('rejects unknown data source families and any family on sleep; self-sources is empty', async () => {
    const filter = stepsDay('2026-11-01', '2026-11-02');
    expect(
      (await list('steps', filter, '&dataSourceFamily=users/me/dataSourceFamilies/mine')).status,
    ).toBe(400);
    const self = await list(
      'steps',
      filter,
      '&dataSourceFamily=users%2Fme%2FdataSourceFamilies%2Fself-sources',
    );
    expect(self).toMatchObject({ status: 200, json: {} });
    const wearables = await list(
      'steps',
      filter,
      '&pageSize=5&dataSourceFamily=users/me/dataSourceFamilies/google-wearables',
    );
    expect(points(wearables.json)).toHaveLength(5);
    const sleep = await list(
      'sleep',
      'sleep.interval.end_time >= "2026-11-01T00:00:00Z"',
      '&dataSourceFamily=users/me/dataSourceFamilies/all-sources',
    );
    expect(sleep.status).toBe(400);
  });
});

describe('list', () => {
  it('returns non-zero minutes newest first with int64 strings, civil times and offsets', async () => {
    const response = await list('steps', stepsDay('2026-11-05', '2026-11-06'), '&pageSize=10000');
    const all = points(response.json);
    expect(all.length).toBeGreaterThan(100);
    expect(all.length).toBeLessThan(1440);
    expect(response.json.nextPageToken).toBeUndefined();
    const starts = all.map(
      (p) => (p.steps as { interval: { startTime: string } }).interval.startTime,
    );
    expect([...starts].sort().reverse()).toEqual(starts);
    const first = all[0] as { steps: { count: string; interval: Json } };
    expect(first.steps.count).toMatch(/^[1-9]\d*$/);
    expect(first.steps.interval).toMatchObject({
      startUtcOffset: '-18000s',
      endUtcOffset: '-18000s',
    });
    expect(first.steps.interval.civilStartTime).toHaveProperty('date');
    expect(all.every((p) => Number((p.steps as { count: string }).count) > 0)).toBe(true);
  });

  it('pages with tokens bound to the query; page_size and %3A are accepted', async () => {
    const filter = stepsDay('2026-11-05', '2026-11-06');
    const whole = points((await list('steps', filter, '&pageSize=10000')).json);
    const seen: Json[] = [];
    let token: string | undefined;
    do {
      const page = await list(
        'steps',
        filter,
        `&page_size=200${token ? `&pageToken=${token}` : ''}`,
      );
      expect(page.status).toBe(200);
      seen.push(...points(page.json));
      token = page.json.nextPageToken as string | undefined;
    } while (token);
    expect(seen).toEqual(whole);

    const firstPage = await list('steps', filter, '&pageSize=200');
    const next = String(firstPage.json.nextPageToken);
    const mismatch = await list(
      'steps',
      stepsDay('2026-11-04', '2026-11-06'),
      `&pageSize=200&pageToken=${next}`,
    );
    expect(mismatch.status).toBe(400);
    expect(mismatch.json).toMatchObject({ error: { status: 'INVALID_ARGUMENT' } });
    const otherSize = await list('steps', filter, `&pageSize=300&pageToken=${next}`);
    expect(otherSize.status).toBe(400);
    const garbage = await list('steps', filter, '&pageSize=200&pageToken=not-a-token');
    expect(garbage.status).toBe(400);

    const encoded = await post('/v4/users/me/dataTypes/steps/dataPoints%3AdailyRollUp', {
      range: dayRange('2026-11-05', '2026-11-06'),
    });
    const plain = await post('/v4/users/me/dataTypes/steps/dataPoints:dailyRollUp', {
      range: dayRange('2026-11-05', '2026-11-06'),
    });
    expect(encoded.status).toBe(200);
    expect(encoded.json).toEqual(plain.json);
  });

  it('defaults to 1440 per page and clamps at 10000; sleep defaults to and caps at 25', async () => {
    const hr = (extra: string) =>
      list(
        'heart-rate',
        'heart_rate.sample_time.physical_time >= "2026-11-05T00:00:00Z" AND heart_rate.sample_time.physical_time < "2026-11-06T00:00:00Z"',
        extra,
      );
    expect(points((await hr('')).json)).toHaveLength(1440);
    const big = await hr('&pageSize=50000');
    expect(points(big.json)).toHaveLength(10000);
    expect(big.json.nextPageToken).toBeTruthy();
    const samples = points(big.json).map((p) =>
      Date.parse((p.heartRate as { sampleTime: { physicalTime: string } }).sampleTime.physicalTime),
    );
    const gaps = samples.slice(1).map((t, i) => ((samples[i] ?? 0) - t) / 1000);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(5);

    const sleepFilter =
      'sleep.interval.end_time >= "2026-08-01T00:00:00Z" AND sleep.interval.end_time < "2026-11-01T00:00:00Z"';
    const sleepDefault = await list('sleep', sleepFilter);
    expect(points(sleepDefault.json)).toHaveLength(25);
    expect(points((await list('sleep', sleepFilter, '&pageSize=100')).json)).toHaveLength(25);
  });

  it('lists sleep with stages and summary but no civil times, filtered on end time (OR allowed)', async () => {
    const response = await list(
      'sleep',
      'sleep.interval.end_time >= "2026-11-01T00:00:00Z" AND sleep.interval.end_time < "2026-11-02T00:00:00Z" OR sleep.interval.civil_end_time >= "2026-11-03" AND sleep.interval.civil_end_time < "2026-11-04"',
    );
    expect(response.status).toBe(200);
    const sessions = points(response.json);
    expect(sessions).toHaveLength(2);
    const night = sessions[1] as { name: string; sleep: Json & { interval: Json; summary: Json } };
    expect(night.name).toMatch(/^users\/\d+\/dataTypes\/sleep\/dataPoints\/\d+$/);
    expect(night.sleep.interval).not.toHaveProperty('civilStartTime');
    // The night of the fall-back: fell asleep on daylight time, woke on standard time.
    expect(night.sleep.interval).toMatchObject({
      startUtcOffset: '-14400s',
      endUtcOffset: '-18000s',
    });
    expect(night.sleep.summary.minutesInSleepPeriod).toBe(
      String(civilDayTotals(EMAIL, HEALTH_TIMELINE.fallBackDate).sleep.minutesInSleepPeriod),
    );
    expect((night.sleep.stages as Json[]).length).toBeGreaterThan(4);
  });

  it('gets one sleep by its name, and 404 NOT_FOUND for an unknown id', async () => {
    const filter =
      'sleep.interval.end_time >= "2026-11-01T00:00:00Z" AND sleep.interval.end_time < "2026-11-02T00:00:00Z"';
    const [listed] = points((await list('sleep', filter)).json);
    const name = String(listed?.name);
    const id = name.split('/').at(-1);
    const got = await get(`/v4/users/me/dataTypes/sleep/dataPoints/${id}`);
    expect(got.status).toBe(200);
    expect(got.json).toEqual(listed);
    const missing = await get('/v4/users/me/dataTypes/sleep/dataPoints/8000000000000000000');
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
  });

  it('reconcile answers dataPointName and no dataSource', async () => {
    const response = await get(
      `/v4/users/me/dataTypes/sleep/dataPoints:reconcile?filter=${encodeURIComponent('sleep.interval.end_time >= "2026-11-01T00:00:00Z" AND sleep.interval.end_time < "2026-11-02T00:00:00Z"')}`,
    );
    const [only] = points(response.json);
    expect(only).toHaveProperty('dataPointName');
    expect(only).not.toHaveProperty('dataSource');
    expect(only).not.toHaveProperty('name');
  });

  it('lists daily types by civil date', async () => {
    const response = await list(
      'daily-resting-heart-rate',
      'daily_resting_heart_rate.date >= "2026-11-01" AND daily_resting_heart_rate.date < "2026-11-04"',
    );
    const days = points(response.json).map(
      (p) => p.dailyRestingHeartRate as { date: Json; beatsPerMinute: string },
    );
    expect(days.map((d) => d.date.day)).toEqual([3, 2, 1]);
    expect(days[2]?.beatsPerMinute).toBe(
      String(civilDayTotals(EMAIL, '2026-11-01').restingHeartRate),
    );
  });

  it('shows nothing after the sandbox clock’s now', async () => {
    const now = Date.now();
    const from = new Date(now - 2 * 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const to = new Date(now + 2 * 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const response = await list(
      'heart-rate',
      `heart_rate.sample_time.physical_time >= "${from}" AND heart_rate.sample_time.physical_time < "${to}"`,
      '&pageSize=10',
    );
    const newest = points(response.json)[0] as {
      heartRate: { sampleTime: { physicalTime: string } };
    };
    expect(Date.parse(newest.heartRate.sampleTime.physicalTime)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(newest.heartRate.sampleTime.physicalTime)).toBeGreaterThan(now - 60_000);
  });
});

describe('rollUp', () => {
  it('requires range and windowSize, truncates the last bucket and omits empty ones', async () => {
    const path = '/v4/users/me/dataTypes/heart-rate/dataPoints:rollUp';
    expect((await post(path, { windowSize: '60s' })).status).toBe(400);
    expect(
      (
        await post(path, {
          range: { startTime: '2026-11-05T00:00:00Z', endTime: '2026-11-05T01:00:00Z' },
        })
      ).status,
    ).toBe(400);
    const response = await post(path, {
      range: { startTime: '2026-11-05T12:00:00Z', endTime: '2026-11-05T12:02:30Z' },
      windowSize: '60s',
    });
    const buckets = rollups(response.json);
    expect(buckets.map((b) => [b.startTime, b.endTime])).toEqual([
      ['2026-11-05T12:02:00Z', '2026-11-05T12:02:30Z'],
      ['2026-11-05T12:01:00Z', '2026-11-05T12:02:00Z'],
      ['2026-11-05T12:00:00Z', '2026-11-05T12:01:00Z'],
    ]);
    const value = buckets[0]?.heartRate as Record<string, number>;
    expect(typeof value.beatsPerMinuteAvg).toBe('number');
    expect(value.beatsPerMinuteMin).toBeLessThanOrEqual(value.beatsPerMinuteMax ?? 0);

    // Steps between 02:00 and 05:00 local are mostly absent: those hours have fewer buckets than minutes.
    const night = await post('/v4/users/me/dataTypes/steps/dataPoints:rollUp', {
      range: { startTime: '2026-11-05T07:00:00Z', endTime: '2026-11-05T10:00:00Z' },
      windowSize: '60s',
    });
    expect(rollups(night.json).length).toBeLessThan(180);
  });

  it('enforces 14 days for heart-rate and 90 days for steps, and start < end', async () => {
    const range = (days: number) => ({
      startTime: '2026-08-01T00:00:00Z',
      endTime: new Date(Date.parse('2026-08-01T00:00:00Z') + days * 86_400_000).toISOString(),
    });
    const hr = '/v4/users/me/dataTypes/heart-rate/dataPoints:rollUp';
    const steps = '/v4/users/me/dataTypes/steps/dataPoints:rollUp';
    expect((await post(hr, { range: range(15), windowSize: '86400s' })).status).toBe(400);
    expect((await post(steps, { range: range(90), windowSize: '86400s' })).status).toBe(200);
    expect((await post(steps, { range: range(91), windowSize: '86400s' })).status).toBe(400);
    const reversed = await post(steps, {
      range: { startTime: '2026-08-02T00:00:00Z', endTime: '2026-08-01T00:00:00Z' },
      windowSize: '60s',
    });
    expect(JSON.stringify(reversed.json)).toContain('INVALID_TIME_RANGE');
  });

  it('sums the same steps as the list', async () => {
    const filter = stepsDay('2026-11-05', '2026-11-06');
    const listed = points((await list('steps', filter, '&pageSize=10000')).json).reduce(
      (sum, p) => sum + Number((p.steps as { count: string }).count),
      0,
    );
    const rolled = await post('/v4/users/me/dataTypes/steps/dataPoints:rollUp', {
      range: { startTime: '2026-11-05T00:00:00Z', endTime: '2026-11-06T00:00:00Z' },
      windowSize: '86400s',
    });
    expect(rollups(rolled.json)).toEqual([
      {
        startTime: '2026-11-05T00:00:00Z',
        endTime: '2026-11-06T00:00:00Z',
        steps: { countSum: String(listed) },
      },
    ]);
  });
});

describe('dailyRollUp', () => {
  it('rejects a bare date in the range, like Google', async () => {
    const response = await post('/v4/users/me/dataTypes/steps/dataPoints:dailyRollUp', {
      range: { start: { year: 2026, month: 11, day: 1 }, end: { year: 2026, month: 11, day: 2 } },
    });
    expect(response.status).toBe(400);
    expect((response.json.error as { message: string }).message).toBe(
      'Invalid JSON payload received. Unknown name "year" at \'range.start\': Cannot find field.',
    );
  });

  it('buckets by each point’s own civil day: 25 hours on the fall-back day, 23 in spring, two zones on travel days', async () => {
    const total = async (from: string, to: string) =>
      rollups(
        (
          await post('/v4/users/me/dataTypes/total-calories/dataPoints:dailyRollUp', {
            range: dayRange(from, to),
          })
        ).json,
      );
    const active = async (from: string, to: string) =>
      rollups(
        (
          await post('/v4/users/me/dataTypes/active-energy-burned/dataPoints:dailyRollUp', {
            range: dayRange(from, to),
          })
        ).json,
      );
    // total = 1.15 kcal basal per minute + active: the basal part counts the day's minutes.
    const minutesOf = async (from: string, to: string) => {
      const [t] = await total(from, to);
      const [a] = await active(from, to);
      if (!t || !a) throw new Error(`no rollup for ${from}`);
      const kcal =
        (t.totalCalories as { kcalSum: number }).kcalSum -
        (a.activeEnergyBurned as { kcalSum: number }).kcalSum;
      return Math.round(kcal / 1.15);
    };
    expect(await minutesOf('2026-11-01', '2026-11-02')).toBe(1500);
    expect(await minutesOf('2026-11-02', '2026-11-03')).toBe(1440);
    expect(await minutesOf('2026-03-08', '2026-03-09')).toBe(1380);
    // Flying east on 10 Nov loses 6 hours of that civil day; flying back on 15 Nov gains them.
    expect(await minutesOf('2026-11-10', '2026-11-11')).toBe(1440 - 360);
    expect(await minutesOf('2026-11-15', '2026-11-16')).toBe(1440 + 360);

    const steps = rollups(
      (
        await post('/v4/users/me/dataTypes/steps/dataPoints:dailyRollUp', {
          range: dayRange('2026-10-31', '2026-11-02'),
        })
      ).json,
    );
    expect(steps).toEqual([
      {
        civilStartTime: { date: { year: 2026, month: 11, day: 1 }, time: {} },
        civilEndTime: { date: { year: 2026, month: 11, day: 2 }, time: {} },
        steps: { countSum: String(civilDayTotals(EMAIL, '2026-11-01').steps) },
      },
      {
        civilStartTime: { date: { year: 2026, month: 10, day: 31 }, time: {} },
        civilEndTime: { date: { year: 2026, month: 11, day: 1 }, time: {} },
        steps: { countSum: String(civilDayTotals(EMAIL, '2026-10-31').steps) },
      },
    ]);
    const travel = civilDayTotals(EMAIL, '2026-11-10');
    expect(travel.minutes).toBe(1080);
    const [travelSteps] = rollups(
      (
        await post('/v4/users/me/dataTypes/steps/dataPoints:dailyRollUp', {
          range: dayRange('2026-11-10', '2026-11-11'),
        })
      ).json,
    );
    expect(travelSteps?.steps).toEqual({ countSum: String(travel.steps) });
  });

  it('enforces the caps in civil days and windowSizeDays buckets', async () => {
    const hr = await post('/v4/users/me/dataTypes/heart-rate/dataPoints:dailyRollUp', {
      range: dayRange('2026-10-01', '2026-10-16'),
    });
    expect(hr.status).toBe(400);
    const weekly = await post('/v4/users/me/dataTypes/steps/dataPoints:dailyRollUp', {
      range: dayRange('2026-10-01', '2026-10-15'),
      windowSizeDays: 7,
    });
    expect(rollups(weekly.json).map((b) => (b.civilStartTime as { date: Json }).date.day)).toEqual([
      8, 1,
    ]);
    const rhr = await post(
      '/v4/users/me/dataTypes/daily-resting-heart-rate/dataPoints:dailyRollUp',
      {
        range: dayRange('2026-11-01', '2026-11-02'),
      },
    );
    const value = civilDayTotals(EMAIL, '2026-11-01').restingHeartRate;
    expect(rollups(rhr.json)[0]?.restingHeartRatePersonalRange).toEqual({
      beatsPerMinuteMin: value,
      beatsPerMinuteMax: value,
    });
  });
});

describe('limits and faults', () => {
  it('answers 429 RESOURCE_EXHAUSTED with Retry-After after 300 requests a minute', async () => {
    const tokens = await connect(sandbox, 'busy.user@example.test');
    // Start at a fresh minute of the sandbox clock so the window does not roll over mid-test.
    const now = sandbox.health.clock.now();
    sandbox.health.clock.advance(60_000 - (now % 60_000) + 1_000);
    const results = [];
    for (let i = 0; i < 301; i++) {
      results.push((await get('/v4/users/me/identity', tokens.access_token)).status);
    }
    expect(results.filter((s) => s === 200)).toHaveLength(300);
    const refused = await get('/v4/users/me/identity', tokens.access_token);
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ error: { code: 429, status: 'RESOURCE_EXHAUSTED' } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Other people are not affected.
    expect((await get('/v4/users/me/identity')).status).toBe(200);
    sandbox.health.clock.advance(60_000);
    expect((await get('/v4/users/me/identity', tokens.access_token)).status).toBe(200);

    // The usage counts every request the quota served or refused, per user, across minutes.
    const { healthUserId } = healthIdentity('busy.user@example.test');
    const usage = await fetch(`${sandbox.httpUrl}/__admin/health/usage`);
    expect(
      ((await usage.json()) as { users: Record<string, unknown> }).users[healthUserId],
    ).toEqual({ requests: 301, refused: 2 });
    expect(sandbox.health.usage()[healthUserId]).toEqual({ requests: 301, refused: 2 });
  });

  it('applies a per-project limit and injected 500/503 answers', async () => {
    sandbox.health.setControls({ perProjectPerMinute: 1 });
    const now = sandbox.health.clock.now();
    sandbox.health.clock.advance(60_000 - (now % 60_000) + 1_000);
    expect((await get('/v4/users/me/identity')).status).toBe(200);
    expect((await get('/v4/users/me/identity')).status).toBe(429);
    sandbox.health.resetControls();

    sandbox.health.setControls({ error500Rate: 1 });
    expect((await get('/v4/users/me/identity')).json).toEqual({
      error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' },
    });
    sandbox.health.setControls({ error500Rate: 0, error503Rate: 0.5 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await get('/v4/users/me/identity')).status);
    expect(statuses).toEqual([200, 503, 200, 503]);
  });

  it("makes accounts' days ahead of their calls, and refuses what it could not keep", async () => {
    const prepare = (body: unknown) =>
      fetch(`${sandbox.httpUrl}/__admin/health/prepare`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    clearGeneratedDays();
    const emails = ['early.one@gmail.test', 'early.two@gmail.test'];
    const made = await prepare({ emails, from: '2026-10-01', to: '2026-10-03' });
    expect(made.status).toBe(200);
    // Three civil days touch five UTC days in some time zone: each account's five are kept.
    expect(await made.json()).toEqual({ days: 10 });
    expect(generatedDays().kept).toBe(10);

    const tooMany = await prepare({ emails, from: '2020-01-01', to: '2026-10-03' });
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { error: string }).error).toContain(
      'raise SANDBOX_GENERATED_DAYS_CACHE',
    );
    for (const body of [
      { emails: [], from: '2026-10-01', to: '2026-10-03' },
      { emails, from: '2026-10-04', to: '2026-10-03' },
      { emails, from: 'yesterday', to: '2026-10-03' },
    ]) {
      expect((await prepare(body)).status).toBe(400);
    }
    expect(generatedDays().kept).toBe(10);
  });

  it('answers 410 Gone on the legacy Fitbit paths', async () => {
    for (const [method, path] of [
      ['GET', '/oauth2/authorize?client_id=x'],
      ['POST', '/oauth2/token'],
      ['GET', '/1/user/-/profile.json'],
      ['GET', '/1.2/user/-/sleep/date/2026-11-01.json'],
    ] as const) {
      const response = await fetch(`${sandbox.httpUrl}${path}`, { method });
      expect(response.status).toBe(410);
    }
  });
});

describe('determinism', () => {
  it('gives the same numbers for the same account and day in another sandbox, and other numbers for another account', async () => {
    const second = await startSandbox({ httpPort: 0, smtpPort: 0 });
    // Both sandboxes share this process: drop the generated days so the second one regenerates them.
    clearGeneratedDays();
    try {
      const again = await connect(second, EMAIL);
      const body = { range: dayRange('2026-10-20', '2026-10-27') };
      const a = await post('/v4/users/me/dataTypes/steps/dataPoints:dailyRollUp', body);
      const b = await api(
        second,
        again.access_token,
        '/v4/users/me/dataTypes/steps/dataPoints:dailyRollUp',
        body,
      );
      expect(rollups(a.json)).toHaveLength(7);
      expect(b.json).toEqual(a.json);
      const filter = encodeURIComponent(
        'heart_rate.sample_time.physical_time >= "2026-10-20T00:00:00Z" AND heart_rate.sample_time.physical_time < "2026-10-20T01:00:00Z"',
      );
      const path = `/v4/users/me/dataTypes/heart-rate/dataPoints?filter=${filter}`;
      expect((await api(second, again.access_token, path)).json).toEqual((await get(path)).json);
      const sam = await connect(second, 'sam.chen@gmail.test');
      const c = await api(
        second,
        sam.access_token,
        '/v4/users/me/dataTypes/steps/dataPoints:dailyRollUp',
        body,
      );
      expect(c.json).not.toEqual(a.json);
    } finally {
      await second.close();
    }
  });
});
