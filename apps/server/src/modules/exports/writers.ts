import { DICTIONARY_HEADER, type ExportColumn } from './export-columns.js';

/**
 * data_dictionary.csv: every column of every file written (RFC 4180, UTF-8, CRLF, header row,
 * text cells quoted, like the tables' CSVs).
 */

const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;

export function dictionaryCsv(files: { file: string; columns: ExportColumn[] }[]): Buffer {
  const lines = [DICTIONARY_HEADER.join(',')];
  for (const { file, columns } of files)
    for (const c of columns)
      lines.push([file, c.name, c.kind, c.unit, c.meaning, c.google].map(quoted).join(','));
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');
}
