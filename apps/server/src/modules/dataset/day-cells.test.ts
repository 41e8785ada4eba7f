import { describe, expect, it } from 'vitest';
import { type DayRow, dayCell } from './day-cells.js';

const row = (over: Partial<DayRow> & Pick<DayRow, 'dataType' | 'state'>): DayRow => ({
  reason: null,
  wearMinutes: null,
  steps: null,
  ...over,
});

describe('a day cell from the ledger', () => {
  it('takes state and wear from one-second heart rate, else the one-minute roll-up', () => {
    const oneSecond = row({
      dataType: 'heartrate_intraday_1sec',
      state: 'partial',
      wearMinutes: 300,
    });
    const oneMinute = row({
      dataType: 'heartrate_intraday_1min',
      state: 'complete',
      wearMinutes: 800,
    });
    const summary = row({ dataType: 'activity_summary', state: 'complete', steps: 9000 });
    expect(dayCell([summary, oneMinute, oneSecond])).toEqual({
      state: 'partial',
      reason: null,
      wearMinutes: 300,
      steps: 9000,
    });
    expect(dayCell([summary, oneMinute])).toMatchObject({ state: 'complete', wearMinutes: 800 });
  });

  it('takes steps from the activity summary, else the daily steps series', () => {
    const series = row({ dataType: 'activity_steps_timeseries', state: 'complete', steps: 7000 });
    const summary = row({ dataType: 'activity_summary', state: 'failed', reason: 'x' });
    expect(dayCell([series, summary])?.steps).toBe(7000);
    const intraday = row({ dataType: 'activity_steps_intraday', state: 'complete', steps: 1 });
    expect(dayCell([intraday])?.steps).toBeNull();
  });

  it('without heart rate, shows the most telling state of the other rows with its reason', () => {
    const empty = row({ dataType: 'sleep_log', state: 'empty' });
    const failed = row({
      dataType: 'activity_calories_timeseries',
      state: 'failed',
      reason: 'Google answered 503',
    });
    const revoked = row({
      dataType: 'activity_distance_timeseries',
      state: 'revoked',
      reason: 'Access withdrawn',
    });
    const complete = row({ dataType: 'activity_summary', state: 'complete', steps: 10 });
    expect(dayCell([empty, failed])).toMatchObject({
      state: 'failed',
      reason: 'Google answered 503',
      wearMinutes: null,
    });
    expect(dayCell([empty, failed, revoked])).toMatchObject({
      state: 'revoked',
      reason: 'Access withdrawn',
    });
    expect(dayCell([empty, failed, revoked, complete])).toMatchObject({
      state: 'complete',
      reason: null,
    });
    expect(dayCell([empty])).toMatchObject({ state: 'empty' });
  });

  it('says the heart-rate row’s reason for every non-complete state, none for complete', () => {
    for (const state of ['failed', 'scope_missing', 'revoked', 'deleted_at_source'] as const) {
      const hr = row({ dataType: 'heartrate_intraday_1sec', state, reason: `because ${state}` });
      expect(dayCell([hr])).toMatchObject({ state, reason: `because ${state}` });
    }
    const done = row({ dataType: 'heartrate_intraday_1sec', state: 'complete', reason: 'stale' });
    expect(dayCell([done])?.reason).toBeNull();
  });

  it('is null for a day without rows', () => {
    expect(dayCell([])).toBeNull();
  });
});
