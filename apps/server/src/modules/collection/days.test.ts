import { describe, expect, it } from 'vitest';
import { sweepDays } from './days.js';

const base = {
  types: ['activity_steps_timeseries', 'sleep_log'] as const,
  timeZone: 'America/New_York',
  // 2026-11-26 09:00 in New York.
  now: new Date('2026-11-26T14:00:00Z'),
  restatementDays: 3,
  backfillDays: 2,
};

describe('sweepDays', () => {
  it('asks for the window every time and nothing before the civil day of enrolment', () => {
    // 01:00 UTC on the 25th is still the 24th in New York.
    const days = sweepDays({ ...base, enrolledAt: new Date('2026-11-25T01:00:00Z'), ledger: [] });
    expect(days.get('sleep_log')).toEqual(['2026-11-24', '2026-11-25', '2026-11-26']);
  });

  it('backfills settled days never, unfetched days before failed ones, at most the bound', () => {
    const days = sweepDays({
      ...base,
      enrolledAt: new Date('2026-11-18T15:00:00Z'),
      ledger: [
        // The 18th: failed for steps; the 19th: settled for both; the 20th: steps settled only.
        { dataType: 'activity_steps_timeseries', date: '2026-11-18', state: 'failed' },
        { dataType: 'sleep_log', date: '2026-11-18', state: 'complete' },
        { dataType: 'activity_steps_timeseries', date: '2026-11-19', state: 'complete' },
        { dataType: 'sleep_log', date: '2026-11-19', state: 'empty' },
        { dataType: 'activity_steps_timeseries', date: '2026-11-20', state: 'complete' },
        { dataType: 'sleep_log', date: '2026-11-26', state: 'complete' },
      ],
    });
    const window = ['2026-11-24', '2026-11-25', '2026-11-26'];
    // Never fetched first (sleep on the 20th, both on the 21st), the failed 18th after them.
    expect(days.get('sleep_log')).toEqual(['2026-11-20', '2026-11-21', ...window]);
    expect(days.get('activity_steps_timeseries')).toEqual(['2026-11-21', ...window]);
  });

  it('fetches again a settled day of a type whose partition format has changed since', () => {
    const days = sweepDays({
      ...base,
      types: ['activity_steps_timeseries', 'heartrate_intraday_1min'],
      backfillDays: 5,
      enrolledAt: new Date('2026-11-20T15:00:00Z'),
      ledger: ['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23'].flatMap((date) => [
        // Written before formats: the minute roll-up was cut at UTC midnights then.
        { dataType: 'heartrate_intraday_1min' as const, date, state: 'complete' as const },
        { dataType: 'activity_steps_timeseries' as const, date, state: 'complete' as const },
      ]),
    });
    const window = ['2026-11-24', '2026-11-25', '2026-11-26'];
    expect(days.get('heartrate_intraday_1min')).toEqual([
      '2026-11-20',
      '2026-11-21',
      '2026-11-22',
      '2026-11-23',
      ...window,
    ]);
    expect(days.get('activity_steps_timeseries')).toEqual(window);
    // Written in the current format: settled.
    const current = sweepDays({
      ...base,
      types: ['heartrate_intraday_1min'],
      enrolledAt: new Date('2026-11-23T15:00:00Z'),
      ledger: [
        { dataType: 'heartrate_intraday_1min', date: '2026-11-23', state: 'complete', format: 2 },
      ],
    });
    expect(current.get('heartrate_intraday_1min')).toEqual(window);
  });

  it('leaves out window days a notification fetched after the device last synced, and days deleted at the source', () => {
    const syncedThrough = new Date('2026-11-26T12:00:00Z');
    const notified = { kind: 'notification' as const, id: 'n-1' };
    const days = sweepDays({
      ...base,
      enrolledAt: new Date('2026-11-24T15:00:00Z'),
      syncedThrough,
      ledger: [
        // Fetched for a notification after the sync: covered.
        {
          dataType: 'sleep_log',
          date: '2026-11-25',
          state: 'complete',
          fetchedAt: new Date('2026-11-26T12:05:00Z'),
          trigger: notified,
        },
        // Fetched for a notification before the sync: the device sent more since.
        {
          dataType: 'sleep_log',
          date: '2026-11-26',
          state: 'partial',
          fetchedAt: new Date('2026-11-26T11:00:00Z'),
          trigger: notified,
        },
        // Deleted at the source: left alone.
        {
          dataType: 'activity_steps_timeseries',
          date: '2026-11-24',
          state: 'deleted_at_source',
        },
        // Fetched by a sweep after the sync: Google may still restate it, so fetched again.
        {
          dataType: 'activity_steps_timeseries',
          date: '2026-11-25',
          state: 'complete',
          fetchedAt: new Date('2026-11-26T12:05:00Z'),
          trigger: { kind: 'sweep' },
        },
      ],
    });
    expect(days.get('sleep_log')).toEqual(['2026-11-24', '2026-11-26']);
    expect(days.get('activity_steps_timeseries')).toEqual(['2026-11-25', '2026-11-26']);
    // Without the device's sync time nothing is left out.
    const blind = sweepDays({ ...base, enrolledAt: new Date('2026-11-24T15:00:00Z'), ledger: [] });
    expect(blind.get('sleep_log')).toEqual(['2026-11-24', '2026-11-25', '2026-11-26']);
  });
});
