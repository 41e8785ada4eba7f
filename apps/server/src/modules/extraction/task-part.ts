import type { DataType } from '@research/contracts';
import { toCsv } from './csv.js';
import {
  type CallPages,
  type Cell,
  compareCells,
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
 *   sort tidyRows does while every row is strictly older than the one before. Otherwise (two
 *   points at one instant, or pages out of order) the task's pages are read back from the raw
 *   objects at the end and tidied as a whole;
 * - sleep (filtered by window) keeps its rows; every other type keeps its pages (one day each).
 */
export class TaskPart {
  private readonly order: number | null;
  private readonly chunks: Buffer[] = [];
  private streamedRows = 0;
  private newest: Cell[] | null = null;
  private reread = false;
  private readonly rows: Cell[][] = [];
  private pointWise = false;
  private readonly calls: CallPages[] = [];

  constructor(
    private readonly dataType: DataType,
    private readonly participantId: string,
    private readonly window: { start: string; end: string },
  ) {
    this.order = streamOrder(dataType);
  }

  /** One page of a call, as parsed; call it before awaiting anything, so the page dies young. */
  add(callKey: string, page: unknown): void {
    const rows = rowsOfPage(this.dataType, this.participantId, callKey, page);
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
    if (this.reread) return;
    const compare = compareCells(this.order);
    let newest = this.newest;
    for (const row of rows) {
      if (newest && compare(newest, row) <= 0) {
        this.reread = true;
        this.chunks.length = 0;
        return;
      }
      newest = row;
    }
    this.newest = newest;
    this.streamedRows += rows.length;
    this.chunks.push(Buffer.from(toCsv(rows.reverse())));
  }

  /** The part and its row count; `storedPages` reads the task's raw pages back when needed. */
  async finish(storedPages: () => Promise<CallPages[]>): Promise<{ csv: Buffer; rows: number }> {
    if (this.order !== null && this.pointWise && !this.reread) {
      return { csv: Buffer.concat(this.chunks.reverse()), rows: this.streamedRows };
    }
    const rows = this.reread
      ? tidyRows(this.dataType, this.participantId, this.window, await storedPages())
      : this.pointWise
        ? orderRows(this.dataType, this.window, this.rows)
        : tidyRows(this.dataType, this.participantId, this.window, this.calls);
    return { csv: Buffer.from(toCsv(rows)), rows: rows.length };
  }
}
