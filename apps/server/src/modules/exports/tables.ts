import type { DataType } from '@research/contracts';
import {
  CONSUMED,
  type ExportColumn,
  type ExportKind,
  type ExportTable,
  exportColumns,
  SHAPES,
} from './export-columns.js';
import { localDate, localText, OffsetTimeline } from './local-time.js';

/**
 * The export's tables from the partitions read: one table per type (and sleep_stages), rows in a
 * stable order (participant, then day or time), values typed as export-columns.ts says. Pure:
 * the same partitions give the same tables.
 */

export type Value = string | number | boolean | null;
export type TidyRow = Record<string, Value>;

/** A partition as the builder sees it: its ledger state and, when held, its tidy rows. */
export interface ReadPartition {
  participantId: string;
  type: DataType;
  date: string;
  timeZone: string | null;
  state: string;
  /** The tidy rows (complete, partial and empty partitions); null when not usable. */
  rows: TidyRow[] | null;
  /** Types of the partition's columns as stored (for columns passed through). */
  kinds: Map<string, ExportKind>;
  /** Sleep partitions: the stage segments of their sessions, from the raw pages. */
  stages?: StageSegment[];
}

export interface StageSegment {
  sleepId: string;
  stage: string;
  startMs: number;
  startOffset: number | null;
  endMs: number;
  endOffset: number | null;
}

export interface Table {
  name: ExportTable;
  columns: ExportColumn[];
  rows: Value[][];
}

export interface BuildInput {
  participantIds: readonly string[];
  tables: readonly ExportTable[];
  /** Local days of the export, in order. */
  dates: readonly string[];
  minuteGrid: boolean;
  /** Every partition read, of the export's types and the neighbours the builder needs. */
  partitions: readonly ReadPartition[];
  /**
   * Each participant's latest known time zone, for one without any partition read (else their
   * days are cut in UTC: nothing says where they are).
   */
  zones?: ReadonlyMap<string, string>;
}

const HELD = new Set(['complete', 'partial', 'empty']);
const WITH_VALUES = new Set(['complete', 'partial']);
const ZERO_FILLED = new Set<ExportTable>(['activity_steps_intraday', 'activity_calories_intraday']);
const MINUTE_MS = 60_000;

const nextDay = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** The columns stored in the partitions that the table does not map: passed through as stored. */
function passedThrough(table: ExportTable, defined: ExportColumn[], parts: ReadPartition[]) {
  const known = new Set(CONSUMED);
  for (const col of defined) {
    known.add(col.name);
    if (col.from) known.add(col.from);
  }
  const extra = new Map<string, ExportKind>();
  for (const part of parts) {
    for (const [name, kind] of part.kinds)
      if (!known.has(name) && !extra.has(name)) extra.set(name, kind);
  }
  return [...extra].map(
    ([name, kind]): ExportColumn => ({
      name,
      kind,
      unit: '',
      meaning: `Passed through from the dataset’s ${table} partitions as stored.`,
      google: '',
    }),
  );
}

const numberOr = (value: Value | undefined): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/** A tidy value as the column stores it. */
function cellOf(col: ExportColumn, row: TidyRow | undefined): Value {
  if (!row) return null;
  const raw = row[col.from ?? col.name];
  if (raw === undefined || raw === null) return null;
  if (col.scale !== undefined) {
    const n = numberOr(raw);
    return n === null ? null : Math.round(n * col.scale * 1e9) / 1e9;
  }
  if (col.kind === 'string') return String(raw);
  return raw;
}

