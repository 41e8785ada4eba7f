import type { DataType } from '@research/contracts';
import { type Cell, COLUMNS } from '../extraction/index.js';

/**
 * The tidy tables as typed columns: the extraction's rows (text times, numbers, flags) read once
 * into the Parquet types the dataset stores. Units stay where the data dictionary puts them, in
 * the column names and descriptions (COLUMNS), which also go into each file's metadata.
 */

export type ColumnKind =
  /** UTF-8 text (ids are text, as in the CSVs). */
  | 'string'
  /** A civil day, days since 1970-01-01. */
  | 'date'
  /** An instant, ms since the epoch, stored as a UTC timestamp. */
  | 'instant'
  /** A local wall-clock time, stored as a timestamp that is not adjusted to UTC. */
  | 'civil'
  | 'int32'
  | 'double'
  | 'boolean';

export type Value = string | number | boolean | null;

export interface Column {
  name: string;
  kind: ColumnKind;
  values: ArrayLike<Value>;
}

export interface PartitionTable {
  dataType: DataType;
  rows: number;
  columns: Column[];
}

const STRINGS = new Set([
  'participant_id',
  'health_user_id',
  'legacy_fitbit_user_id',
  'sleep_id',
  'time_zone',
  'language_locale',
  'distance_unit',
  'weight_unit',
  'stages_status',
  'source',
]);
const DATES = new Set(['date', 'membership_start_date', 'date_of_sleep']);
const BOOLEANS = new Set(['main_sleep', 'processed']);

/** The stored type of a tidy column, from its name (the names follow one pattern per kind). */
export function kindOf(name: string): ColumnKind {
  if (STRINGS.has(name)) return 'string';
  if (DATES.has(name)) return 'date';
  if (BOOLEANS.has(name)) return 'boolean';
  if (/(^timestamp|_time)_utc$/.test(name)) return 'instant';
  if (/civil_time$/.test(name)) return 'civil';
  if (/utc_offset_seconds$/.test(name)) return 'int32';
  // Counts, minutes, bpm, kcal, mm: numbers the provider may send with a fraction.
  return 'double';
}

const DAY_MS = 86_400_000;
const msOf = (text: string) => {
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
};

/** One cell as its column's kind stores it; text that does not read as its kind is null. */
function cellValue(kind: ColumnKind, cell: Cell | undefined): Value {
  if (cell === null || cell === undefined || cell === '') return null;
  switch (kind) {
    case 'string':
      return String(cell);
    case 'date': {
      const ms = typeof cell === 'string' ? msOf(`${cell}T00:00:00Z`) : null;
      return ms === null ? null : ms / DAY_MS;
    }
    case 'instant':
      return typeof cell === 'string' ? msOf(cell) : null;
    case 'civil':
      return typeof cell === 'string' ? msOf(`${cell}Z`) : null;
    case 'int32':
    case 'double':
      return typeof cell === 'number' && Number.isFinite(cell) ? cell : null;
    case 'boolean':
      return typeof cell === 'boolean' ? cell : null;
  }
}

/** The extraction's tidy rows of a type as typed columns. */
export function tableOfRows(dataType: DataType, rows: Cell[][]): PartitionTable {
  const columns = COLUMNS[dataType].map((column, index) => {
    const kind = kindOf(column.name);
    const values: Value[] = new Array(rows.length);
    for (let r = 0; r < rows.length; r++) values[r] = cellValue(kind, rows[r]?.[index]);
    return { name: column.name, kind, values };
  });
  return { dataType, rows: rows.length, columns };
}

export const column = (table: PartitionTable, name: string) =>
  table.columns.find((c) => c.name === name)?.values;
