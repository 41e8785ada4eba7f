import {
  DATA_TYPES,
  type ExtractionDateRange,
  GOOGLE_HEALTH_READ_SCOPES,
} from '@research/contracts';
import { describe, expect, it } from 'vitest';
import { chunks, planExtraction, typeRange } from './plan.js';

const ALL = GOOGLE_HEALTH_READ_SCOPES;
const single = (date: string) => ({ startDate: date, endDate: date, mode: 'single' as const });
const range = (startDate: string, endDate: string) => ({
  startDate,
  endDate,
  mode: 'range' as const,
});

const plan = (
  dataTypes: (typeof DATA_TYPES)[number][],
  dateRange: ExtractionDateRange,
  scopes: readonly string[] = ALL,
) => planExtraction({ participants: [{ id: 'P1', grantedScopes: scopes }], dataTypes, dateRange });

describe('windows', () => {
  it('cuts an inclusive range into chunks of at most n days, the last one short', () => {
    expect(chunks('2026-11-01', '2026-11-30', 14)).toEqual([
      { from: '2026-11-01', to: '2026-11-15' },
      { from: '2026-11-15', to: '2026-11-29' },
      { from: '2026-11-29', to: '2026-12-01' },
    ]);
    expect(chunks('2026-11-01', '2026-11-01', 90)).toEqual([
      { from: '2026-11-01', to: '2026-11-02' },
    ]);
  });

  it('gives time series the 7 days ending on the date in single mode, others the date only', () => {
    expect(typeRange('activity_steps_timeseries', single('2026-11-10'))).toEqual({
      start: '2026-11-04',
      end: '2026-11-10',
    });
    expect(typeRange('heartrate_intraday_1sec', single('2026-11-10'))).toEqual({
      start: '2026-11-10',
      end: '2026-11-10',
    });
    expect(typeRange('activity_steps_timeseries', range('2026-10-01', '2026-10-03'))).toEqual({
      start: '2026-10-01',
      end: '2026-10-03',
    });
  });
});

describe('caps and call counts per type', () => {
  it('profile is identity + profile + settings, once, whatever the range', () => {
    const p = plan(['profile'], range('2026-01-01', '2026-12-31'));
    expect(p.tasks).toHaveLength(1);
    expect(p.callsPlanned).toBe(3);
  });

  it('daily roll-ups use one call per 90 days, or per 14 for total calories', () => {
    // 200 days: steps 3 × 90-day calls; calories 15 × 14-day calls.
    const steps = plan(['activity_steps_timeseries'], range('2026-01-01', '2026-07-19'));
    expect(steps.callsPlanned).toBe(3);
    expect(steps.tasks.map((t) => [t.windowStart, t.windowEnd])).toEqual([
      ['2026-01-01', '2026-03-31'],
      ['2026-04-01', '2026-06-29'],
      ['2026-06-30', '2026-07-19'],
    ]);
    const calories = plan(['activity_calories_timeseries'], range('2026-01-01', '2026-07-19'));
    expect(calories.callsPlanned).toBe(15);
    for (const call of calories.tasks.flatMap((t) => t.calls)) {
      const days = (Date.parse(call.to ?? '') - Date.parse(call.from ?? '')) / 86_400_000;
      expect(days).toBeLessThanOrEqual(14);
    }
  });

  it('a type mixing 14- and 90-day calls shares one task per 90 days', () => {
    // activity_summary over 30 days: 7 parts at 90 days (1 call each) + 2 parts at 14 (3 each).
    const p = plan(['activity_summary'], range('2026-09-01', '2026-09-30'));
    expect(p.tasks).toHaveLength(1);
    expect(p.callsPlanned).toBe(7 + 2 * 3);
  });

  it('minute data: one list or roll-up page per 6 days; raw heart rate about 3 pages a day', () => {
    const week = range('2026-11-01', '2026-11-07');
    expect(plan(['activity_steps_intraday'], week).callsPlanned).toBe(2);
    // A roll-up task asks for the participant's time zone first (its days are local days).
    expect(plan(['activity_calories_intraday'], week).callsPlanned).toBe(4);
    expect(plan(['heartrate_intraday_1min'], week).callsPlanned).toBe(4);
    const rollUp = plan(['heartrate_intraday_1min'], week).tasks[0];
    expect(rollUp?.calls.map((c) => c.spec.method)).toEqual(['settings', 'rollUp']);
    // Without the settings scope there is no zone to ask for: UTC days, one call per window.
    const noSettings = ALL.filter((s) => !s.includes('settings'));
    expect(plan(['heartrate_intraday_1min'], week, noSettings).callsPlanned).toBe(2);
    const raw = plan(['heartrate_intraday_1sec'], week);
    expect(raw.tasks).toHaveLength(7);
    expect(raw.callsPlanned).toBe(21);
  });

  it('sleep pages hold 25 sessions: one call per 25 nights', () => {
    expect(plan(['sleep_log'], range('2026-10-01', '2026-10-30')).callsPlanned).toBe(2);
  });

  it('the 12 types for a single date, one participant', () => {
    const p = plan([...DATA_TYPES], single('2026-11-10'));
    const byType = Object.fromEntries(p.tasks.map((t) => [t.dataType, t.callsPlanned]));
    expect(byType).toEqual({
      profile: 3,
      activity_summary: 9,
      activity_steps_timeseries: 1,
      activity_calories_timeseries: 1,
      activity_distance_timeseries: 1,
      activity_steps_intraday: 1,
      activity_calories_intraday: 2,
      heartrate_summary: 3,
      heartrate_timeseries: 2,
      heartrate_intraday_1sec: 3,
      heartrate_intraday_1min: 2,
      sleep_log: 1,
    });
    expect(p.callsPlanned).toBe(29);
    expect(p.tasks.map((t) => t.seq)).toEqual(p.tasks.map((_, i) => i + 1));
  });
});

describe('scopes', () => {
  it('skips a type whose scope was not granted, with the reason, and plans no calls for it', () => {
    const noSleep = ALL.filter((s) => !s.includes('sleep'));
    const p = plan(['sleep_log', 'activity_steps_timeseries'], single('2026-11-10'), noSleep);
    const sleep = p.tasks.find((t) => t.dataType === 'sleep_log');
    expect(sleep).toMatchObject({ status: 'skipped', skipReason: 'Scope not granted: Sleep' });
    expect(sleep?.calls).toEqual([]);
    expect(p.callsPlanned).toBe(1);
  });

  it('profile without the settings scope makes two calls', () => {
    const noSettings = ALL.filter((s) => !s.includes('settings'));
    expect(plan(['profile'], single('2026-11-10'), noSettings).callsPlanned).toBe(2);
  });

  it('counts calls per participant', () => {
    const p = planExtraction({
      participants: [
        { id: 'A', grantedScopes: ALL },
        { id: 'B', grantedScopes: [] },
      ],
      dataTypes: ['profile', 'activity_steps_timeseries'],
      dateRange: single('2026-11-10'),
    });
    expect(p.callsByParticipant.get('A')).toBe(4);
    expect(p.callsByParticipant.get('B')).toBe(0);
    expect(
      p.tasks.filter((t) => t.participantId === 'B').every((t) => t.status === 'skipped'),
    ).toBe(true);
  });
});
