import { describe, expect, it } from 'vitest';
import { plannedPages, type StoredDay, taskSteps } from './dataset-days.js';
import { callsFor } from './plan.js';

const ALL: string[] = [];
const day = (date: string, calls: string[], fetchedAt = '2026-12-01T00:00:00Z'): StoredDay => ({
  date,
  state: 'complete',
  timeZone: 'Asia/Tokyo',
  version: `v-${date}`,
  fetchedAt: new Date(fetchedAt),
  pages: calls.map((call, n) => ({ call, key: `k/${date}/${n}`, bytes: 1, sha256: 'x' })),
});
const shape = (steps: ReturnType<typeof taskSteps>) =>
  steps.map((s) => `${s.kind} ${s.call.spec.key} ${s.call.from}..${s.call.to}`);

describe('a task over days the dataset holds', () => {
  it('reads every held day and asks for nothing when all are held', () => {
    const calls = callsFor('activity_steps_intraday', '2026-11-01', '2026-11-03', ALL);
    const days = ['2026-11-01', '2026-11-02', '2026-11-03'].map((d) => day(d, ['steps']));
    const steps = taskSteps(calls, days);
    expect(shape(steps)).toEqual([
      'stored steps 2026-11-01..2026-11-02',
      'stored steps 2026-11-02..2026-11-03',
      'stored steps 2026-11-03..2026-11-04',
    ]);
    expect(plannedPages(steps)).toBe(0);
  });

  it('asks for each run of missing days, cut to the call’s cap, in day order', () => {
    // Heart-rate summary: resting HR (90 days), time in zones (90) and calories in zones (14).
    const calls = callsFor('heartrate_summary', '2026-11-01', '2026-11-20', ALL);
    const all = [
      'daily-resting-heart-rate',
      'time-in-heart-rate-zone',
      'calories-in-heart-rate-zone',
    ];
    const held = ['2026-11-03', '2026-11-04'].map((d) => day(d, all));
    const steps = taskSteps(calls, held).filter(
      (s) => s.call.spec.key !== 'time-in-heart-rate-zone',
    );
    expect(shape(steps)).toEqual([
      'fetch daily-resting-heart-rate 2026-11-01..2026-11-03',
      'stored daily-resting-heart-rate 2026-11-03..2026-11-04',
      'stored daily-resting-heart-rate 2026-11-04..2026-11-05',
      'fetch daily-resting-heart-rate 2026-11-05..2026-11-21',
      // The plan's calls covered 1–14 and 15–20 November; now 1–2, then 5–18 and 19–20.
      'fetch calories-in-heart-rate-zone 2026-11-01..2026-11-03',
      'stored calories-in-heart-rate-zone 2026-11-03..2026-11-04',
      'stored calories-in-heart-rate-zone 2026-11-04..2026-11-05',
      'fetch calories-in-heart-rate-zone 2026-11-05..2026-11-19',
      'fetch calories-in-heart-rate-zone 2026-11-19..2026-11-21',
    ]);
  });

  it('asks for a day whose partition lacks the call’s pages', () => {
    const calls = callsFor('heartrate_timeseries', '2026-11-01', '2026-11-01', ALL);
    const steps = taskSteps(calls, [day('2026-11-01', ['heart-rate'])]);
    expect(shape(steps)).toEqual([
      'fetch daily-resting-heart-rate 2026-11-01..2026-11-02',
      'stored heart-rate 2026-11-01..2026-11-02',
    ]);
  });

  it('reads a minute roll-up day only when it was cut in the zone the run cuts in', () => {
    const calls = callsFor('heartrate_intraday_1min', '2026-11-01', '2026-11-02', ALL);
    // Cut at Tokyo's midnights; settled once Tokyo's day is over (no UTC day to wait for).
    const tokyo = day('2026-11-01', ['heart-rate'], '2026-11-01T16:00:00Z');
    const berlin = { ...day('2026-11-02', ['heart-rate']), timeZone: 'Europe/Berlin' };
    expect(shape(taskSteps(calls, [tokyo, berlin], 'Asia/Tokyo'))).toEqual([
      'stored heart-rate 2026-11-01..2026-11-02',
      'fetch heart-rate 2026-11-02..2026-11-03',
    ]);
    // Other calls are on the provider's own civil dates: any zone's day answers them.
    const steps = callsFor('activity_steps_intraday', '2026-11-02', '2026-11-02', ALL);
    const held = { ...day('2026-11-02', ['steps']), timeZone: 'Europe/Berlin' };
    expect(shape(taskSteps(steps, [held], 'Asia/Tokyo'))).toEqual([
      'stored steps 2026-11-02..2026-11-03',
    ]);
  });

  it('with no day held, the steps are the planned calls', () => {
    for (const type of ['activity_summary', 'activity_steps_intraday', 'sleep_log'] as const) {
      const calls = callsFor(type, '2026-09-01', '2026-11-29', ALL);
      expect(taskSteps(calls, []).map((s) => s.call)).toEqual(calls);
    }
  });

  it('always asks for the profile (the dataset does not keep it)', () => {
    const calls = callsFor('profile', '2026-11-01', '2026-11-01', ALL);
    expect(taskSteps(calls, []).every((s) => s.kind === 'fetch')).toBe(true);
  });
});
