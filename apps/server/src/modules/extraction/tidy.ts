import type { DataType } from '@research/contracts';
import type { Cell } from './tidy-columns.js';
import {
  activitySummaryRows,
  dailySeriesRows,
  heartRateSeriesRows,
  heartRateSummaryRows,
  profileRows,
} from './tidy-daily.js';
import { pointRows } from './tidy-points.js';
import { type CallPages, type DayWindow, zoneOfCalls } from './tidy-readers.js';

/**
 * Raw Google Health answers → one tidy table per research type: one row per participant × time
 * point (or day), times as the UTC instant plus the point's own UTC offset and the civil time it
 * gives, units in the column names. Everything here is pure, so a re-run of the same raw answers
 * gives the same rows.
 *
 * The work is in parts: the columns (tidy-columns), the raw-answer readers (tidy-readers), the
 * types made of whole tasks (tidy-daily) and those made point by point (tidy-points). This file
 * picks the part per type and keeps the one import the rest of the module uses.
 */

export {
  type Cell,
  COLUMNS,
  type Column,
  DICTIONARY_COLUMNS,
  dictionaryRows,
} from './tidy-columns.js';
export { compareKeys, orderRows, rowsOfPage, streamOrder } from './tidy-points.js';
export {
  type CallPages,
  civilDate,
  civilDateTimeText,
  civilTime,
  seconds,
  zoneOfCalls,
} from './tidy-readers.js';

/**
 * The tidy rows of one task: a participant, a type, a window of civil days, and the pages of its
 * calls. Rows come out in time order.
 */
export function tidyRows(
  dataType: DataType,
  participantId: string,
  window: DayWindow,
  calls: CallPages[],
  /**
   * The participant's IANA zone the 60-second buckets were cut in; absent: the zone the task's
   * settings answer names (a run's task asks for it first), else UTC.
   */
  timeZone?: string,
): Cell[][] {
  switch (dataType) {
    case 'profile':
      return profileRows(participantId, calls);
    case 'activity_summary':
      return activitySummaryRows(participantId, window, calls);
    case 'activity_steps_timeseries':
      return dailySeriesRows(participantId, window, calls, {
        key: 'steps',
        field: 'steps',
        value: 'countSum',
      });
    case 'activity_calories_timeseries':
      return dailySeriesRows(participantId, window, calls, {
        key: 'total-calories',
        field: 'totalCalories',
        value: 'kcalSum',
      });
    case 'activity_distance_timeseries':
      return dailySeriesRows(participantId, window, calls, {
        key: 'distance',
        field: 'distance',
        value: 'millimetersSum',
      });
    case 'activity_steps_intraday':
    case 'heartrate_intraday_1sec':
    case 'activity_calories_intraday':
    case 'heartrate_intraday_1min':
    case 'sleep_log':
      return pointRows(dataType, participantId, window, calls, timeZone ?? zoneOfCalls(calls));
    case 'heartrate_summary':
      return heartRateSummaryRows(participantId, window, calls);
    case 'heartrate_timeseries':
      return heartRateSeriesRows(participantId, window, calls);
  }
}
