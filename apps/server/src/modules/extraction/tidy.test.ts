import { describe, expect, it } from 'vitest';
import {
  civilDateTimeText,
  civilTime,
  dictionaryRows,
  orderRows,
  rowsOfPage,
  seconds,
  tidyRows,
} from './tidy.js';

const sample = (physicalTime: string, utcOffset: unknown, civilTime: unknown, bpm: string) => ({
  dataSource: { recordingMethod: 'PASSIVELY_MEASURED', platform: 'FITBIT' },
  heartRate: {
    sampleTime: {
      physicalTime,
      ...(utcOffset === undefined ? {} : { utcOffset }),
      ...(civilTime === undefined ? {} : { civilTime }),
    },
    beatsPerMinute: bpm,
  },
});
const civil = (year: number, month: number, day: number, time: Record<string, number>) => ({
  date: { year, month, day },
  time,
});
const window = { start: '2026-11-01', end: '2026-11-01' };
const heartRate = (pages: unknown[]) =>
  tidyRows('heartrate_intraday_1sec', 'p-1', window, [{ key: 'heart-rate', pages }]);

describe('raw heart-rate rows', () => {
  it('take the civil time the provider reports with each sample', () => {
    const rows = heartRate([
      {
        dataPoints: [
          // 01:30 local, the second time on the DST day: only the offset tells which.
          sample(
            '2026-11-01T06:30:00Z',
            '-18000s',
            civil(2026, 11, 1, { hours: 1, minutes: 30 }),
            '60',
          ),
          // Midnight: Google omits zero time parts, so `time` is empty.
          sample('2026-11-01T04:00:00Z', '-14400s', civil(2026, 11, 1, {}), '58'),
        ],
      },
    ]);
    expect(rows).toEqual([
      ['p-1', '2026-11-01T04:00:00Z', -14400, '2026-11-01T00:00:00', 58, 'FITBIT'],
      ['p-1', '2026-11-01T06:30:00Z', -18000, '2026-11-01T01:30:00', 60, 'FITBIT'],
    ]);
    // The device's name when the source gives one, the platform otherwise.
    const watch = sample('2026-11-01T04:00:00Z', '-14400s', undefined, '58');
    const named = { ...watch, dataSource: { device: { displayName: 'Pixel Watch 4' } } };
    expect(heartRate([{ dataPoints: [named] }])[0]?.[5]).toBe('Pixel Watch 4');
    expect(heartRate([{ dataPoints: [{ heartRate: watch.heartRate }] }])[0]?.[5]).toBeNull();
  });

  it('keep the provider’s civil time when it gives no offset, and compute it when it gives none', () => {
    const rows = heartRate([
      {
        dataPoints: [
          sample(
            '2026-11-01T12:00:07Z',
            undefined,
            civil(2026, 11, 1, { hours: 7, seconds: 7 }),
            '70',
          ),
          sample('2026-11-01T11:00:00Z', '-18000s', undefined, '71'),
          // A malformed civil time is not trusted: instant plus offset instead.
          sample('2026-11-01T10:00:00Z', '-18000s', civil(2026, 13, 1, {}), '72'),
          sample('2026-11-01T09:00:00Z', undefined, undefined, '73'),
        ],
      },
    ]);
    expect(rows.map((r) => [r[2], r[3]])).toEqual([
      [null, null],
      [-18000, '2026-11-01T05:00:00'],
      [-18000, '2026-11-01T06:00:00'],
      [null, '2026-11-01T07:00:07'],
    ]);
  });

  it('come out oldest first from newest-first pages, equal instants in the order listed', () => {
    const page1 = {
      dataPoints: [
        sample('2026-11-01T00:00:09Z', '-14400s', undefined, '1'),
        sample('2026-11-01T00:00:05Z', '-14400s', undefined, '2'),
        sample('2026-11-01T00:00:05Z', '-14400s', undefined, '3'),
      ],
      nextPageToken: 'next',
    };
    const page2 = { dataPoints: [sample('2026-11-01T00:00:01Z', '-14400s', undefined, '4')] };
    const rows = heartRate([page1, page2]);
    expect(rows.map((r) => r[4])).toEqual([4, 2, 3, 1]);
    // A page at a time (as the engine keeps them) gives the same rows.
    const byPage = [page1, page2].flatMap(
      (page) => rowsOfPage('heartrate_intraday_1sec', 'p-1', 'heart-rate', page) ?? [],
    );
    expect(orderRows('heartrate_intraday_1sec', window, byPage)).toEqual(rows);
    // Types whose rows need all the pages are tidied from them at the end.
    expect(rowsOfPage('heartrate_timeseries', 'p-1', 'heart-rate', page1)).toBeNull();
  });
});

