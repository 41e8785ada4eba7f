import { parquetWriteBuffer, type SchemaElement } from 'hyparquet-writer';
import type { ExportColumn, ExportKind } from './export-columns.js';
import type { Table, Value } from './tables.js';

/**
 * A table as CSV (RFC 4180, UTF-8, CRLF, header row; empty = missing; text columns always
 * quoted so ids stay text) and as Parquet (typed like the dataset's files, one writer name so the
 * same table gives the same bytes).
 */

const CREATED_BY = 'wearable-research-platform export 1';

const SCHEMA: Record<ExportKind, Omit<SchemaElement, 'name'>> = {
  string: { type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } },
  date: { type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' } },
  instant: {
    type: 'INT64',
    logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' },
  },
  int32: { type: 'INT32' },
  double: { type: 'DOUBLE' },
  boolean: { type: 'BOOLEAN' },
};

const DAY_MS = 86_400_000;

function csvCell(kind: ExportKind, value: Value): string {
  if (value === null) return '';
  switch (kind) {
    case 'string':
      return `"${String(value).replace(/"/g, '""')}"`;
    case 'instant':
      return typeof value === 'number' ? new Date(value).toISOString() : '';
    case 'date':
    case 'boolean':
      return String(value);
    case 'int32':
    case 'double':
      return typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
  }
}

const headerCell = (name: string) =>
  /[",\r\n]/.test(name) ? `"${name.replace(/"/g, '""')}"` : name;

export function toCsv(table: Table): Buffer {
  const lines = [table.columns.map((c) => headerCell(c.name)).join(',')];
  for (const row of table.rows) {
    lines.push(
      row.map((value, i) => csvCell((table.columns[i] as ExportColumn).kind, value)).join(','),
    );
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');
}

const encoder = new TextEncoder();

function physical(kind: ExportKind, values: Value[]): unknown[] {
  if (kind === 'date') {
    return values.map((v) =>
      typeof v === 'string' ? Date.parse(`${v}T00:00:00Z`) / DAY_MS : null,
    );
  }
  if (kind === 'instant') return values.map((v) => (typeof v === 'number' ? v : null));
  if (kind === 'int32') return values.map((v) => (typeof v === 'number' ? Math.round(v) : null));
  if (kind === 'double') return values.map((v) => (typeof v === 'number' ? v : null));
  if (kind === 'boolean') return values.map((v) => (typeof v === 'boolean' ? v : null));
  // One byte array per distinct text (participant ids repeat on every row).
  const encoded = new Map<string, Uint8Array>();
  return values.map((v) => {
    if (v === null) return null;
    const text = String(v);
    let bytes = encoded.get(text);
    if (!bytes) {
      bytes = encoder.encode(text);
      encoded.set(text, bytes);
    }
    return bytes;
  });
}

export function toParquet(table: Table): Buffer {
  const columnData = table.columns.map((col, i) => ({
    name: col.name,
    data: physical(
      col.kind,
      table.rows.map((row) => row[i] ?? null),
    ) as never,
    ...(col.kind === 'instant' ? { encoding: 'DELTA_BINARY_PACKED' as const } : {}),
  }));
  const out = parquetWriteBuffer({
    columnData,
    schema: [
      { name: 'root', num_children: table.columns.length },
      ...table.columns.map(
        (col): SchemaElement => ({
          name: col.name,
          ...SCHEMA[col.kind],
          repetition_type: col.name === 'participant_id' ? 'REQUIRED' : 'OPTIONAL',
        }),
      ),
    ],
    codec: 'SNAPPY',
    statistics: false,
    rowGroupSize: Math.max(table.rows.length, 1),
    createdBy: CREATED_BY,
    kvMetadata: [
      { key: 'table', value: table.name },
      {
        key: 'column_descriptions',
        value: JSON.stringify(
          Object.fromEntries(
            table.columns.map((c) => [c.name, `${c.meaning}${c.unit ? ` [${c.unit}]` : ''}`]),
          ),
        ),
      },
    ],
  });
  return Buffer.from(out);
}

/** data_dictionary.csv: every column of every file written. */
export function dictionaryCsv(files: { file: string; columns: ExportColumn[] }[]): Buffer {
  const table: Table = {
    name: 'profile',
    columns: ['file', 'column', 'type', 'unit', 'meaning', 'google_member'].map((name) => ({
      name,
      kind: 'string',
      unit: '',
      meaning: '',
      google: '',
    })),
    rows: files.flatMap(({ file, columns }) =>
      columns.map((c) => [file, c.name, c.kind, c.unit, c.meaning, c.google]),
    ),
  };
  return toCsv(table);
}
