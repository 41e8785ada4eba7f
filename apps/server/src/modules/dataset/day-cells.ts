import type { DatasetPartitionState, DataType } from '@research/contracts';

/**
 * One participant-day as the adherence screens show it, from the day's ledger rows (the rule of
 * docs/product.md#adherence, in one place): the state and wear minutes of the heart-rate
 * partition (one-second, else one-minute); without a heart-rate row, the most telling state of
 * the day's other rows; steps from the activity summary, else the daily steps series.
 */

export interface DayRow {
  dataType: DataType;
  state: DatasetPartitionState;
  reason: string | null;
  wearMinutes: number | null;
  steps: number | null;
}

export interface DayCell {
  state: DatasetPartitionState;
  /** The reason of the row the state came from, when the day is not complete. */
  reason: string | null;
  wearMinutes: number | null;
  steps: number | null;
}

const HEART_RATE: readonly DataType[] = ['heartrate_intraday_1sec', 'heartrate_intraday_1min'];
const STEPS: readonly DataType[] = ['activity_summary', 'activity_steps_timeseries'];

/**
 * Without a heart-rate row: a day holding data says so first (complete, then partial); a day
 * without says why (access withdrawn, deleted, a scope declined, a failed fetch) before "nothing
 * there" (empty).
 */
const MOST_TELLING: readonly DatasetPartitionState[] = [
  'complete',
  'partial',
  'revoked',
  'deleted_at_source',
  'scope_missing',
  'failed',
  'empty',
];

const firstOf = (rows: readonly DayRow[], types: readonly DataType[]) => {
  for (const type of types) {
    const row = rows.find((r) => r.dataType === type);
    if (row) return row;
  }
  return undefined;
};

/** The day's cell; null when the day has no ledger row at all. */
export function dayCell(rows: readonly DayRow[]): DayCell | null {
  if (rows.length === 0) return null;
  let source = firstOf(rows, HEART_RATE);
  if (!source) {
    for (const state of MOST_TELLING) {
      source = rows.find((r) => r.state === state);
      if (source) break;
    }
  }
  const from = source ?? (rows[0] as DayRow);
  let steps: number | null = null;
  for (const type of STEPS) {
    const value = rows.find((r) => r.dataType === type)?.steps;
    if (value !== null && value !== undefined) {
      steps = value;
      break;
    }
  }
  return {
    state: from.state,
    reason: from.state === 'complete' ? null : from.reason,
    wearMinutes: HEART_RATE.includes(from.dataType) ? from.wearMinutes : null,
    steps,
  };
}

/** The read model's one character per day (`-`: no ledger row). */
export const DAY_STATE_CODES: Readonly<Record<DatasetPartitionState, string>> = {
  complete: 'c',
  partial: 'p',
  empty: 'e',
  failed: 'f',
  scope_missing: 's',
  revoked: 'r',
  deleted_at_source: 'd',
};
export const NO_DAY_CODE = '-';

const STATE_OF_CODE = new Map(
  Object.entries(DAY_STATE_CODES).map(([state, code]) => [code, state as DatasetPartitionState]),
);

/** The state a code stands for; null for `-` (no row). */
export const stateOfCode = (code: string): DatasetPartitionState | null =>
  STATE_OF_CODE.get(code) ?? null;
