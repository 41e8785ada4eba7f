import type { DataType } from '@research/contracts';

/**
 * What a type's partition holds, numbered: raised when a type's contents change, so partitions
 * written before are known as such (the ledger's `format`). An extraction run does not reuse them
 * and a sweep fetches them again, as if the day had never been settled.
 *
 * 2: one-minute tables cut at the participant's local midnights with their offsets filled;
 *    intraday steps and raw heart rate from wearables only, with their `source`.
 */
const FORMATS: Partial<Record<DataType, number>> = {
  activity_steps_intraday: 2,
  activity_calories_intraday: 2,
  heartrate_intraday_1sec: 2,
  heartrate_intraday_1min: 2,
};

export const partitionFormat = (dataType: DataType): number => FORMATS[dataType] ?? 1;

/** Whether a ledger row's files are of its type's current format. */
export const currentFormat = (row: { dataType: DataType; format: number }) =>
  row.format >= partitionFormat(row.dataType);
