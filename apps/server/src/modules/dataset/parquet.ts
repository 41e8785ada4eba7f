import { parquetWriteBuffer, type SchemaElement } from 'hyparquet-writer';
import { COLUMNS } from '../extraction/index.js';
import type { Column, ColumnKind, PartitionTable } from './columns.js';

/**
 * A partition's tidy table as one Parquet file (hyparquet-writer: pure JavaScript, columnar input,
 * the same bytes for the same table; docs/decisions/0011-dataset-parquet-writer.md). One row
 * group, times delta-encoded, Snappy pages, no statistics; the column descriptions (with the units)
 * ride in the file's metadata, so a file read on its own still says what its columns mean.
 */

/** Names the writer in every file instead of the library's default, which carries its version. */
const CREATED_BY = 'wearable-research-platform dataset 1';

const SCHEMA: Record<ColumnKind, Omit<SchemaElement, 'name'>> = {
  string: { type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } },
  date: { type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' } },
  instant: {
    type: 'INT64',
    logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' },
  },
  civil: {
    type: 'INT64',
    logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: false, unit: 'MILLIS' },
  },
  int32: { type: 'INT32' },
  double: { type: 'DOUBLE' },
  boolean: { type: 'BOOLEAN' },
};

const element = (c: Column): SchemaElement => ({
  name: c.name,
  ...SCHEMA[c.kind],
  // Every row has its participant; any other value may be missing.
  repetition_type: c.name === 'participant_id' ? 'REQUIRED' : 'OPTIONAL',
});

const encoder = new TextEncoder();

/**
 * A column's values as the writer stores them. Text goes in as bytes, one array per distinct
 * text: the writer would otherwise encode the same participant id for each of ~29,000 rows, and
 * it recognises one array passed again without comparing bytes.
 */
function physical(c: Column): ArrayLike<unknown> {
  if (c.kind !== 'string') return c.values;
  const encoded = new Map<string, Uint8Array>();
  return Array.from(c.values, (value) => {
    if (typeof value !== 'string') return value;
    let bytes = encoded.get(value);
    if (!bytes) {
      bytes = encoder.encode(value);
      encoded.set(value, bytes);
    }
    return bytes;
  });
}

/**
 * The file-metadata key that says every row has a `timestamp_utc` and each is later than the
 * one before (so no instant twice). Readers that combine partitions (the export) can then keep
 * the files' order instead of sorting and looking for repeats; without it they must.
 */
export const TIME_ORDER_KEY = 'rows_in_time_order';

function inTimeOrder(table: PartitionTable): boolean {
  const times = table.columns.find((c) => c.name === 'timestamp_utc' && c.kind === 'instant');
  if (!times || table.rows === 0) return false;
  let before = Number.NEGATIVE_INFINITY;
  for (let r = 0; r < table.rows; r++) {
    const ms = times.values[r];
    if (typeof ms !== 'number' || !(ms > before)) return false;
    before = ms;
  }
  return true;
}

/** Each type's column descriptions as the metadata holds them (made once, not per file). */
const descriptionsOf = new Map<string, string>();
function descriptions(dataType: PartitionTable['dataType']): string {
  let text = descriptionsOf.get(dataType);
  if (text === undefined) {
    text = JSON.stringify(
      Object.fromEntries(COLUMNS[dataType].map((c) => [c.name, c.description])),
    );
    descriptionsOf.set(dataType, text);
  }
  return text;
}

export function toParquet(table: PartitionTable): Buffer {
  const out = parquetWriteBuffer({
    columnData: table.columns.map((c) => ({
      name: c.name,
      data: physical(c) as never,
      // Times come in order, seconds or a minute apart: their differences pack into a few bits
      // (a day of raw heart rate: 67 kB instead of 317 kB, for about the same CPU).
      ...(c.kind === 'instant' || c.kind === 'civil' ? { encoding: 'DELTA_BINARY_PACKED' } : {}),
    })),
    schema: [{ name: 'root', num_children: table.columns.length }, ...table.columns.map(element)],
    codec: 'SNAPPY',
    // A partition is one row group of one day, found by its path: min/max statistics would prune
    // nothing, and cost a tenth of the write (compared as BigInt).
    statistics: false,
    rowGroupSize: Math.max(table.rows, 1),
    createdBy: CREATED_BY,
    kvMetadata: [
      { key: 'data_type', value: table.dataType },
      { key: 'column_descriptions', value: descriptions(table.dataType) },
      ...(inTimeOrder(table) ? [{ key: TIME_ORDER_KEY, value: 'strictly ascending' }] : []),
    ],
  });
  return Buffer.from(out);
}