describe('small readers', () => {
  it('move an instant by its offset exactly as Date does, across midnight and on odd input', () => {
    const viaDate = (instant: string, offset: number) => {
      const ms = Date.parse(instant);
      return Number.isNaN(ms) ? null : new Date(ms + offset * 1000).toISOString().slice(0, 19);
    };
    const instants = [
      '2026-11-01T05:59:59Z',
      '2026-11-01T00:00:00Z',
      '2026-11-01T23:59:59Z',
      '2026-12-31T23:30:00Z',
      '2024-02-29T22:00:00Z',
      '2026-11-01T05:59:59.750Z',
      '2026-11-01T24:00:00Z',
      '2026-13-01T10:00:00Z',
      '2026-02-30T10:00:00Z',
      '2026-11-01T1a:00:00Z',
      '2026-11-01T10:0a:00Z',
      '2026-11-01T10:00:-1Z',
      'not a time at all, no',
    ];
    for (const instant of instants) {
      for (const offset of [0, -18000, -14400, 3600, 19800, 50400, -43200, 1.5]) {
        expect(civilTime(instant, offset), `${instant} ${offset}`).toBe(viaDate(instant, offset));
      }
    }
    expect(civilTime('2026-11-01T05:59:59Z', null)).toBeNull();
  });

  it('parse durations and civil date-times', () => {
    expect([
      seconds('-18000s'),
      seconds('3600s'),
      seconds('60.5s'),
      seconds('5m'),
      seconds(5),
    ]).toEqual([-18000, 3600, 60.5, null, null]);
    expect(civilDateTimeText(civil(2026, 3, 8, { hours: 23, minutes: 5 }))).toBe(
      '2026-03-08T23:05:00',
    );
    expect(civilDateTimeText(civil(2026, 3, 8, { hours: 24 }))).toBeNull();
    expect(civilDateTimeText({ date: { year: 2026, month: 3 } })).toBeNull();
  });

  it('say in the data dictionary where minute roll-ups take their offset from, and name the source', () => {
    for (const type of ['activity_calories_intraday', 'heartrate_intraday_1min'] as const) {
      const described = new Map(dictionaryRows([type]).map((r) => [r[1], String(r[2])]));
      expect(described.get('timestamp_utc')).toMatch(/local midnight/);
      expect(described.get('utc_offset_seconds')).toMatch(/time zone .*at the bucket’s start/);
      expect(described.get('civil_time')).toMatch(/^Local wall-clock time/);
      expect(described.has('source')).toBe(false);
    }
    for (const type of ['activity_steps_intraday', 'heartrate_intraday_1sec'] as const) {
      const described = new Map(dictionaryRows([type]).map((r) => [r[1], String(r[2])]));
      expect(described.get('source')).toMatch(/^The device that recorded the point/);
    }
  });
});

describe('one-minute roll-up rows', () => {
  const bucket = (startTime: string, avg: number) => ({
    startTime,
    heartRate: { beatsPerMinuteAvg: avg, beatsPerMinuteMin: avg - 1, beatsPerMinuteMax: avg + 1 },
  });
  it('take the offset and local time of the participant’s zone at each bucket, 01:xx twice on a DST day', () => {
    const pages = [
      {
        rollupDataPoints: [
          bucket('2026-11-01T09:00:00Z', 61),
          bucket('2026-11-01T08:00:00Z', 60),
          bucket('2026-11-01T07:00:00Z', 59),
        ],
      },
    ];
    const rows = tidyRows(
      'heartrate_intraday_1min',
      'p-1',
      window,
      [{ key: 'heart-rate', pages }],
      'America/Los_Angeles',
    );
    expect(rows.map((r) => r.slice(1, 4))).toEqual([
      ['2026-11-01T07:00:00Z', -25200, '2026-11-01T00:00:00'],
      ['2026-11-01T08:00:00Z', -25200, '2026-11-01T01:00:00'],
      ['2026-11-01T09:00:00Z', -28800, '2026-11-01T01:00:00'],
    ]);
    // Without a zone given, the zone the task's settings answer names; none: UTC.
    const withSettings = tidyRows('heartrate_intraday_1min', 'p-1', window, [
      { key: 'settings', pages: [{ timeZone: 'America/Los_Angeles' }] },
      { key: 'heart-rate', pages },
    ]);
    expect(withSettings).toEqual(rows);
    const utc = tidyRows('heartrate_intraday_1min', 'p-1', window, [{ key: 'heart-rate', pages }]);
    expect(utc[0]?.slice(1, 4)).toEqual(['2026-11-01T07:00:00Z', 0, '2026-11-01T07:00:00']);
  });
});
