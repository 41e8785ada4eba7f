import type { DataType } from '@research/contracts';
import { toCsv } from './csv.js';
import { TidiedPage, tidyHeartRatePage } from './heart-rate-page.js';
import {
  type CallPages,
  type Cell,
  compareKeys,
  orderRows,
  rowsOfPage,
  streamOrder,
  tidyRows,
} from './tidy.js';

/**
 * A task's part (its tidy rows as CSV, no header), made as its pages arrive, so a task in flight
 * holds neither parsed pages nor millions of small row objects (a week of raw heart rate is
 * ~200,000 points a participant):
 *
 * - a point-per-row type whose rows come newest first (Google's order) turns each page into CSV
 *   bytes at once; oldest first is then the pages in reverse, each reversed. This is exactly the
 *   sort tidyRows does while every row is strictly older than the one before (raw heart-rate
 *   pages come as CSV already, read from their bytes: `decoder`). Otherwise (two points at one
 *   instant, or pages out of order) the task's pages are read back from the raw objects at the
 *   end and tidied as a whole;
 * - sleep (filtered by window) keeps its rows; every other type keeps its pages (one day each).
 */
export class TaskPart {
  private readonly order: number | null;
  private readonly chunks: Buffer[] = [];
  private streamedRows = 0;
  /** Order key of the oldest row so far (the last streamed). */
  private oldest: Cell | undefined;
  private reread = false;
  private readonly rows: Cell[][] = [];
  private pointWise = false;
  private readonly calls: CallPages[] = [];

  constructor(
    private readonly dataType: DataType,
    private readonly participantId: string,
    private readonly window: { start: string; end: string },
    /** The participant's zone the task's 60-second buckets were cut in. */
    private readonly timeZone = 'UTC',
  ) {
    this.order = streamOrder(dataType);
  }

  /**
   * Reads a call's answers straight from their bytes where it can (raw heart rate: the pages are
   * most of the data), for the client's `decode`; null for every other call.
   */
  decoder(callKey: string): ((bytes: Buffer) => TidiedPage | null) | null {
    if (this.dataType !== 'heartrate_intraday_1sec' || callKey !== 'heart-rate') return null;
    return (bytes) => tidyHeartRatePage(bytes, this.participantId);
  }

  /** One page of a call, as decoded; call it before awaiting anything, so the page dies young. */
  add(callKey: string, page: unknown): void {
    if (page instanceof TidiedPage) {
      this.pointWise = true;
      if (page.newest === null || !this.inOrder(page.newest)) return;
      this.oldest = page.oldest as string;
      this.streamedRows += page.rows;
      this.chunks.push(page.csv);
      return;
    }
    const rows = rowsOfPage(this.dataType, this.participantId, callKey, page, this.timeZone);
    if (!rows) {
      const last = this.calls.at(-1);
      if (last?.key === callKey) last.pages.push(page);
      else this.calls.push({ key: callKey, pages: [page] });
      return;
    }
    this.pointWise = true;
    if (this.order === null) {
      for (const row of rows) this.rows.push(row);
      return;
    }
    for (const row of rows) if (!this.inOrder(row[this.order] as Cell)) return;
    this.streamedRows += rows.length;
    this.chunks.push(Buffer.from(toCsv(rows.reverse())));
  }

  /**
   * Whether a row with this order key may follow the rows so far (strictly older); the first that
   * may not switches the task to reading its pages back at the end.
   */
  private inOrder(key: Cell): boolean {
    if (this.reread) return false;
    if (this.oldest !== undefined && compareKeys(this.oldest, key) <= 0) {
      this.reread = true;
      this.chunks.length = 0;
      return false;
    }
    this.oldest = key;
    return true;
  }

  /** The part and its row count; `storedPages` reads the task's raw pages back when needed. */
  async finish(storedPages: () => Promise<CallPages[]>): Promise<{ csv: Buffer; rows: number }> {
    if (this.order !== null && this.pointWise && !this.reread) {
      return { csv: Buffer.concat(this.chunks.reverse()), rows: this.streamedRows };
    }
    const rows = this.reread
      ? tidyRows(this.dataType, this.participantId, this.window, await storedPages(), this.timeZone)
      : this.pointWise
        ? orderRows(this.dataType, this.window, this.rows)
        : tidyRows(this.dataType, this.participantId, this.window, this.calls, this.timeZone);
    return { csv: Buffer.from(toCsv(rows)), rows: rows.length };
  }
}
