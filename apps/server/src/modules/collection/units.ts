import type { DatasetTrigger, DataType } from '@research/contracts';
import { addDays, callsFor, taskWindows } from '../extraction/index.js';

/**
 * How a type's days are fetched. Days of the restatement window, and lone older days, are fetched
 * a day at a time (their pages kept as received). A run of consecutive older days (a backfill) is
 * fetched with the extraction planner's range calls, window by window as a run plans them (each
 * window as wide as the type's widest call, each call cut to its own cap: 90 or 14 days of daily
 * roll-ups, 25 nights of sleep, 6 days of minutes; raw heart rate stays a day a call), and each
 * answer is cut into the days' pages (extraction/day-cut.ts).
 */

export type FetchUnit =
  | { kind: 'day'; date: string; dates: [string] }
  | { kind: 'range'; from: string; to: string; dates: string[] };

/**
 * The units of `dates` (in the order given; sorted days make the longest runs): days before
 * `windowStart` that follow each other are ranges, the rest single days.
 */
export function fetchUnits(
  dataType: DataType,
  dates: readonly string[],
  windowStart: string,
  granted: readonly string[],
): FetchUnit[] {
  const runs: string[][] = [];
  for (const date of dates) {
    const run = runs.at(-1);
    const last = run?.at(-1);
    if (run && last && date < windowStart && last < windowStart && addDays(last, 1) === date) {
      run.push(date);
    } else runs.push([date]);
  }
  const units: FetchUnit[] = [];
  for (const run of runs) {
    const from = run[0] as string;
    const to = run.at(-1) as string;
    for (const window of run.length > 1 ? taskWindows(dataType, from, to, granted) : []) {
      if (window.start === window.end) {
        units.push({ kind: 'day', date: window.start, dates: [window.start] });
        continue;
      }
      const days: string[] = [];
      for (let date = window.start; date <= window.end; date = addDays(date, 1)) days.push(date);
      units.push({ kind: 'range', from: window.start, to: window.end, dates: days });
    }
    if (run.length === 1) units.push({ kind: 'day', date: from, dates: [from] });
  }
  return units;
}

/** The requests (before paging) the units make. */
export function unitCalls(
  dataType: DataType,
  units: readonly FetchUnit[],
  granted: readonly string[],
) {
  return units.reduce(
    (sum, unit) =>
      sum +
      (unit.kind === 'day'
        ? callsFor(dataType, unit.date, unit.date, granted).length
        : callsFor(dataType, unit.from, unit.to, granted).length),
    0,
  );
}

const TRIGGER_ID_MAX = 200;

/**
 * The ledger's trigger of a day cut from a range's answer: its pages are derived from the answer,
 * not as received, and the trigger says from which range (with what started the job, if named).
 */
export function backfillTrigger(trigger: DatasetTrigger, from: string, to: string): DatasetTrigger {
  const range = `backfill:${from}..${to}`;
  const origin = trigger.id ? ` ${trigger.kind}:${trigger.id}` : '';
  return { kind: 'sweep', id: `${range}${origin}`.slice(0, TRIGGER_ID_MAX) };
}
