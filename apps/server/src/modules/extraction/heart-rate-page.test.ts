import { describe, expect, it } from 'vitest';
import { toCsv } from './csv.js';
import { heartRatePageColumns, TidiedPage, tidyHeartRatePage } from './heart-rate-page.js';
import { rowsOfPage } from './tidy.js';

const PARTICIPANT = '6f1c2a9e-0000-4000-8000-000000000001';
/** The engine's partial response: the device's name and platform, then the sample (null: none). */
const WATCH = { device: { displayName: 'Charge 6' }, platform: 'FITBIT' };
const sample = (time: string, offset: string, bpm: string, dataSource: unknown = WATCH) => ({
  ...(dataSource === null ? {} : { dataSource }),
  heartRate: { sampleTime: { physicalTime: time, utcOffset: offset }, beatsPerMinute: bpm },
});

/** Samples every `step` seconds, newest first, from `newest` back over `count` samples. */
function samples(newest: string, count: number, step: number, offsetAt: (ms: number) => string) {
  const top = Date.parse(newest);
  return Array.from({ length: count }, (_, n) => {
    const ms = top - n * step * 1000;
    return sample(new Date(ms).toISOString().replace('.000Z', 'Z'), offsetAt(ms), String(50 + n));
  });
}

/** The generic path: JSON.parse, rowsOfPage, toCsv of the rows oldest first. */
function generic(bytes: Buffer) {
  const page = JSON.parse(bytes.toString('utf8')) as { nextPageToken?: string };
  const rows = rowsOfPage('heartrate_intraday_1sec', PARTICIPANT, 'heart-rate', page) ?? [];
  return {
    csv: toCsv([...rows].reverse()),
    rows: rows.length,
    newest: rows[0]?.[1] ?? null,
    oldest: rows.at(-1)?.[1] ?? null,
    nextPageToken: page.nextPageToken,
  };
}

function expectSameAsGeneric(bytes: Buffer) {
  const fast = tidyHeartRatePage(bytes, PARTICIPANT);
  expect(fast).toBeInstanceOf(TidiedPage);
  const tidied = fast as TidiedPage;
  expect({
    csv: tidied.csv.toString('utf8'),
    rows: tidied.rows,
    newest: tidied.newest,
    oldest: tidied.oldest,
    nextPageToken: tidied.nextPageToken,
  }).toEqual(generic(bytes));
  return tidied;
}

const json = (value: unknown, indent?: number) => Buffer.from(JSON.stringify(value, null, indent));

// New York: -4 h until 2026-11-01T06:00Z, then -5 h (the DST day); Tokyo +9 h.
const newYork = (ms: number) => (ms < Date.parse('2026-11-01T06:00:00Z') ? '-14400s' : '-18000s');

