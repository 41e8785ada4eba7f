import type { DatasetFile } from '../../db/schema/index.js';
import type { LedgerRow } from './ledger.js';
import { callOfRawKey } from './paths.js';

/**
 * A partition's pages as the ledger lists them, for readers outside the module (an extraction run
 * reusing settled days): which call each page answered, in fetch order, where it is, its size and
 * hash. The bytes themselves are read with the dataset's `readRawPage`.
 */

export interface StoredRawPage extends DatasetFile {
  /** The call key the page answered (`steps`, `heart-rate`, …). */
  call: string;
}

export function rawPagesOf(row: Pick<LedgerRow, 'rawFiles'>): StoredRawPage[] {
  return row.rawFiles.map((file) => {
    const call = callOfRawKey(file.key);
    if (call === null) throw new Error(`Not a raw page of the dataset: ${file.key}`);
    return { ...file, call };
  });
}
