import type { DataType } from '@research/contracts';
import {
  type CallPages,
  type HeartRateColumns,
  heartRatePageColumns,
  tidyRows,
} from '../extraction/index.js';
import { type PartitionTable, tableOfRows } from './columns.js';

/** One answer of the provider as received: the call it answered (the plan's call key) and its bytes. */
export interface RawPage {
  call: string;
  body: Buffer;
}

/**
 * A partition's typed table from its raw pages, with the extraction's own readers: raw heart rate
 * straight from its bytes (most of the data, ~29,000 samples a day), every other type through
 * JSON and `tidyRows`, so the dataset and the researcher's CSVs have one definition of the rows.
 */
export function partitionTable(
  dataType: DataType,
  participantId: string,
  date: string,
  pages: RawPage[],
  /** The participant's IANA zone the day was cut in (60-second buckets take their offsets from it). */
  timeZone: string,
): PartitionTable {
  if (dataType === 'heartrate_intraday_1sec') {
    const fast = heartRateTable(participantId, pages);
    if (fast) return fast;
  }
  const calls: CallPages[] = [];
  for (const page of pages) {
    const text = page.body.toString('utf8');
    const parsed: unknown = text ? JSON.parse(text) : {};
    const last = calls.at(-1);
    if (last?.key === page.call) last.pages.push(parsed);
    else calls.push({ key: page.call, pages: [parsed] });
  }
  return tableOfRows(
    dataType,
    tidyRows(dataType, participantId, { start: date, end: date }, calls, timeZone),
  );
}

/**
 * Raw heart rate from the byte reader: the pages come newest first, each newest first, so the
 * oldest-first rows are the pages in reverse, each reversed (which the reader does). Null when a
 * page is not in the reader's shape or two pages overlap: the JSON path then sorts, as tidyRows does.
 */
function heartRateTable(participantId: string, pages: RawPage[]): PartitionTable | null {
  const read: HeartRateColumns[] = [];
  for (const page of pages) {
    if (page.call !== 'heart-rate') return null;
    const columns = heartRatePageColumns(page.body);
    if (!columns) return null;
    if (columns.rows > 0) read.push(columns);
  }
  read.reverse();
  let rows = 0;
  for (let p = 0; p < read.length; p++) {
    const page = read[p] as HeartRateColumns;
    const next = read[p + 1];
    // Each page strictly older than the one fetched before it.
    if (next && (page.timeMs[page.rows - 1] as number) >= (next.timeMs[0] as number)) return null;
    rows += page.rows;
  }
  const join = <T extends Float64Array | Int32Array>(
    make: new (n: number) => T,
    pick: (c: HeartRateColumns) => T,
  ): T => {
    const out = new make(rows);
    let at = 0;
    for (const page of read) {
      out.set(pick(page), at);
      at += page.rows;
    }
    return out;
  };
  return {
    dataType: 'heartrate_intraday_1sec',
    rows,
    columns: [
      { name: 'participant_id', kind: 'string', values: new Array(rows).fill(participantId) },
      { name: 'timestamp_utc', kind: 'instant', values: join(Float64Array, (c) => c.timeMs) },
      {
        name: 'utc_offset_seconds',
        kind: 'int32',
        values: join(Int32Array, (c) => c.utcOffsetSeconds),
      },
      { name: 'civil_time', kind: 'civil', values: join(Float64Array, (c) => c.civilMs) },
      { name: 'heart_rate_bpm', kind: 'double', values: join(Float64Array, (c) => c.bpm) },
      { name: 'source', kind: 'string', values: read.flatMap((c) => c.source) },
    ],
  };
}
