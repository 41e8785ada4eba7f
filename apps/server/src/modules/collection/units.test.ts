import { GOOGLE_HEALTH_READ_SCOPES } from '@research/contracts';
import { describe, expect, it } from 'vitest';
import { addDays } from '../extraction/index.js';
import { backfillTrigger, fetchUnits, unitCalls } from './units.js';

const ALL = GOOGLE_HEALTH_READ_SCOPES;
const days = (from: string, n: number) => Array.from({ length: n }, (_, i) => addDays(from, i));
const shape = (units: ReturnType<typeof fetchUnits>) =>
  units.map((u) => (u.kind === 'day' ? u.date : `${u.from}..${u.to}`));

describe('how a type’s days are fetched', () => {
  it('ranges runs of older days, a day at a time the window and lone days', () => {
    const dates = [
      '2026-09-01',
      '2026-09-02',
      '2026-09-03',
      '2026-09-05',
      ...days('2026-09-09', 4),
    ];
    // The window starts on 2026-09-11: 09-09 and 09-10 are a run, 09-11 and 09-12 window days.
    expect(shape(fetchUnits('sleep_log', dates, '2026-09-11', ALL))).toEqual([
      '2026-09-01..2026-09-03',
      '2026-09-05',
      '2026-09-09..2026-09-10',
      '2026-09-11',
      '2026-09-12',
    ]);
  });

  it('cuts a run into the windows a run plans, a one-day window being that day’s own fetch', () => {
    const dates = days('2026-01-01', 91);
    const units = fetchUnits('activity_summary', dates, '2026-12-01', ALL);
    expect(shape(units)).toEqual(['2026-01-01..2026-03-31', '2026-04-01']);
    // 90 days: seven 90-day calls and two 14-day measures in seven pieces; then the lone day's 9.
    expect(unitCalls('activity_summary', units, ALL)).toBe(7 + 2 * 7 + 9);
    // Raw heart rate is a day a call whatever the run.
    expect(
      fetchUnits('heartrate_intraday_1sec', days('2026-01-01', 3), '2026-12-01', ALL).map(
        (u) => u.kind,
      ),
    ).toEqual(['day', 'day', 'day']);
  });

  it('names the range in the trigger, with what started the job', () => {
    expect(backfillTrigger({ kind: 'sweep' }, '2026-01-01', '2026-03-31')).toEqual({
      kind: 'sweep',
      id: 'backfill:2026-01-01..2026-03-31',
    });
    expect(backfillTrigger({ kind: 'sweep', id: 's-1' }, '2026-01-01', '2026-01-02').id).toBe(
      'backfill:2026-01-01..2026-01-02 sweep:s-1',
    );
  });
});