describe('raw heart-rate pages read from their bytes', () => {
  it('give the generic rows across the DST change, UTC midnight and both date shifts', () => {
    const dst = expectSameAsGeneric(
      json({
        dataPoints: samples('2026-11-01T07:00:00Z', 10_000, 3, newYork),
        nextPageToken: 'Ab-_9',
      }),
    );
    expect(dst.rows).toBe(10_000);
    expect(dst.nextPageToken).toBe('Ab-_9');
    // The oldest sample is 2026-10-31T22:40:03Z: 18:40:03 in New York, the same civil day.
    expect(dst.csv.toString().split('\n')[0]).toBe(
      `${PARTICIPANT},2026-10-31T22:40:03Z,-14400,2026-10-31T18:40:03,10049,Charge 6`,
    );
    // After the change: 2026-11-01T06:00:00Z is 01:00:00 at -5 h.
    expect(dst.csv.toString()).toContain(`,2026-11-01T06:00:00Z,-18000,2026-11-01T01:00:00,`);
    // Tokyo: local time moves to the next day before UTC midnight.
    const tokyo = expectSameAsGeneric(
      json({ dataPoints: samples('2026-11-10T16:00:00Z', 4000, 1, () => '32400s') }),
    );
    expect(tokyo.csv.toString()).toContain(`,2026-11-10T15:00:00Z,32400,2026-11-11T00:00:00,`);
    expect(tokyo.nextPageToken).toBeUndefined();
    // Offsets of zero and across year and leap-day ends.
    expectSameAsGeneric(json({ dataPoints: samples('2027-01-01T00:00:30Z', 60, 1, () => '0s') }));
    expectSameAsGeneric(
      json({ dataPoints: samples('2028-03-01T02:00:00Z', 50, 120, () => '-10800s') }),
    );
    expectSameAsGeneric(
      json({ dataPoints: samples('2026-12-31T23:30:00Z', 50, 60, () => '3600s') }),
    );
  });

  it('read the source as the generic path does: the device’s name, else the platform', () => {
    const at = (n: number) => `2026-11-05T12:00:0${n}Z`;
    const page = json({
      dataPoints: [
        sample(at(9), '0s', '70'),
        sample(at(8), '0s', '71', { platform: 'FITBIT' }),
        sample(at(7), '0s', '72', { platform: 'FITBIT', device: { displayName: 'Pixel Watch 4' } }),
        sample(at(6), '0s', '73', { device: { displayName: 'Pixel Watch 4' } }),
        sample(at(5), '0s', '74', { device: { displayName: '' }, platform: 'FITBIT' }),
        sample(at(4), '0s', '75', {}),
        sample(at(3), '0s', '76', null),
        sample(at(2), '0s', '77', { device: { displayName: 'Montre à 10 €' }, platform: 'FITBIT' }),
      ],
    });
    const tidied = expectSameAsGeneric(page);
    expect(
      tidied.csv
        .toString()
        .split('\n')
        .map((line) => line.split(',')[5]),
    ).toEqual([
      'Montre à 10 €',
      '',
      '',
      'FITBIT',
      'Pixel Watch 4',
      'Pixel Watch 4',
      'FITBIT',
      'Charge 6',
      undefined,
    ]);
    expectSameAsGeneric(json(JSON.parse(page.toString()), 2));
    const columns = heartRatePageColumns(page);
    expect(columns?.source).toEqual([
      'Montre à 10 €',
      null,
      null,
      'FITBIT',
      'Pixel Watch 4',
      'Pixel Watch 4',
      'FITBIT',
      'Charge 6',
    ]);
  });

  it('accept white space between tokens, empty pages and a page of only a token', () => {
    const page = {
      dataPoints: samples('2026-11-05T12:00:00Z', 30, 1, () => '-18000s'),
      nextPageToken: 'x',
    };
    expectSameAsGeneric(json(page, 2));
    expectSameAsGeneric(
      Buffer.from(
        ` \r\n${JSON.stringify(page).replaceAll('":', '" :\t').replaceAll(',', ' , ')}\n`,
      ),
    );
    for (const empty of [
      '{}',
      '{"dataPoints":[]}',
      '{ "dataPoints" : [ ] , "nextPageToken" : "t" }',
    ]) {
      expect(expectSameAsGeneric(Buffer.from(empty)).rows).toBe(0);
    }
    expect(expectSameAsGeneric(Buffer.from('{"nextPageToken":"t"}')).nextPageToken).toBe('t');
  });

  it('quote a participant id as the CSV writer does', () => {
    const bytes = json({ dataPoints: samples('2026-11-05T12:00:00Z', 2, 1, () => '0s') });
    const tidied = tidyHeartRatePage(bytes, 'a,"b"') as TidiedPage;
    expect(tidied.csv.toString()).toBe(
      toCsv(
        (
          rowsOfPage(
            'heartrate_intraday_1sec',
            'a,"b"',
            'heart-rate',
            JSON.parse(bytes.toString()),
          ) ?? []
        ).reverse(),
      ),
    );
  });

  it('leave every other shape to the generic path', () => {
    const one = (over: Record<string, unknown> = {}, time = '2026-11-05T12:00:00Z') => ({
      heartRate: {
        sampleTime: { physicalTime: time, utcOffset: '-18000s', ...over },
        beatsPerMinute: '72',
      },
    });
    const valid = JSON.stringify({ dataPoints: [one()], nextPageToken: 't' });
    expect(tidyHeartRatePage(Buffer.from(valid), PARTICIPANT)).toBeInstanceOf(TidiedPage);
    const variants: [string, string][] = [
      [
        'members in another order',
        valid
          .replace('"dataPoints":[', '"dataPoints": [')
          .replace(
            /"physicalTime":("[^"]*"),"utcOffset":("[^"]*")/,
            '"utcOffset":$2,"physicalTime":$1',
          ),
      ],
      ['the token first', JSON.stringify({ nextPageToken: 't', dataPoints: [one()] })],
      [
        'a data source with another member',
        JSON.stringify({ dataPoints: [{ dataSource: { recordingMethod: 'X' }, ...one() }] }),
      ],
      [
        'a data source after the sample',
        JSON.stringify({ dataPoints: [{ ...one(), dataSource: { platform: 'FITBIT' } }] }),
      ],
      [
        'a comma in the device’s name',
        JSON.stringify({
          dataSource: undefined,
          dataPoints: [{ dataSource: { device: { displayName: 'a,b' } }, ...one() }],
        }),
      ],
      [
        'an escape in the device’s name',
        JSON.stringify({ dataPoints: [{ dataSource: { platform: 'A"B' }, ...one() }] }),
      ],
      [
        'a device with more than its name',
        JSON.stringify({
          dataPoints: [
            { dataSource: { device: { displayName: 'W', formFactor: 'WATCH' } }, ...one() },
          ],
        }),
      ],
      ['the provider’s civil time', JSON.stringify({ dataPoints: [one({ civilTime: {} })] })],
      ['an escape in the token', valid.replace('"t"', '"t\\u0041"')],
      ['a fraction of a second', valid.replace('12:00:00Z', '12:00:00.5Z')],
      ['an offset of -0', valid.replace('-18000s', '-0s')],
      ['an offset with a fraction', valid.replace('-18000s', '-18000.5s')],
      ['an offset of a day', valid.replace('-18000s', '-86400s')],
      ['a leading zero', valid.replace('"72"', '"072"')],
      ['a number, not a string', valid.replace('"72"', '72')],
      ['Feb 30', valid.replace('2026-11-05', '2026-02-30')],
      ['hour 24', valid.replace('T12:', 'T24:')],
      ['a year near 0000', valid.replace('2026-11-05', '0000-01-01')],
      ['a trailing comma', valid.replace(']', ',]')],
      ['a second object', `${valid}{}`],
      ['truncated', valid.slice(0, -2)],
      ['a byte-order mark', `\uFEFF${valid}`],
      ['another type', JSON.stringify({ dataPoints: [{ steps: { count: '3' } }] })],
      [
        'oldest first',
        JSON.stringify({
          dataPoints: [one({}, '2026-11-05T12:00:00Z'), one({}, '2026-11-05T12:00:01Z')],
        }),
      ],
      ['two samples at one instant', JSON.stringify({ dataPoints: [one(), one()] })],
      [
        'days oldest first',
        JSON.stringify({
          dataPoints: [one({}, '2026-11-04T23:00:00Z'), one({}, '2026-11-05T01:00:00Z')],
        }),
      ],
    ];
    for (const [what, text] of variants) {
      expect(tidyHeartRatePage(Buffer.from(text), PARTICIPANT), what).toBeNull();
    }
  });

  it('never accept a page the generic path reads differently (random byte edits)', () => {
    // Deterministic pseudo-random edits of a real-shaped page: replace, insert or delete bytes.
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const base = json(
      { dataPoints: samples('2026-11-01T06:00:02Z', 8, 1, newYork), nextPageToken: 'tok' },
      1,
    );
    const alphabet = Buffer.from('0123456789-:TZs",{}[] \n\\.a');
    let accepted = 0;
    for (let n = 0; n < 4000; n++) {
      const bytes = Buffer.from(base);
      const at = Math.floor(random() * bytes.length);
      const byte = alphabet[Math.floor(random() * alphabet.length)] as number;
      const edit = random();
      let edited = bytes;
      if (edit < 0.6) bytes[at] = byte;
      else if (edit < 0.8) {
        edited = Buffer.concat([bytes.subarray(0, at), Buffer.from([byte]), bytes.subarray(at)]);
      } else edited = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1)]);
      const fast = tidyHeartRatePage(edited, PARTICIPANT);
      if (!fast) continue;
      accepted += 1;
      const expected = generic(edited); // throws if it is not JSON
      expect(fast.csv.toString()).toBe(expected.csv);
      expect([fast.rows, fast.newest, fast.oldest, fast.nextPageToken]).toEqual([
        expected.rows,
        expected.newest,
        expected.oldest,
        expected.nextPageToken,
      ]);
    }
    // Edits of digits and white space keep the shape: the fast path is exercised, not skipped.
    expect(accepted).toBeGreaterThan(200);
  });
  it('give the same rows as typed columns, oldest first, across the DST change and date shifts', () => {
    for (const bytes of [
      json({ dataPoints: samples('2026-11-01T07:00:00Z', 10_000, 3, newYork), nextPageToken: 'x' }),
      json({ dataPoints: samples('2026-11-10T16:00:00Z', 4000, 1, () => '32400s') }),
    ]) {
      const columns = heartRatePageColumns(bytes);
      const rows = generic(bytes)
        .csv.trimEnd()
        .split('\n')
        .map((line) => line.split(','));
      expect(columns?.rows).toBe(rows.length);
      const seen = rows.map((_, n) => [
        PARTICIPANT,
        new Date(columns?.timeMs[n] as number).toISOString().replace('.000Z', 'Z'),
        String(columns?.utcOffsetSeconds[n]),
        new Date(columns?.civilMs[n] as number).toISOString().slice(0, 19),
        String(columns?.bpm[n]),
        columns?.source[n] ?? '',
      ]);
      expect(seen).toEqual(rows);
    }
    expect(heartRatePageColumns(json({ dataPoints: [{ heartRate: {} }] }))).toBeNull();
  });
});
