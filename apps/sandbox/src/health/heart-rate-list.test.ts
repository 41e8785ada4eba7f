import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../index.js';
import { api, connect, type Tokens } from '../test/health-flow.js';
import { parseInstant } from './civil.js';
import { healthIdentity } from './data-generator.js';
import { findType, type TypeSpec } from './data-types.js';
import { applyFieldMask, parseFieldMask } from './field-mask.js';
import { type ListCaller, listPoints } from './resource-server.js';

// Golden test of the heart-rate text writer: every page it writes must be byte for byte what
// JSON.stringify makes of the generic listing (pointsOfUnit), which it replaced for speed.

const EMAIL = 'golden.heart@gmail.test';
const found = findType('heart-rate');
if (!found) throw new Error('heart-rate type missing');
const type: TypeSpec = found;
const caller = (now = Date.now()): ListCaller => ({
  email: EMAIL,
  healthUserId: healthIdentity(EMAIL).healthUserId,
  now,
});
const civilDay = (date: string, next: string) =>
  `heart_rate.sample_time.civil_time >= "${date}" AND heart_rate.sample_time.civil_time < "${next}"`;

/** Follows the pages of one request with both writers; returns the texts and the page count. */
function comparePages(
  params: Record<string, string>,
  reconcile = false,
  who = caller(),
  maxPages = 100,
  fieldsText?: string,
) {
  const fields = fieldsText ? parseFieldMask(fieldsText) : null;
  let pageToken: string | undefined;
  let pages = 0;
  let points = 0;
  do {
    const query = new URLSearchParams({ ...params, ...(pageToken ? { pageToken } : {}) });
    const whole = listPoints(who, type, query, reconcile, false, { generic: true });
    const generic = fields ? applyFieldMask(whole, fields) : whole;
    const text = listPoints(who, type, query, reconcile, false, { fields });
    expect(typeof text).toBe('string');
    expect(text, `page ${pages + 1} of ${JSON.stringify(params)}`).toBe(JSON.stringify(generic));
    // The page token is followed even when the selection leaves it out of the answer.
    const parsed = whole as { dataPoints?: unknown[]; nextPageToken?: string };
    points += parsed.dataPoints?.length ?? 0;
    pageToken = parsed.nextPageToken;
    pages += 1;
  } while (pageToken && pages < maxPages);
  return { pages, points };
}

