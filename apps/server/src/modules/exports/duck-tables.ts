import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { DataType } from '@research/contracts';
import { TIME_ORDER_KEY } from '../dataset/index.js';
import {
  CONSUMED,
  type ExportColumn,
  type ExportKind,
  type ExportTable,
  exportColumns,
  SHAPES,
} from './export-columns.js';
import { OffsetTimeline } from './local-time.js';

/**
 * The export's tables, made by DuckDB from the partitions' rows.parquet files where they lie: one
 * table per type (and sleep_stages), rows in a stable order (participant, then day or time),
 * values typed as export-columns.ts says, written with `COPY … TO` as Parquet and CSV. What is
 * per participant-day (local midnights, the offsets in force, day states) is worked out here from
 * the ledger and the offsets the points carry, and handed to DuckDB as small tables. The same
 * partitions give the same bytes.
 */

export type Format = 'parquet' | 'csv';

/** A partition read: its ledger state and, when held, its rows file on local disk. */
export interface PartFile {
  participantId: string;
  type: DataType;
  date: string;
  timeZone: string | null;
  state: string;
  /** rows.parquet on disk; null when the partition is not held. */
  file: string | null;
}

export interface StageSegment {
  sleepId: string;
  stage: string;
  startMs: number;
  startOffset: number | null;
  endMs: number;
  endOffset: number | null;
}

export interface TablesInput {
  participantIds: readonly string[];
  tables: readonly ExportTable[];
  /** Local days of the export, in order. */
  dates: readonly string[];
  minuteGrid: boolean;
  formats: readonly Format[];
  /** Every partition read (in participant, type, date order), of the export's types and the neighbours the grid needs. */
  parts: readonly PartFile[];
  /** Each participant's latest known time zone, for one without any partition read. */
  zones?: ReadonlyMap<string, string>;
  /** The stage segments of a held sleep partition's sessions (from its raw pages). */
  stagesOf: (part: PartFile, sessions: Set<string>) => Promise<StageSegment[]>;
  /** Where the files are written (one per table and format). */
  dir: string;
  /** Told of each table as soon as its files are written (they stay until the caller removes `dir`). */
  written?: (table: WrittenTable) => void;
}

export interface WrittenTable {
  name: ExportTable;
  columns: ExportColumn[];
  rows: number;
  files: { format: Format; file: string }[];
}

const HELD = ['complete', 'partial', 'empty'];
const WITH_VALUES = "('complete', 'partial')";
const ZERO_FILLED = new Set<ExportTable>(['activity_steps_intraday', 'activity_calories_intraday']);
const DAY_MS = 86_400_000;
const HEART = ['heartrate_intraday_1min', 'heartrate_intraday_1sec'] as const;

const text = (value: string) => `'${value.replaceAll("'", "''")}'`;
const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
const addDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

const SQL_TYPE: Record<ExportKind, string> = {
  string: 'VARCHAR',
  date: 'DATE',
  instant: 'TIMESTAMPTZ',
  int32: 'INTEGER',
  double: 'DOUBLE',
  boolean: 'BOOLEAN',
};

/** The export kind of a column as DuckDB reads it from the dataset's Parquet. */
function kindOfType(type: string): ExportKind {
  if (type === 'VARCHAR' || type === 'BLOB') return 'string';
  if (type === 'DATE') return 'date';
  if (type.startsWith('TIMESTAMP')) return 'instant';
  if (type === 'INTEGER' || type === 'SMALLINT' || type === 'TINYINT') return 'int32';
  if (type === 'BOOLEAN') return 'boolean';
  return 'double';
}

