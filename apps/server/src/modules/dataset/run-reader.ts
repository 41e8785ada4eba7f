import type { DatasetReader, StoredDay } from '../extraction/index.js';
import type { Dataset } from './dataset.js';
import { currentFormat } from './formats.js';
import { rawPagesOf } from './raw-pages.js';

/**
 * The dataset as an extraction run reads it (the extraction's `DatasetReader`): a participant's
 * settled partitions of a type, complete or empty, of the type's current format, with their pages,
 * and a page's bytes.
 */
export function createRunReader(dataset: Dataset): DatasetReader {
  return {
    async settledDays({ studyId, participantId, dataType, from, to }) {
      const rows = await dataset.readLedger({
        studyId,
        participantId,
        types: [dataType],
        from,
        to,
      });
      const days: StoredDay[] = [];
      for (const row of rows) {
        if (row.state !== 'complete' && row.state !== 'empty') continue;
        if (!row.version || !row.fetchedAt) continue;
        // Written before the type's contents changed: not what a call asks for now.
        if (!currentFormat(row)) continue;
        days.push({
          date: row.date,
          state: row.state,
          timeZone: row.timeZone,
          version: row.version,
          fetchedAt: row.fetchedAt,
          pages: rawPagesOf(row),
        });
      }
      return days;
    },
    readPage: (studyId, page) => dataset.readRawPage(studyId, page),
  };
}