describe('raw heart-rate pages written as text', () => {
  it.each([
    ['an ordinary day', '2026-11-04', '2026-11-05'],
    ['the DST day (25 hours)', '2026-11-01', '2026-11-02'],
    ['the day of the flight to Berlin', '2026-11-10', '2026-11-11'],
    ['the day of the flight back', '2026-11-15', '2026-11-16'],
  ])('are byte-equal to the generic listing on %s, every page', (_name, date, next) => {
    const { pages, points } = comparePages({ filter: civilDay(date, next), pageSize: '10000' });
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(points).toBeGreaterThan(20_000);
  });

  it.each([
    'dataPoints(heartRate(sampleTime(physicalTime,utcOffset),beatsPerMinute)),nextPageToken',
    'dataPoints(dataSource(device/displayName,platform),heartRate(sampleTime(physicalTime,utcOffset),beatsPerMinute)),nextPageToken',
    'dataPoints(dataSource/recordingMethod,heartRate/beatsPerMinute)',
    'dataPoints/heartRate/sampleTime/civilTime,dataPoints/dataSource',
    'dataPoints(heartRate/beatsPerMinute)',
    'dataPoints(dataSource,heartRate(sampleTime(utcOffset,civilTime)))',
    'dataPoints/*,nextPageToken',
    'dataPoints(unknownField)',
  ])('are byte-equal to the generic listing with the field mask %s applied', (fields) => {
    const filter = civilDay('2026-11-01', '2026-11-02');
    const { pages } = comparePages({ filter, pageSize: '10000' }, false, caller(), 100, fields);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(
      comparePages({ filter, pageSize: '3000' }, true, caller(), 2, fields).pages,
    ).toBeGreaterThan(0);
  });

  it('are byte-equal for reconcile, physical-time filters, small pages and no filter', () => {
    const physical =
      'heart_rate.sample_time.physical_time >= "2026-11-10T12:00:00Z" AND heart_rate.sample_time.physical_time < "2026-11-10T16:30:00Z"';
    expect(comparePages({ filter: physical, pageSize: '2500' }, true).pages).toBeGreaterThan(1);
    expect(comparePages({ filter: physical, pageSize: '777' }).pages).toBeGreaterThan(1);
    // Open-ended, across the flight back: Berlin wall time until 09:00Z, New York after.
    const open = 'heart_rate.sample_time.civil_time >= "2026-11-15T05:00:00"';
    expect(
      comparePages(
        { filter: open, pageSize: '10000' },
        false,
        caller(parseInstant('2026-11-15T11:00:00Z') ?? 0),
      ).points,
    ).toBeGreaterThan(1000);
    // Without a filter or page size: pages of 1,440, newest before now (the first 30 of them).
    const unfiltered = comparePages(
      {},
      false,
      caller(parseInstant('2026-11-15T11:00:00Z') ?? 0),
      30,
    );
    expect(unfiltered).toEqual({ pages: 30, points: 30 * 1440 });
  }, 60_000);

  it('hide samples after the sandbox’s now, as the generic listing does', () => {
    // Now is mid-afternoon on the travel day: the rest of the day does not exist yet.
    const now = parseInstant('2026-11-10T15:12:07Z') ?? 0;
    const { points } = comparePages(
      { filter: civilDay('2026-11-10', '2026-11-11'), pageSize: '10000' },
      false,
      caller(now),
    );
    expect(points).toBeGreaterThan(1000);
    expect(points).toBeLessThan(25_000);
  });

  it('an answer over an empty range is {}', () => {
    const query = new URLSearchParams({ filter: civilDay('2023-01-01', '2023-01-02') });
    expect(listPoints(caller(), type, query, false, false)).toBe('{}');
    expect(JSON.stringify(listPoints(caller(), type, query, false, false, { generic: true }))).toBe(
      '{}',
    );
  });
});

describe('over HTTP', () => {
  let sandbox: Sandbox;
  let tokens: Tokens;

  beforeAll(async () => {
    sandbox = await startSandbox({ httpPort: 0, smtpPort: 0 });
    tokens = await connect(sandbox, EMAIL);
  });

  afterAll(async () => {
    await sandbox.close();
  });

  it('sends the text as JSON, with the same bytes and content type as a serialised object', async () => {
    const params = { filter: civilDay('2026-11-04', '2026-11-05'), pageSize: '10000' };
    const url = `${sandbox.health.urls.apiBaseUrl}/v4/users/me/dataTypes/heart-rate/dataPoints?${new URLSearchParams(params)}`;
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const generic = listPoints(caller(), type, new URLSearchParams(params), false, false, {
      generic: true,
    });
    expect(await response.text()).toBe(JSON.stringify(generic));
    // A partial response is the same listing with the selection applied, and far smaller.
    const fields = 'dataPoints(heartRate(sampleTime(physicalTime,utcOffset),beatsPerMinute))';
    const partial = await fetch(`${url}&fields=${encodeURIComponent(fields)}`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    const partialText = await partial.text();
    expect(partialText).toBe(JSON.stringify(applyFieldMask(generic, parseFieldMask(fields))));
    expect(partialText.length * 2.5).toBeLessThan(JSON.stringify(generic).length);
    // Other types are still objects Fastify serialises, with the same content type.
    const steps = await api(sandbox, tokens.access_token, '/v4/users/me/identity');
    expect(steps.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('applies fields to every answer and refuses a malformed one with 400', async () => {
    const identity = await api(
      sandbox,
      tokens.access_token,
      '/v4/users/me/identity?fields=healthUserId',
    );
    expect(Object.keys(identity.json)).toEqual(['healthUserId']);
    const bad = await api(sandbox, tokens.access_token, '/v4/users/me/identity?fields=a(b');
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({
      error: { status: 'INVALID_ARGUMENT', message: 'Invalid field selection: a(b' },
    });
  });
});
