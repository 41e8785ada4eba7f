import type { TestContext } from 'vitest';
import type { ObjectStore } from '../platform/object-store/types.js';

/**
 * What a fault test found, attached to the test (its `meta`) so `npm run test:faults` can print
 * one line per fault: how the work ended, and rows lost or written twice against what a clean
 * run delivers.
 */
export interface FaultReport {
  fault: string;
  /** How the work ended: `completed`, or `failed` with its reason shown to the researcher. */
  outcome: string;
  rowsExpected: number;
  rowsLost: number;
  duplicates: number;
}

declare module 'vitest' {
  interface TaskMeta {
    fault?: FaultReport;
  }
}

export function reportFault(context: TestContext, report: FaultReport) {
  context.task.meta.fault = report;
}

/** Rows of `expected` missing from `actual`, and rows of `actual` present more than once. */
export function compareRows(expected: string[], actual: string[]) {
  const counts = new Map<string, number>();
  for (const row of actual) counts.set(row, (counts.get(row) ?? 0) + 1);
  let lost = 0;
  for (const row of new Set(expected)) if (!counts.has(row)) lost++;
  let duplicates = 0;
  for (const n of counts.values()) duplicates += n - 1;
  return { rowsExpected: expected.length, rowsLost: lost, duplicates };
}

/** Every data row of a run's tidy CSV files, prefixed with its file ("steps.csv|…"). */
export async function runRows(store: ObjectStore, bucket: string, runId: string) {
  const prefix = `extractions/${runId}/`;
  const page = await store.listObjects(bucket, { prefix });
  const rows: string[] = [];
  for (const object of page.objects) {
    const name = object.key.slice(prefix.length);
    if (!name.endsWith('.csv') || name.includes('/')) continue;
    const { body } = await store.getObject(bucket, object.key);
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(Buffer.from(chunk));
    const lines = Buffer.concat(chunks).toString().split(/\r?\n/).filter(Boolean);
    for (const line of lines.slice(1)) rows.push(`${name}|${line}`);
  }
  return rows;
}
