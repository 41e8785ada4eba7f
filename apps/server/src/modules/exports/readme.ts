import type { ExportFormat } from '@research/contracts';
import { type ExportColumn, type ExportTable, SHAPES } from './export-columns.js';

export interface ReadmeTable {
  name: ExportTable;
  columns: readonly ExportColumn[];
}

/**
 * The table the loading examples read: one of this export's (a minute or sample table when there
 * is one, since its time columns are the ones worth showing), so the lines run as they are.
 */
function exampleOf(tables: readonly ReadmeTable[]) {
  const table =
    tables.find((t) => SHAPES[t.name] === 'minutes' || SHAPES[t.name] === 'points') ?? tables[0];
  const columns = table?.columns ?? [];
  return {
    name: table?.name ?? 'activity_summary',
    /** Kept as text when read: ids that look like numbers, local times with their offset. */
    text: columns.filter((c) => c.kind === 'string').map((c) => c.name),
    instants: columns.filter((c) => c.kind === 'instant').map((c) => c.name),
    local: columns.find((c) => c.kind === 'string' && c.name.endsWith('_local'))?.name,
  };
}

/** README.txt of an export: what is in it and how to load it (R, Python). */
export function readmeText(
  tables: readonly ReadmeTable[],
  formats: readonly ExportFormat[],
): string {
  const list = tables.map((t) => `  - ${t.name}`).join('\n');
  const example = exampleOf(tables);
  const rTypes = [
    ...example.text.map((name) => `${name} = readr::col_character()`),
    '.default = readr::col_guess()',
  ].join(',\n                            ');
  const pyTypes = example.text.map((name) => `"${name}": str`).join(', ');
  const parquet = formats.includes('parquet');
  const csv = formats.includes('csv');
  return `Analysis-ready export of the study dataset
==========================================

Tables (one file per table${parquet && csv ? ', as Parquet and as CSV' : parquet ? ', as Parquet' : ', as CSV'}):
${list}

Also here:
  - data_dictionary.csv: every column of every file: type, unit, meaning, Google Health member.
  - manifest.json: the export's parameters; every dataset partition used (participant, type, local
    day, state, when and why it was fetched, the calls its pages answered, their SHA-256); every
    file with its bytes, rows and SHA-256; the partitions missing, with their state and reason.
  - raw/ (when asked for): Google's answers as received, per type, participant and day.

Rows and days
  - Every row has participant_id. Ids (participant_id, health_user_id, legacy_fitbit_user_id,
    sleep_id) are TEXT: keep them as text (they may look like numbers, and leading zeros matter).
  - Daily tables have one row per participant per local day of the range, even without data;
    day_state says why a row is empty (missing, failed, scope_missing, revoked, ...). An empty
    value is missing (NULL), never 0.
  - Minute tables with the minute grid: every local minute of every local day (1440; 1380 or 1500
    on DST days; a travel day as long as its offsets make it). Steps and calories are 0 where
    Google sent no point on a day held, and \`worn\` says whether heart rate was recorded that
    minute (empty: no heart-rate data held for the day), so "no steps" and "not worn" differ.
  - sleep_stages has one row per stage segment of each session in sleep_log (joined by sleep_id).

Time columns
  - time_utc: the instant, UTC (Parquet: timestamp adjusted to UTC; CSV: ISO 8601 with Z).
  - utc_offset_seconds: the participant's UTC offset at that instant.
  - time_local: local wall-clock time WITH the offset, as text, e.g. 2026-11-01T01:30:00-05:00.
    It is text on purpose: a timestamp column would be shifted to the reader's time zone by many
    tools, and on a DST day 01:30 happens twice; only the offset tells the two apart.
  - date: the participant's local (civil) day.

Loading in R
${
  parquet
    ? `  library(arrow)
  data <- arrow::read_parquet("parquet/${example.name}.parquet")
`
    : ''
}${
  csv
    ? `  library(readr)
  data <- readr::read_csv("csv/${example.name}.csv",
    col_types = readr::cols(${rTypes}))
`
    : ''
}${example.local ? `  # local clock time of a row: substr(data$${example.local}, 12, 19)\n` : ''}
Loading in Python
  import pandas as pd
${
  parquet
    ? `  data = pd.read_parquet("parquet/${example.name}.parquet")
`
    : ''
}${
  csv
    ? `  data = pd.read_csv("csv/${example.name}.csv",
      dtype={${pyTypes}}${example.instants.length > 0 ? `,\n      parse_dates=[${example.instants.map((n) => `"${n}"`).join(', ')}]` : ''})
`
    : ''
}${example.local ? `  # a local datetime with its offset: pd.to_datetime(data["${example.local}"].str.slice(0, 19))\n` : ''}`;
}
