import type { DataType } from '@research/contracts';
import { civilDateIn, currentFormat, type LedgerRow } from '../dataset/index.js';
import { addDays } from '../extraction/index.js';

/**
 * Which days a sweep fetches for one connection: every day of the restatement window (the last few
 * days, which the device may still be filling in or Google restating), and, from the participant's
 * enrolment on, days older than the window that have no settled partition yet (complete or
 * empty), at most `backfillDays` of them per sweep so one participant cannot hold a worker for
 * months of history. Days never fetched come before days whose last fetch failed, oldest first;
 * a day settled in a type's earlier format (dataset/formats.ts) counts as failed.
 *
 * A window day a notification's fetch already covered is left out: Google notifies once it has
 * processed a sync, so a day fetched for a notification after the device's last sync holds
 * everything the device sent. Without the device's sync time nothing is left out.
 */

const SETTLED = new Set<LedgerRow['state']>(['complete', 'empty']);
/**
 * Google said the day's data was deleted at the source: a sweep leaves it as it is (the study's
 * setting decided what happens to the copy); only a new notification fetches it again.
 */
const DELETED = 'deleted_at_source';

export interface SweepDaysInput {
  types: readonly DataType[];
  timeZone: string;
  now: Date;
  enrolledAt: Date;
  restatementDays: number;
  backfillDays: number;
  /** The device's last sync, when known. */
  syncedThrough?: Date | undefined;
  /** The participant's ledger rows (any range; only the types asked are read). */
  ledger: readonly (Pick<LedgerRow, 'dataType' | 'date' | 'state'> &
    Partial<Pick<LedgerRow, 'fetchedAt' | 'trigger' | 'format'>>)[];
}

const FETCHED = new Set<LedgerRow['state']>(['complete', 'empty', 'partial']);

/** Whether a notification's fetch of the row came after the device's last sync. */
function coveredByNotification(
  row: SweepDaysInput['ledger'][number] | undefined,
  syncedThrough: Date | undefined,
) {
  return (
    row !== undefined &&
    syncedThrough !== undefined &&
    FETCHED.has(row.state) &&
    row.trigger?.kind === 'notification' &&
    row.fetchedAt != null &&
    row.fetchedAt.getTime() > syncedThrough.getTime()
  );
}

export function sweepDays(input: SweepDaysInput): Map<DataType, string[]> {
  const today = civilDateIn(input.timeZone, input.now);
  const start = civilDateIn(input.timeZone, input.enrolledAt);
  const windowStart = addDays(today, -(input.restatementDays - 1));
  const rows = new Map<string, SweepDaysInput['ledger'][number]>();
  for (const row of input.ledger) rows.set(`${row.dataType}\0${row.date}`, row);
  // A settled day of a format since replaced counts as failed: fetched again, after new days.
  const state = new Map(
    [...rows].map(([key, row]) => [
      key,
      SETTLED.has(row.state) && !currentFormat({ dataType: row.dataType, format: row.format ?? 1 })
        ? ('failed' as const)
        : row.state,
    ]),
  );

  const window: string[] = [];
  for (let date = maxDate(start, windowStart); date <= today; date = addDays(date, 1)) {
    window.push(date);
  }
  // Older days with a type left to fetch, ranked: never fetched (0) before failed or marked (1).
  const rank = new Map<string, number>();
  for (let date = start; date < windowStart && date <= today; date = addDays(date, 1)) {
    for (const type of input.types) {
      const current = state.get(`${type}\0${date}`);
      if (current && (SETTLED.has(current) || current === DELETED)) continue;
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
    const fresh = window.filter((date) => {
      const row = rows.get(`${type}\0${date}`);
      return row?.state !== DELETED && !coveredByNotification(row, input.syncedThrough);
    });
    out.set(type, [...dates, ...fresh]);
  }
  return out;
}

const maxDate = (a: string, b: string) => (a > b ? a : b);
