import { GOOGLE_HEALTH_READ_SCOPES } from '@research/contracts';
import { describe, expect, it } from 'vitest';
import { estimateRunSeconds, quotaWaitMs } from './estimate.js';
import { planExtraction } from './plan.js';

const LIMITS = {
  perUserPerMinute: 300,
  perProjectPerMinute: 120_000,
  concurrency: 20,
  callsPerParticipant: 3,
};

const participants = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `P${String(i).padStart(16, '0')}`,
    grantedScopes: [...GOOGLE_HEALTH_READ_SCOPES],
  }));

describe('the run estimate', () => {
  it('a week of six daily types for two participants reads seconds, not the old 8.4–17 minutes', () => {
    // The old formula: 2 participants × 6 types × 7 days = 84 calls, 84/10 to 84/5 minutes.
    const plan = planExtraction({
      participants: participants(2),
      dataTypes: [
        'profile',
        'activity_summary',
        'activity_steps_timeseries',
        'heartrate_summary',
        'heartrate_timeseries',
        'sleep_log',
      ],
      dateRange: { startDate: '2026-11-01', endDate: '2026-11-07', mode: 'range' },
    });
    const { min, max } = estimateRunSeconds(plan, LIMITS);
    expect(min).toBeGreaterThan(0);
    expect(max).toBeLessThan(30);
    expect(min).toBeLessThan(max);
  });

  it('a participant with more calls than a minute’s quota waits out whole windows', () => {
    // A raw heart-rate day is 3 pages: 200 days are 600 calls, two windows past the first.
    const plan = planExtraction({
      participants: participants(1),
      dataTypes: ['heartrate_intraday_1sec'],
      dateRange: { startDate: '2026-01-01', endDate: '2026-07-19', mode: 'range' },
    });
    expect(plan.callsPlanned).toBe(600);
    const { min, max } = estimateRunSeconds(plan, { ...LIMITS, perUserPerMinute: 100 });
    // 600 calls at 100 a minute: 6 windows, 4 to 5 of them waited out.
    expect(min).toBeGreaterThanOrEqual(240);
    expect(max).toBeGreaterThanOrEqual(300);
  });

  it('participants past the worker’s concurrency run in rounds', () => {
    const plan = (n: number) =>
      planExtraction({
        participants: participants(n),
        dataTypes: ['activity_steps_intraday'],
        dateRange: { startDate: '2026-10-01', endDate: '2026-10-30', mode: 'range' },
      });
    const one = estimateRunSeconds(plan(1), { ...LIMITS, concurrency: 2 });
    const four = estimateRunSeconds(plan(4), { ...LIMITS, concurrency: 2 });
    const two = estimateRunSeconds(plan(2), { ...LIMITS, concurrency: 2 });
    expect(two).toEqual(one);
    expect(four.max).toBeGreaterThan(one.max);
  });

  it('a selection whose every type is skipped costs only the run’s fixed part', () => {
    const plan = planExtraction({
      participants: [{ id: 'P0000000000000001', grantedScopes: [] }],
      dataTypes: ['sleep_log'],
      dateRange: { startDate: '2026-11-01', endDate: '2026-11-01', mode: 'single' },
    });
    expect(plan.callsPlanned).toBe(0);
    expect(estimateRunSeconds(plan, LIMITS)).toEqual({ min: 0.5, max: 4 });
  });

  it('counts quota windows beyond the first', () => {
    expect(quotaWaitMs(300, 300, 'max')).toBe(0);
    expect(quotaWaitMs(301, 300, 'min')).toBe(0);
    expect(quotaWaitMs(301, 300, 'max')).toBe(60_000);
    expect(quotaWaitMs(901, 300, 'min')).toBe(120_000);
  });
});