const suffixOf = (offset: number) => {
  const abs = Math.abs(offset);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${offset < 0 ? '-' : '+'}${pad(Math.floor(abs / 3600))}:${pad(Math.floor((abs % 3600) / 60))}`;
};

/**
 * `2026-11-01T01:30:00-05:00` from an instant (ms) and an offset (s), both SQL expressions. The
 * offsets known to occur get their `-05:00` as a constant (building it per row is most of the
 * cost of the text); any other is built.
 */
function localText(ms: string, off: string, known: readonly number[] = []): string {
  const abs = `abs(${off})`;
  const built = `CASE WHEN ${off} < 0 THEN '-' ELSE '+' END || lpad(CAST(${abs} // 3600 AS VARCHAR), 2, '0') || ':' || lpad(CAST((${abs} % 3600) // 60 AS VARCHAR), 2, '0')`;
  const suffix =
    known.length > 0
      ? `CASE ${off} ${known.map((o) => `WHEN ${o} THEN '${suffixOf(o)}'`).join(' ')} ELSE ${built} END`
      : built;
  return `(strftime(make_timestamp((${ms} + ${off} * 1000) * 1000), '%Y-%m-%dT%H:%M:%S') || ${suffix})`;
}
const localDate = (ms: string, off: string) =>
  `CAST(make_timestamp((${ms} + ${off} * 1000) * 1000) AS DATE)`;
/** Instants are handled as ms (BIGINT) and typed at the end. */
const instantOf = (ms: string) => `make_timestamptz((${ms}) * 1000)`;

/** A value as CSV text, like the JS numbers researchers' tools read (50, not 50.0). */
function csvText(name: string, kind: ExportKind): string {
  const c = ident(name);
  if (kind === 'instant')
    return `strftime(make_timestamp(epoch_ms(${c}) * 1000), '%Y-%m-%dT%H:%M:%S.%gZ')`;
  if (kind === 'double')
    return `CASE WHEN NOT isfinite(${c}) THEN NULL WHEN ${c} = 0 THEN '0' WHEN ${c} = trunc(${c}) AND abs(${c}) < 1e21 THEN format('{:.0f}', ${c}) ELSE CAST(${c} AS VARCHAR) END`;
  return c;
}

const headerCell = (name: string) =>
  /[",\r\n]/.test(name) ? `"${name.replace(/"/g, '""')}"` : name;

interface Source {
  /** The view's name; null when no partition of the type is held. */
  view: string | null;
  /** The partitions' rows files, in participant and day order. */
  files: string[];
  /** Column → DuckDB type, as the partitions store them. */
  columns: Map<string, string>;
}

export async function writeTables(input: TablesInput): Promise<WrittenTable[]> {
  const instance = await DuckDBInstance.create(':memory:', {
    temp_directory: path.join(input.dir, '.duckdb'),
  });
  // Two connections build tables side by side: while one writes a big table on DuckDB's threads,
  // the other binds and writes the small ones (binding, which reads every file's schema, runs on
  // one thread).
  const connections = [await instance.connect(), await instance.connect()];
  try {
    return await build(connections, input);
  } finally {
    for (const db of connections) db.closeSync();
    instance.closeSync();
  }
}

async function build(connections: DuckDBConnection[], input: TablesInput): Promise<WrittenTable[]> {
  for (const connection of connections) {
    await connection.run("SET TimeZone = 'UTC'");
    // Tables in time order rely on rows leaving in the order the files are listed and hold them.
    await connection.run('SET preserve_insertion_order = true');
  }
  const db = connections[0] as DuckDBConnection;
  const participants = [...input.participantIds].sort();
  const dates = input.dates;
  const first = dates[0] as string;
  const last = dates.at(-1) as string;
  const types = [...new Set(input.parts.map((p) => p.type))].sort();

  // Every participant-day's state per type, from the ledger.
  await db.run('CREATE TABLE states (pid VARCHAR, type VARCHAR, date DATE, state VARCHAR)');
  const stateOf = new Map<string, string>();
  for (const part of input.parts)
    stateOf.set(`${part.participantId}\0${part.type}\0${part.date}`, part.state);
  {
    const states = await db.createAppender('states');
    for (const pid of participants)
      for (const type of new Set<string>([...types, ...input.tables]))
        for (const date of dates) {
          states.appendVarchar(pid);
          states.appendVarchar(type);
          states.appendVarchar(date);
          states.appendVarchar(stateOf.get(`${pid}\0${type}\0${date}`) ?? 'missing');
          states.endRow();
        }
    states.closeSync();
  }

  // One view per type over its files, each row with its partition's participant, day and state,
  // made when a table first needs it (by the connection building that table).
  const sources = new Map<DataType, Promise<Source>>();
  const sourceOf = (type: DataType, db: DuckDBConnection) => {
    let source = sources.get(type);
    if (!source) {
      source = viewOf(type, db);
      sources.set(type, source);
    }
    return source;
  };
  async function viewOf(type: DataType, db: DuckDBConnection): Promise<Source> {
    // The partitions with values, in participant and day order; empty ones hold no rows.
    const files: string[] = [];
    for (const part of input.parts) {
      if (part.type !== type || !part.file || !WITH_VALUES.includes(`'${part.state}'`)) continue;
      if (!part.file.includes(`/participant=${part.participantId}/date=${part.date}/`))
        throw new Error(`A partition file outside its participant=/date= folder: ${part.file}`);
      files.push(part.file);
    }
    if (files.length === 0) return { view: null, files, columns: new Map() };
    const read = `read_parquet([${files.map(text).join(', ')}], union_by_name = true, hive_partitioning = false, filename = true, file_row_number = true)`;
    const view = `src_${type}`;
    await db.run(
      // Participant and day from the folder names (once per chunk: the file name is constant),
      // no join, so the rows keep the files' order.
      `CREATE VIEW ${view} AS SELECT regexp_extract(filename, '.*/participant=([^/]+)/date=', 1) AS _pid, CAST(regexp_extract(filename, '.*/date=([0-9-]+)/', 1) AS DATE) AS _part_date, file_row_number AS _rn, * EXCLUDE (filename, file_row_number) FROM ${read}`,
    );
    // The columns as the view was bound (reading every file's schema is what binding costs, so
    // it is done once here rather than again by a DESCRIBE).
    const described = await db.runAndReadAll(
      `SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = ${text(view)} ORDER BY column_index`,
    );
    const columns = new Map<string, string>();
    for (const row of described.getRowObjectsJS()) {
      const name = String(row.column_name);
      if (!['_pid', '_part_date', '_rn'].includes(name)) columns.set(name, String(row.data_type));
    }
    return { view, files, columns };
  }

  // Offsets: the ends of every run of one offset the points recorded, per participant.
  const timelines = new Map<string, OffsetTimeline>();
  for (const pid of participants) {
    const zone =
      input.parts.find((p) => p.participantId === pid && p.timeZone)?.timeZone ??
      input.zones?.get(pid) ??
      'UTC';
    timelines.set(pid, new OffsetTimeline(zone));
  }
  for (const part of input.parts)
    if (part.timeZone) timelines.get(part.participantId)?.zoneOfDay(part.date, part.timeZone);
  // The offsets in force and the local midnights, worked out once and only when a table needs
  // them (a row without a recorded offset, the minute grid): reading every point costs a pass.
  await db.run(
    'CREATE TABLE days (pid VARCHAR, date DATE, start_ms BIGINT, end_ms BIGINT, hr_held BOOLEAN)',
  );
  await db.run('CREATE TABLE segs (pid VARCHAR, from_ms BIGINT, off INTEGER)');
  let worked: Promise<void> | undefined;
  const workedOut = (db: DuckDBConnection) => {
    worked ??= workOutOffsets(db);
    return worked;
  };
  async function workOutOffsets(db: DuckDBConnection) {
    const recorded: string[] = [];
    const all: Source[] = [];
    for (const type of types) all.push(await sourceOf(type, db));
    for (const { view, columns } of all) {
      if (!view) continue;
      for (const [at, off] of [
        ['timestamp_utc', 'utc_offset_seconds'],
        ['start_time_utc', 'start_utc_offset_seconds'],
        ['end_time_utc', 'end_utc_offset_seconds'],
      ]) {
        if (columns.has(at as string) && columns.has(off as string))
          recorded.push(
            `SELECT _pid AS pid, epoch_ms(${at}) AS ms, CAST(${off} AS INTEGER) AS off FROM ${view} WHERE ${at} IS NOT NULL AND ${off} IS NOT NULL`,
          );
      }
    }
    if (recorded.length > 0) {
      // Each offset's first and last instant per participant: where these spans do not overlap,
      // they are the runs. Only a participant whose offsets interleave (back and forth) needs
      // every point in order.
      const points = `(${recorded.join(' UNION ALL ')})`;
      const spans = await db.runAndReadAll(
        `SELECT pid, off, min(ms) AS first, max(ms) AS last FROM ${points} GROUP BY pid, off ORDER BY pid, first, off`,
      );
      const byPid = new Map<string, { off: number; first: number; last: number }[]>();
      for (const row of spans.getRowObjectsJS()) {
        const list = byPid.get(String(row.pid)) ?? [];
        list.push({ off: Number(row.off), first: Number(row.first), last: Number(row.last) });
        byPid.set(String(row.pid), list);
      }
      const interleaved: string[] = [];
      for (const [pid, list] of byPid) {
        if (list.some((span, i) => i > 0 && span.first <= (list[i - 1]?.last as number)))
          interleaved.push(pid);
        else
          for (const span of list) {
            timelines.get(pid)?.record(span.first, span.off);
            timelines.get(pid)?.record(span.last, span.off);
          }
      }
      if (interleaved.length > 0) {
        const ends = await db.runAndReadAll(
          `SELECT pid, ms, off FROM (SELECT pid, ms, off, lag(off) OVER w AS before, lead(off) OVER w AS after FROM ${points} WHERE pid IN (${interleaved.map(text).join(', ')}) WINDOW w AS (PARTITION BY pid ORDER BY ms, off)) WHERE before IS DISTINCT FROM off OR after IS DISTINCT FROM off ORDER BY pid, ms, off`,
        );
        for (const row of ends.getRowObjectsJS())
          timelines.get(String(row.pid))?.record(Number(row.ms), Number(row.off));
      }
    }

    // Per participant-day: local midnights and whether heart rate is held; the offsets as steps.
    {
      const days = await db.createAppender('days');
      const segs = await db.createAppender('segs');
      for (const pid of participants) {
        const timeline = timelines.get(pid) as OffsetTimeline;
        const midnights = [...dates, addDays(last, 1)].map((d) => timeline.midnight(d));
        dates.forEach((date, i) => {
          days.appendVarchar(pid);
          days.appendVarchar(date);
          days.appendBigInt(BigInt(midnights[i] as number));
          days.appendBigInt(BigInt(midnights[i + 1] as number));
          days.appendBoolean(
            HEART.some((t) => HELD.includes(stateOf.get(`${pid}\0${t}\0${date}`) ?? '')),
          );
          days.endRow();
        });
        const from = (midnights[0] as number) - 2 * DAY_MS;
        const to = (midnights.at(-1) as number) + 2 * DAY_MS;
        for (const seg of timeline.segments(from, to)) {
          segs.appendVarchar(pid);
          segs.appendBigInt(BigInt(seg.from));
          segs.appendInteger(seg.offset);
          segs.endRow();
        }
      }
      days.closeSync();
      segs.closeSync();
    }
  }

  async function tableOf(db: DuckDBConnection, name: ExportTable): Promise<WrittenTable> {
    const shape = SHAPES[name];
    const type: DataType = name === 'sleep_stages' ? 'sleep_log' : name;
    const source: Source = types.includes(type)
      ? await sourceOf(type, db)
      : { view: null, files: [], columns: new Map<string, string>() };
    const defined = exportColumns(name, input.minuteGrid);
    const columns =
      shape === 'stages' ? defined : [...defined, ...passedThrough(name, defined, source.columns)];
    const has = (column: string) => source.view !== null && source.columns.has(column);
    /** A column's value from the partition row `r` (null when the partitions lack it). */
    const cellOf = (col: ExportColumn, r = 'r') => {
      const from = col.from ?? col.name;
      if (!has(from)) return 'NULL';
      const c = `${r}.${ident(from)}`;
      if (col.scale !== undefined)
        return `floor(CAST(${c} AS DOUBLE) * CAST(${col.scale} AS DOUBLE) * 1e9 + 0.5) / 1e9`;
      if (col.kind === 'instant') return `epoch_ms(${c})`;
      return c;
    };
    const select = (cells: Map<string, string>) =>
      columns
        .map((col) => {
          const value = cells.get(col.name) ?? cellOf(col);
          const typed =
            col.kind === 'instant' && value !== 'NULL'
              ? instantOf(value)
              : `CAST(${value} AS ${SQL_TYPE[col.kind]})`;
          return `${typed} AS ${ident(col.name)}`;
        })
        .join(', ');
    const stateIs = (alias: string) =>
      `${alias}.type = ${text(type)} AND ${alias}.date BETWEEN DATE ${text(first)} AND DATE ${text(last)}`;
    let query: string;

    if (shape === 'daily' || shape === 'profile') {
      const cells = new Map([
        ['participant_id', 'g.pid'],
        ['date', 'g.date'],
        ['day_state', 'g.state'],
      ]);
      if (source.view) {
        const prefer = has('date') ? 'CASE WHEN date = _part_date THEN 0 ELSE 1 END, ' : '';
        query = `WITH r AS (SELECT *, row_number() OVER (PARTITION BY _pid, _part_date ORDER BY ${prefer}_rn) AS _pick FROM ${source.view}) SELECT ${select(cells)} FROM states g ${shape === 'profile' ? 'JOIN' : 'LEFT JOIN'} r ON r._pid = g.pid AND r._part_date = g.date AND r._pick = 1 AND g.state IN ${WITH_VALUES} WHERE ${stateIs('g')} ORDER BY g.pid, g.date`;
      } else {
        query = `SELECT ${select(cells)} FROM states g WHERE ${stateIs('g')} ${shape === 'profile' ? 'AND false ' : ''}ORDER BY g.pid, g.date`;
      }
    } else if (shape === 'sleep') {
      if (source.view) {
        const unset = (at: string, off: string) =>
          has(at) ? `(${at} IS NOT NULL AND ${has(off) ? `${off} IS NULL` : 'true'})` : 'false';
        const counted = await db.runAndReadAll(
          `SELECT count(*) FILTER (${unset('start_time_utc', 'start_utc_offset_seconds')} OR ${unset('end_time_utc', 'end_utc_offset_seconds')}) AS n FROM ${source.view}`,
        );
        if (Number(counted.getRowObjectsJS()[0]?.n ?? 0) > 0) await workedOut(db);
      }
      const cells = new Map([
        ['participant_id', 'r._pid'],
        [
          'start_local',
          `CASE WHEN r._s IS NULL THEN NULL ELSE ${localText('r._s', `coalesce(${has('start_utc_offset_seconds') ? 'CAST(r.start_utc_offset_seconds AS INTEGER)' : 'NULL'}, s1.off)`)} END`,
        ],
        [
          'end_local',
          `CASE WHEN r._e IS NULL THEN NULL ELSE ${localText('r._e', `coalesce(${has('end_utc_offset_seconds') ? 'CAST(r.end_utc_offset_seconds AS INTEGER)' : 'NULL'}, s2.off)`)} END`,
        ],
      ]);
      const ms = (column: string) => (has(column) ? `epoch_ms(${column})` : 'CAST(NULL AS BIGINT)');
      query = source.view
        ? `WITH r AS (SELECT *, ${ms('start_time_utc')} AS _s, ${ms('end_time_utc')} AS _e FROM ${source.view} QUALIFY row_number() OVER (PARTITION BY _pid, coalesce(CAST(${has('sleep_id') ? 'sleep_id' : 'NULL'} AS VARCHAR), '') ORDER BY _part_date, _rn) = 1) SELECT ${select(cells)} FROM r ASOF LEFT JOIN segs s1 ON s1.pid = r._pid AND r._s >= s1.from_ms ASOF LEFT JOIN segs s2 ON s2.pid = r._pid AND r._e >= s2.from_ms ORDER BY r._pid, coalesce(r._s, 0), r._part_date, r._rn`
        : `SELECT ${select(cells)} FROM (SELECT 1) WHERE false`;
    } else if (shape === 'stages') {
      await stagesTable(db, input, timelines, source, workedOut);
      const cells = new Map([
        ['participant_id', 'r.pid'],
        ['sleep_id', 'r.sleep_id'],
        ['stage', 'r.stage'],
        ['start_local', localText('r.start_ms', 'r.start_off')],
        ['start_utc', 'r.start_ms'],
        ['start_utc_offset_seconds', 'r.start_off'],
        ['end_local', localText('r.end_ms', 'r.end_off')],
        ['end_utc', 'r.end_ms'],
        ['end_utc_offset_seconds', 'r.end_off'],
        ['duration_seconds', '(r.end_ms - r.start_ms) / 1000.0'],
      ]);
      query = `SELECT ${select(cells)} FROM stages r ORDER BY r.seq`;
    } else {
      // Points and minutes: every row of the partitions read, once per instant, in time order.
      let points = 'SELECT NULL::VARCHAR AS _pid, NULL::BIGINT AS _ms WHERE false';
      const known: number[] = [];
      let ordered = false;
      if (source.view) {
        points = `SELECT *, epoch_ms(timestamp_utc) AS _ms FROM ${source.view} WHERE timestamp_utc IS NOT NULL`;
        const found = await pointFacts(db, source);
        for (const o of found.offsets.length <= 8 ? found.offsets : []) known.push(o);
        if (found.unset > 0) await workedOut(db);
        ordered = found.ordered;
        // Where the files do not vouch for their order, the first row of each instant is found by
        // a sort, paid only when an instant is there twice (a hash collision only costs that sort).
        if (!ordered) {
          const counted = await db.runAndReadAll(
            `SELECT count(*) = count(DISTINCT hash(_pid, _ms)) AS once FROM (${points})`,
          );
          if (counted.getRowObjectsJS()[0]?.once !== true)
            points +=
              ' QUALIFY row_number() OVER (PARTITION BY _pid, _ms ORDER BY _part_date, _rn) = 1';
        }
        if (found.unset > 0) ordered = false;
      }
      const recordedOff = has('utc_offset_seconds')
        ? 'CAST(r.utc_offset_seconds AS INTEGER)'
        : 'NULL';
      if (shape === 'minutes' && input.minuteGrid) {
        await workedOut(db);
        const hearts: Source[] = [];
        for (const t of HEART) if (types.includes(t)) hearts.push(await sourceOf(t, db));
        const worn = wornMinutes(hearts);
        const gridOff = `coalesce(${recordedOff}, s.off)`;
        const cells = new Map([
          ['participant_id', 'g.pid'],
          ['date', 'g.date'],
          ['time_local', localText('g._ms', gridOff)],
          ['time_utc', 'g._ms'],
          ['utc_offset_seconds', gridOff],
          ['day_state', 'g.state'],
          ['worn', `CASE WHEN g.hr_held THEN w.m IS NOT NULL ELSE NULL END`],
        ]);
        if (ZERO_FILLED.has(name)) {
          for (const col of columns) {
            // The type's own measures only: a passed-through column is not known to be a count.
            if (!col.derived && col.google !== '' && col.kind === 'double')
              cells.set(
                col.name,
                `CASE WHEN r._pid IS NULL AND g.state IN ('complete', 'partial', 'empty') THEN 0 ELSE ${cellOf(col)} END`,
              );
          }
        }
        query = `WITH p AS (${points}), g AS (SELECT d.pid, d.date, st.state, d.hr_held, unnest(range(d.start_ms, d.end_ms, 60000)) AS _ms FROM days d JOIN states st ON st.pid = d.pid AND st.date = d.date AND st.type = ${text(type)}), w AS (${worn}) SELECT ${select(cells)} FROM g LEFT JOIN p r ON r._pid = g.pid AND r._ms = g._ms AND g.state IN ('complete', 'partial', 'empty') LEFT JOIN w ON w.pid = g.pid AND w.m = g._ms ASOF LEFT JOIN segs s ON s.pid = g.pid AND g._ms >= s.from_ms ORDER BY g.pid, g.date, g._ms`;
      } else {
        const cells = new Map([
          ['participant_id', 'r._pid'],
          ['date', 'r._date'],
          ['time_local', localText('r._ms', 'r._off', known)],
          ['time_utc', 'r._ms'],
          ['utc_offset_seconds', 'r._off'],
        ]);
        // The offset in force is looked up only for rows without one recorded; the rows are sorted
        // before their text columns are made (a narrower sort).
        const recordedP = recordedOff.replace('r.', 'p.');
        const inRange = `${localDate('_ms', '_off')} BETWEEN DATE ${text(first)} AND DATE ${text(last)}`;
        // Rows in time order with every offset recorded are written in the files' order, which
        // DuckDB keeps (preserve_insertion_order): no sort of millions of rows.
        query = ordered
          ? `WITH r AS (SELECT *, ${recordedOff.replace('r.', '')} AS _off, ${localDate('_ms', recordedOff.replace('r.', ''))} AS _date FROM (${points})) SELECT ${select(cells)} FROM r WHERE r._date BETWEEN DATE ${text(first)} AND DATE ${text(last)}`
          : `WITH p AS NOT MATERIALIZED (${points}), t AS (SELECT p.*, ${recordedP} AS _off FROM p WHERE ${recordedP} IS NOT NULL UNION ALL SELECT p.*, s.off AS _off FROM p ASOF LEFT JOIN segs s ON s.pid = p._pid AND p._ms >= s.from_ms WHERE ${recordedP} IS NULL), r AS (SELECT *, ${localDate('_ms', '_off')} AS _date FROM t WHERE ${inRange} ORDER BY _pid, _ms) SELECT ${select(cells)} FROM r`;
      }
    }
    const table = await copyOut(db, input, name, columns, query);
    input.written?.(table);
    return table;
  }

  // The biggest table (raw heart rate, most of the rows) first, the others as a connection frees.
  const queue = [...input.tables].sort(
    (a, b) => Number(b === 'heartrate_intraday_1sec') - Number(a === 'heartrate_intraday_1sec'),
  );
  const built = new Map<ExportTable, WrittenTable>();
  let failed = false;
  const settled = await Promise.allSettled(
    connections.map(async (db) => {
      for (let name = queue.shift(); name && !failed; name = queue.shift()) {
        try {
          built.set(name, await tableOf(db, name));
        } catch (error) {
          failed = true;
          throw error;
        }
      }
    }),
  );
  const rejected = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (rejected) throw rejected.reason;
  return input.tables.map((name) => built.get(name) as WrittenTable);
}

/**
 * What one pass over a point type's partitions tells, per file (a cheap grouped scan): whether
 * the rows are in time order across all of them (each file says its own rows are, in its
 * metadata, and each participant's files follow each other without overlap), how many rows lack
 * an offset, and the offsets that occur.
 */
async function pointFacts(db: DuckDBConnection, source: Source) {
  const hasOffset = source.columns.has('utc_offset_seconds');
  const off = 'CAST(utc_offset_seconds AS INTEGER)';
  const read = await db.runAndReadAll(
    `SELECT _pid AS pid, _part_date AS d, min(epoch_ms(timestamp_utc)) AS lo, max(epoch_ms(timestamp_utc)) AS hi, ${hasOffset ? 'count(*) FILTER (utc_offset_seconds IS NULL)' : 'count(*)'} AS unset, ${hasOffset ? `list(DISTINCT ${off}) FILTER (utc_offset_seconds IS NOT NULL)` : '[]'} AS offsets FROM ${source.view} WHERE timestamp_utc IS NOT NULL GROUP BY ALL ORDER BY pid, d`,
  );
  const vouched = await db.runAndReadAll(
    `SELECT count(DISTINCT file_name) AS n FROM parquet_kv_metadata([${source.files.map(text).join(', ')}]) WHERE decode(key) = ${text(TIME_ORDER_KEY)}`,
  );
  let ordered = Number(vouched.getRowObjectsJS()[0]?.n ?? 0) === source.files.length;
  let unset = 0;
  const offsets = new Set<number>();
  let before: { pid: string; hi: number } | undefined;
  for (const row of read.getRowObjectsJS()) {
    const pid = String(row.pid);
    unset += Number(row.unset);
    for (const o of (row.offsets ?? []) as unknown[]) offsets.add(Number(o));
    if (before?.pid === pid && Number(row.lo) <= before.hi) ordered = false;
    before = { pid, hi: Number(row.hi) };
  }
  return { ordered, unset, offsets: [...offsets].sort((a, b) => a - b) };
}

/** The minutes (their start, ms) in which heart rate was recorded, per participant. */
function wornMinutes(hearts: Source[]): string {
  const parts: string[] = [];
  for (const source of hearts) {
    if (!source.view) continue;
    const bpm = ['heart_rate_bpm', 'heart_rate_avg_bpm'].filter((c) => source.columns.has(c));
    if (bpm.length === 0 || !source.columns.has('timestamp_utc')) continue;
    parts.push(
      `SELECT _pid AS pid, epoch_ms(timestamp_utc) - ((epoch_ms(timestamp_utc) % 60000) + 60000) % 60000 AS m FROM ${source.view} WHERE timestamp_utc IS NOT NULL AND coalesce(${bpm.join(', ')}) > 0`,
    );
  }
  return parts.length > 0
    ? `SELECT DISTINCT pid, m FROM (${parts.join(' UNION ALL ')})`
    : 'SELECT NULL::VARCHAR AS pid, NULL::BIGINT AS m WHERE false';
}

/** The columns stored in the partitions that the table does not map: passed through as stored. */
function passedThrough(
  table: ExportTable,
  defined: ExportColumn[],
  stored: Map<string, string>,
): ExportColumn[] {
  const known = new Set(CONSUMED);
  for (const col of defined) {
    known.add(col.name);
    if (col.from) known.add(col.from);
  }
  return [...stored]
    .filter(([name]) => !known.has(name))
    .map(([name, type]) => ({
      name,
      kind: kindOfType(type),
      unit: '',
      meaning: `Passed through from the dataset’s ${table} partitions as stored.`,
      google: '',
    }));
}

/** sleep_stages from the raw pages of the held sleep partitions, as a table in DuckDB. */
async function stagesTable(
  db: DuckDBConnection,
  input: TablesInput,
  timelines: Map<string, OffsetTimeline>,
  source: Source,
  workedOut: (db: DuckDBConnection) => Promise<void>,
) {
  await db.run(
    'CREATE TABLE stages (seq INTEGER, pid VARCHAR, sleep_id VARCHAR, stage VARCHAR, start_ms BIGINT, start_off INTEGER, end_ms BIGINT, end_off INTEGER)',
  );
  const sessions = new Map<string, Set<string>>();
  if (source.view && source.columns.has('sleep_id')) {
    const read = await db.runAndReadAll(
      `SELECT _pid, CAST(_part_date AS VARCHAR) AS d, coalesce(CAST(sleep_id AS VARCHAR), '') AS id FROM ${source.view}`,
    );
    for (const row of read.getRowObjectsJS()) {
      const key = `${row._pid}\0${row.d}`;
      const set = sessions.get(key) ?? new Set<string>();
      set.add(String(row.id));
      sessions.set(key, set);
    }
  }
  const appender = await db.createAppender('stages');
  let seq = 0;
  const inRange = new Set(input.dates);
  for (const pid of [...input.participantIds].sort()) {
    const timeline = timelines.get(pid) as OffsetTimeline;
    const segments: StageSegment[] = [];
    const seen = new Set<string>();
    for (const part of input.parts) {
      if (part.participantId !== pid || part.type !== 'sleep_log' || !part.file) continue;
      if (!inRange.has(part.date) || !['complete', 'partial'].includes(part.state)) continue;
      const ids = sessions.get(`${pid}\0${part.date}`) ?? new Set<string>();
      for (const s of await input.stagesOf(part, ids)) {
        const key = `${s.sleepId}\0${s.startMs}\0${s.stage}`;
        if (seen.has(key)) continue;
        seen.add(key);
        segments.push(s);
      }
    }
    segments.sort((a, b) => a.startMs - b.startMs || a.sleepId.localeCompare(b.sleepId));
    if (segments.some((s) => s.startOffset === null || s.endOffset === null)) await workedOut(db);
    for (const s of segments) {
      appender.appendInteger(seq++);
      appender.appendVarchar(pid);
      appender.appendVarchar(s.sleepId);
      appender.appendVarchar(s.stage);
      appender.appendBigInt(BigInt(s.startMs));
      appender.appendInteger(s.startOffset ?? timeline.offsetAt(s.startMs));
      appender.appendBigInt(BigInt(s.endMs));
      appender.appendInteger(s.endOffset ?? timeline.offsetAt(s.endMs));
      appender.endRow();
    }
  }
  appender.closeSync();
}

/** The table written in each format asked: Parquet typed, CSV as text with ids quoted. */
async function copyOut(
  db: DuckDBConnection,
  input: TablesInput,
  name: ExportTable,
  columns: ExportColumn[],
  query: string,
): Promise<WrittenTable> {
  const formats = (['parquet', 'csv'] as const).filter((f) => input.formats.includes(f));
  // Parquet alone: written from the query. Else the rows are made once and read in insertion
  // (= ORDER BY) order by each writer (a projection over an ordered subquery may not keep it).
  const stored = formats.includes('csv');
  if (stored) await db.run(`CREATE TABLE out_${name} AS ${query}`);
  const from = stored ? `(SELECT * FROM out_${name})` : `(${query})`;
  const files: WrittenTable['files'] = [];
  let rows = 0;
  for (const format of formats) {
    const file = path.join(input.dir, `${name}.${format}`);
    let copy: string;
    if (format === 'parquet') {
      const descriptions = JSON.stringify(
        Object.fromEntries(
          columns.map((c) => [c.name, `${c.meaning}${c.unit ? ` [${c.unit}]` : ''}`]),
        ),
      );
      copy = `COPY ${from} TO ${text(file)} (FORMAT parquet, COMPRESSION snappy, KV_METADATA {'table': ${text(name)}, 'column_descriptions': ${text(descriptions)}})`;
    } else {
      const quoted = columns.filter((c) => c.kind === 'string').map((c) => ident(c.name));
      const cells = columns.map((c) => `${csvText(c.name, c.kind)} AS ${ident(c.name)}`).join(', ');
      copy = `COPY (SELECT ${cells} FROM out_${name}) TO ${text(`${file}.body`)} (FORMAT csv, HEADER false, NEW_LINE '\\r\\n'${quoted.length > 0 ? `, FORCE_QUOTE (${quoted.join(', ')})` : ''})`;
    }
    const result = await db.runAndReadAll(copy);
    rows = Number(result.getRowsJS()[0]?.[0] ?? 0);
    if (format === 'csv') {
      // The header as the CSV has always had it: names bare unless they need quotes.
      const header = `${columns.map((c) => headerCell(c.name)).join(',')}\r\n`;
      await writeFile(
        file,
        Buffer.concat([Buffer.from(header, 'utf8'), await readFile(`${file}.body`)]),
      );
    }
    files.push({ format, file });
  }
  if (stored) await db.run(`DROP TABLE out_${name}`);
  return { name, columns, rows, files };
}
