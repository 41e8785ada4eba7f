import type { DataType } from '@research/contracts';
import { civilDateIn, type LedgerRow } from '../dataset/index.js';
import { addDays } from '../extraction/index.js';

/**
 * Which days a sweep fetches for one connection: every day of the restatement window (the last few
 * days, which the device may still be filling in or Google restating), and, from the participant's
 * enrolment on, days older than the window that have no settled partition yet (complete or
 * empty), at most `backfillDays` of them per sweep so one participant cannot hold a worker for
 * months of history. Days never fetched come before days whose last fetch failed, oldest first.
 */

const SETTLED = new Set<LedgerRow['state']>(['complete', 'empty']);

export interface SweepDaysInput {
  types: readonly DataType[];
  timeZone: string;
  now: Date;
  enrolledAt: Date;
  restatementDays: number;
  backfillDays: number;
  /** The participant's ledger rows (any range; only the types asked are read). */
  ledger: readonly Pick<LedgerRow, 'dataType' | 'date' | 'state'>[];
}

export function sweepDays(input: SweepDaysInput): Map<DataType, string[]> {
  const today = civilDateIn(input.timeZone, input.now);
  const start = civilDateIn(input.timeZone, input.enrolledAt);
  const windowStart = addDays(today, -(input.restatementDays - 1));
  const state = new Map<string, LedgerRow['state']>();
  for (const row of input.ledger) state.set(`${row.dataType}\0${row.date}`, row.state);

  const window: string[] = [];
  for (let date = maxDate(start, windowStart); date <= today; date = addDays(date, 1)) {
    window.push(date);
  }
  // Older days with a type left to fetch, ranked: never fetched (0) before failed or marked (1).
  const rank = new Map<string, number>();
  for (let date = start; date < windowStart && date <= today; date = addDays(date, 1)) {
    for (const type of input.types) {
      const current = state.get(`${type}\0${date}`);
      if (current && SETTLED.has(current)) continue;
      rank.set(date, Math.min(rank.get(date) ?? 1, current ? 1 : 0));
    }
  }
  const backfill = new Set(
    [...rank.entries()]
      .sort(([a, ra], [b, rb]) => ra - rb || (a < b ? -1 : 1))
      .slice(0, input.backfillDays)
      .map(([date]) => date),
  );

  const out = new Map<DataType, string[]>();
  for (const type of input.types) {
    const dates = [...backfill]
      .filter((date) => !SETTLED.has(state.get(`${type}\0${date}`) ?? 'failed'))
      .sort();
    out.set(type, [...dates, ...window]);
  }
  return out;
}

const maxDate = (a: string, b: string) => (a > b ? a : b);