export function buildTables(input: BuildInput): Table[] {
  const byKey = new Map<string, ReadPartition>();
  const byParticipantType = new Map<string, ReadPartition[]>();
  const timelines = new Map<string, OffsetTimeline>();
  for (const part of input.partitions) {
    byKey.set(`${part.participantId}\0${part.type}\0${part.date}`, part);
    const key = `${part.participantId}\0${part.type}`;
    const list = byParticipantType.get(key) ?? [];
    list.push(part);
    byParticipantType.set(key, list);
  }
  const participants = [...input.participantIds].sort();
  for (const participantId of participants) {
    const timeline = new OffsetTimeline(
      input.partitions.find((p) => p.participantId === participantId && p.timeZone)?.timeZone ??
        input.zones?.get(participantId) ??
        'UTC',
    );
    timelines.set(participantId, timeline);
  }
  // Offsets: the zones the ledger cut days in, and every offset Google recorded with a point.
  for (const part of input.partitions) {
    const timeline = timelines.get(part.participantId);
    if (!timeline) continue;
    if (part.timeZone) timeline.zoneOfDay(part.date, part.timeZone);
    for (const row of part.rows ?? []) {
      for (const [at, off] of [
        ['timestamp_utc', 'utc_offset_seconds'],
        ['start_time_utc', 'start_utc_offset_seconds'],
        ['end_time_utc', 'end_utc_offset_seconds'],
      ] as const) {
        const ms = numberOr(row[at]);
        const offset = numberOr(row[off]);
        if (ms !== null && offset !== null) timeline.record(ms, offset);
      }
    }
  }
  const partsOf = (participantId: string, type: DataType) =>
    byParticipantType.get(`${participantId}\0${type}`) ?? [];
  const partOf = (participantId: string, type: DataType, date: string) =>
    byKey.get(`${participantId}\0${type}\0${date}`);
  const inRange = new Set(input.dates);

  return input.tables.map((name): Table => {
    const shape = SHAPES[name];
    const type: DataType = name === 'sleep_stages' ? 'sleep_log' : name;
    const defined = exportColumns(name, input.minuteGrid);
    const allParts = participants.flatMap((p) => partsOf(p, type));
    const columns =
      shape === 'stages' ? defined : [...defined, ...passedThrough(name, defined, allParts)];
    const rows: Value[][] = [];

    for (const participantId of participants) {
      const timeline = timelines.get(participantId) as OffsetTimeline;
      const timeCells = (ms: number, recorded: number | null) => {
        const offset = recorded ?? timeline.offsetAt(ms);
        return { offset, local: localText(ms, offset), date: localDate(ms, offset) };
      };
      const parts = partsOf(participantId, type);

      if (shape === 'daily' || shape === 'profile') {
        for (const date of input.dates) {
          const part = partOf(participantId, type, date);
          const state = part?.state ?? 'missing';
          const tidy = WITH_VALUES.has(state) ? (part?.rows ?? []) : [];
          if (shape === 'profile' && tidy.length === 0) continue;
          const row =
            tidy.find((r) => r.date === date || r.date === undefined) ?? tidy[0] ?? undefined;
          rows.push(
            columns.map((col) => {
              if (col.name === 'participant_id') return participantId;
              if (col.name === 'date') return date;
              if (col.name === 'day_state') return state;
              return cellOf(col, row);
            }),
          );
        }
        continue;
      }

      if (shape === 'sleep') {
        const seen = new Set<string>();
        const sessions: { key: number; cells: Value[] }[] = [];
        for (const part of parts) {
          if (!inRange.has(part.date) || !WITH_VALUES.has(part.state)) continue;
          for (const row of part.rows ?? []) {
            const id = String(row.sleep_id ?? '');
            if (seen.has(id)) continue;
            seen.add(id);
            const start = numberOr(row.start_time_utc);
            const end = numberOr(row.end_time_utc);
            const startOffset = numberOr(row.start_utc_offset_seconds);
            const endOffset = numberOr(row.end_utc_offset_seconds);
            sessions.push({
              key: start ?? 0,
              cells: columns.map((col) => {
                if (col.name === 'participant_id') return participantId;
                if (col.name === 'start_local')
                  return start === null ? null : timeCells(start, startOffset).local;
                if (col.name === 'end_local')
                  return end === null ? null : timeCells(end, endOffset).local;
                return cellOf(col, row);
              }),
            });
          }
        }
        sessions.sort((a, b) => a.key - b.key);
        for (const s of sessions) rows.push(s.cells);
        continue;
      }

      if (shape === 'stages') {
        const segments: StageSegment[] = [];
        const seen = new Set<string>();
        for (const part of parts) {
          if (!inRange.has(part.date) || !WITH_VALUES.has(part.state)) continue;
          for (const s of part.stages ?? []) {
            const key = `${s.sleepId}\0${s.startMs}\0${s.stage}`;
            if (seen.has(key)) continue;
            seen.add(key);
            segments.push(s);
          }
        }
        segments.sort((a, b) => a.startMs - b.startMs || a.sleepId.localeCompare(b.sleepId));
        for (const s of segments) {
          const start = timeCells(s.startMs, s.startOffset);
          const end = timeCells(s.endMs, s.endOffset);
          const cells: Record<string, Value> = {
            participant_id: participantId,
            sleep_id: s.sleepId,
            stage: s.stage,
            start_local: start.local,
            start_utc: s.startMs,
            start_utc_offset_seconds: start.offset,
            end_local: end.local,
            end_utc: s.endMs,
            end_utc_offset_seconds: end.offset,
            duration_seconds: (s.endMs - s.startMs) / 1000,
          };
          rows.push(columns.map((col) => cells[col.name] ?? null));
        }
        continue;
      }

      // Points and minutes: every row of the partitions read, by instant, on the local days asked.
      const points = new Map<number, TidyRow>();
      for (const part of parts) {
        if (!WITH_VALUES.has(part.state)) continue;
        for (const row of part.rows ?? []) {
          const ms = numberOr(row.timestamp_utc);
          if (ms !== null && !points.has(ms)) points.set(ms, row);
        }
      }
      const cellsOf = (ms: number, row: TidyRow | undefined, extra: Record<string, Value>) => {
        const t = timeCells(ms, numberOr(row?.utc_offset_seconds));
        const fixed: Record<string, Value> = {
          participant_id: participantId,
          date: t.date,
          time_local: t.local,
          time_utc: ms,
          utc_offset_seconds: t.offset,
          ...extra,
        };
        return columns.map((col) =>
          col.name in fixed ? (fixed[col.name] as Value) : cellOf(col, row),
        );
      };

      if (shape === 'minutes' && input.minuteGrid) {
        const worn = wornMinutes(partsOf(participantId, 'heartrate_intraday_1min'), [
          ...partsOf(participantId, 'heartrate_intraday_1sec'),
        ]);
        for (const date of input.dates) {
          const state = partOf(participantId, type, date)?.state ?? 'missing';
          const filled = HELD.has(state);
          const hrHeld = ['heartrate_intraday_1min', 'heartrate_intraday_1sec'].some((t) =>
            HELD.has(partOf(participantId, t as DataType, date)?.state ?? ''),
          );
          for (const ms of timeline.minutesOf(date, nextDay(date))) {
            const row = filled ? points.get(ms) : undefined;
            const cells = cellsOf(ms, row, {
              date,
              day_state: state,
              worn: hrHeld ? worn.has(ms) : null,
            });
            if (!row && filled && ZERO_FILLED.has(name)) {
              for (let i = 0; i < columns.length; i++) {
                const col = columns[i] as ExportColumn;
                // The type's own measures only: a passed-through column is not known to be a count.
                if (!col.derived && col.google !== '' && col.kind === 'double') cells[i] = 0;
              }
            }
            rows.push(cells);
          }
        }
        continue;
      }

      for (const ms of [...points.keys()].sort((a, b) => a - b)) {
        const row = points.get(ms) as TidyRow;
        const cells = cellsOf(ms, row, {});
        if (inRange.has(cells[columns.findIndex((c) => c.name === 'date')] as string))
          rows.push(cells);
      }
    }
    return { name, columns, rows };
  });
}

/** The minutes (their start, ms) in which heart rate was recorded. */
function wornMinutes(minuteParts: ReadPartition[], secondParts: ReadPartition[]) {
  const worn = new Set<number>();
  for (const part of [...minuteParts, ...secondParts]) {
    if (!WITH_VALUES.has(part.state)) continue;
    for (const row of part.rows ?? []) {
      const ms = numberOr(row.timestamp_utc);
      const bpm = numberOr(row.heart_rate_bpm ?? row.heart_rate_avg_bpm);
      if (ms !== null && bpm !== null && bpm > 0) worn.add(Math.floor(ms / MINUTE_MS) * MINUTE_MS);
    }
  }
  return worn;
}
