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
});
