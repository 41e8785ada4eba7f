import { describe, expect, it } from 'vitest';
import { type ExportTable, exportColumns } from './export-columns.js';
import { readmeText } from './readme.js';

const tablesOf = (names: ExportTable[]) =>
  names.map((name) => ({ name, columns: exportColumns(name, true) }));

/** The files the README's loading lines read. */
const filesRead = (text: string) =>
  [...text.matchAll(/"((?:parquet|csv)\/[a-z0-9_]+\.(?:parquet|csv))"/g)].map((m) => m[1]);

describe('README.txt', () => {
  it('loads, in R and Python, a file the export holds, not one it may lack', () => {
    const text = readmeText(
      tablesOf(['activity_summary', 'heartrate_intraday_1min', 'sleep_log', 'sleep_stages']),
      ['parquet', 'csv'],
    );
    expect(filesRead(text)).toEqual([
      'parquet/heartrate_intraday_1min.parquet',
      'csv/heartrate_intraday_1min.csv',
      'parquet/heartrate_intraday_1min.parquet',
      'csv/heartrate_intraday_1min.csv',
    ]);
    expect(text).not.toContain('activity_steps_intraday');
    // Its text columns are kept as text; its instants parsed, and only those it has.
    expect(text).toContain('time_local = readr::col_character()');
    expect(text).toContain('parse_dates=["time_utc"]');
    expect(text).toContain('substr(data$time_local, 12, 19)');
  });

  it('names no time column a table without one does not have', () => {
    const text = readmeText(tablesOf(['activity_summary']), ['csv']);
    expect(filesRead(text)).toEqual(['csv/activity_summary.csv', 'csv/activity_summary.csv']);
    expect(text).not.toContain('parse_dates');
    expect(text).not.toContain('time_local = ');
    expect(text).not.toContain('sleep_id = ');
    expect(text).toContain('participant_id = readr::col_character()');
    expect(text).toContain('dtype={"participant_id": str, "day_state": str}');
    expect(text).not.toContain('arrow::read_parquet');
  });

  it('shows the start and end columns of a sleep-only export', () => {
    const text = readmeText(tablesOf(['sleep_log', 'sleep_stages']), ['parquet', 'csv']);
    expect(filesRead(text)).toContain('csv/sleep_log.csv');
    expect(text).toContain('parse_dates=["start_utc", "end_utc"]');
    expect(text).toContain('"sleep_id": str');
    expect(text).toContain('substr(data$start_local, 12, 19)');
  });
});
