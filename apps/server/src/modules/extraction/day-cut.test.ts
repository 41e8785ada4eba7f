import { describe, expect, it } from 'vitest';
import { cutToDay, cutToDays, DayCutError } from './day-cut.js';
import { DATA_TYPE_CALLS, type PlannedCall } from './plan.js';

/** The call of `key` among a type's specs, over [from, to). */
const call = (
  type: keyof typeof DATA_TYPE_CALLS,
  key: string,
  from: string,
  to: string,
): PlannedCall => {
  const spec = DATA_TYPE_CALLS[type].find((s) => s.key === key);
  if (!spec) throw new Error(key);
  return { spec, from, to };
};
const text = (pages: Map<string, Buffer>) =>
  Object.fromEntries([...pages].map(([date, body]) => [date, JSON.parse(body.toString())]));
const civil = (date: string, hours?: number) => {
  const [year, month, day] = date.split('-').map(Number);
  return { date: { year, month, day }, time: hours ? { hours } : {} };
};
const bucket = (date: string, next: string, value: number) => ({
  civilStartTime: civil(date),
  civilEndTime: civil(next),
  steps: { countSum: String(value) },
});

describe('a daily roll-up over several days', () => {
  it('gives each day its own bucket, newest first as received, an empty day {} and no page token', () => {
    const pages = [
      {
        rollupDataPoints: [
          bucket('2026-11-03', '2026-11-04', 30),
          bucket('2026-11-01', '2026-11-02', 10),
        ],
        nextPageToken: 'more',
      },
    ];
    const days = cutToDays(
      call('activity_steps_timeseries', 'steps', '2026-11-01', '2026-11-04'),
      pages,
    );
    expect([...days.keys()]).toEqual(['2026-11-01', '2026-11-02', '2026-11-03']);
    expect(text(days)).toEqual({
      '2026-11-01': { rollupDataPoints: [bucket('2026-11-01', '2026-11-02', 10)] },
      '2026-11-02': {},
      '2026-11-03': { rollupDataPoints: [bucket('2026-11-03', '2026-11-04', 30)] },
    });
    // The bytes are the JSON of a one-day answer: no spaces, members in the answer's order.
    expect(days.get('2026-11-01')?.toString()).toBe(
      JSON.stringify({ rollupDataPoints: [bucket('2026-11-01', '2026-11-02', 10)] }),
    );
  });

  it('joins the pages of a paged answer before cutting', () => {
    const pages = [
      { rollupDataPoints: [bucket('2026-11-02', '2026-11-03', 2)], nextPageToken: 't' },
      { rollupDataPoints: [bucket('2026-11-01', '2026-11-02', 1)] },
    ];
    const c = call('activity_summary', 'steps', '2026-11-01', '2026-11-03');
    expect(JSON.parse(cutToDay(c, pages, '2026-11-01').toString())).toEqual({
      rollupDataPoints: [bucket('2026-11-01', '2026-11-02', 1)],
    });
    expect(() => cutToDay(c, pages, '2026-11-03')).toThrow(DayCutError);
  });

  it('refuses an answer holding a day outside the range, or a bucket without a day', () => {
    const c = call('activity_steps_timeseries', 'steps', '2026-11-01', '2026-11-03');
    expect(() =>
      cutToDays(c, [{ rollupDataPoints: [bucket('2026-11-05', '2026-11-06', 1)] }]),
    ).toThrow(DayCutError);
    expect(() => cutToDays(c, [{ rollupDataPoints: [{ steps: { countSum: '1' } }] }])).toThrow(
      DayCutError,
    );
  });
});

describe('lists, by the member their filter compares', () => {
  it('daily resting heart rate by its date', () => {
    const point = (day: number, bpm: string) => ({
      dataSource: { recordingMethod: 'DERIVED' },
      dailyRestingHeartRate: { date: { year: 2026, month: 11, day }, beatsPerMinute: bpm },
    });
    const days = cutToDays(
      call('heartrate_summary', 'daily-resting-heart-rate', '2026-11-01', '2026-11-03'),
      [{ dataPoints: [point(2, '61'), point(1, '60')] }],
    );
    expect(text(days)).toEqual({
      '2026-11-01': { dataPoints: [point(1, '60')] },
      '2026-11-02': { dataPoints: [point(2, '61')] },
    });
  });

  it('sleep by the local day it ended, from the end time and its offset when no civil time is given', () => {
    // Ends 03:30 UTC on 2 November = 22:30 on 1 November in New York (-5 h).
    const evening = {
      name: 'users/u/dataTypes/sleep/dataPoints/a',
      sleep: {
        interval: {
          startTime: '2026-11-01T20:00:00Z',
          startUtcOffset: '-18000s',
          endTime: '2026-11-02T03:30:00Z',
          endUtcOffset: '-18000s',
        },
      },
    };
    const night = {
      name: 'users/u/dataTypes/sleep/dataPoints/b',
      sleep: {
        interval: {
          startTime: '2026-11-02T04:00:00Z',
          startUtcOffset: '-18000s',
          endTime: '2026-11-02T12:00:00Z',
          endUtcOffset: '-18000s',
        },
      },
    };
    const days = cutToDays(call('sleep_log', 'sleep', '2026-11-01', '2026-11-03'), [
      { dataPoints: [night, evening] },
    ]);
    expect(text(days)).toEqual({
      '2026-11-01': { dataPoints: [evening] },
      '2026-11-02': { dataPoints: [night] },
    });
  });

  it('intraday steps by the civil start the answer gives (a DST day: the offset changes)', () => {
    const minute = (startTime: string, offset: string, civilDate: string, hours: number) => ({
      steps: {
        interval: { startTime, startUtcOffset: offset, civilStartTime: civil(civilDate, hours) },
        count: '5',
      },
    });
    const late = minute('2026-11-02T04:59:00Z', '-18000s', '2026-11-01', 23);
    const early = minute('2026-11-01T03:59:00Z', '-14400s', '2026-10-31', 23);
    const days = cutToDays(call('activity_steps_intraday', 'steps', '2026-10-31', '2026-11-02'), [
      { dataPoints: [late, early] },
    ]);
    expect(text(days)).toEqual({
      '2026-10-31': { dataPoints: [early] },
      '2026-11-01': { dataPoints: [late] },
    });
  });
});

describe('60-second roll-ups', () => {
  it('by the UTC day of the bucket start (their range is UTC instants)', () => {
    const b = (startTime: string) => ({ startTime, heartRate: { beatsPerMinuteAvg: 60 } });
    const days = cutToDays(
      call('heartrate_intraday_1min', 'heart-rate', '2026-11-01', '2026-11-03'),
      [{ rollupDataPoints: [b('2026-11-02T00:00:00Z'), b('2026-11-01T23:59:00Z')] }],
    );
    expect(text(days)).toEqual({
      '2026-11-01': { rollupDataPoints: [b('2026-11-01T23:59:00Z')] },
      '2026-11-02': { rollupDataPoints: [b('2026-11-02T00:00:00Z')] },
    });
  });
});

it('refuses a call without a day range (the profile)', () => {
  expect(() => cutToDays({ spec: DATA_TYPE_CALLS.profile[0] as never }, [{}])).toThrow(DayCutError);
});
