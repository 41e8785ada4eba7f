import type { Cell } from './tidy.js';

/**
 * Tidy rows as CSV text (RFC 4180, `\n` after every row): the bytes csv-stringify wrote with the
 * engine's options, at a fraction of its cost per cell (a week of raw heart rate is millions of
 * cells). Numbers as JavaScript prints them, booleans as `true`/`false`, null as an empty field;
 * a text is quoted when it holds a comma, a quote, a CR or a LF, its quotes doubled.
 */
export function toCsv(rows: readonly (readonly Cell[])[]): string {
  let out = '';
  // Ids repeat on every row of a participant: quote each distinct text once.
  let lastText = '';
  let lastField = '';
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) {
      const value = row[i];
      if (i > 0) out += ',';
      if (value === null || value === undefined) continue;
      if (typeof value === 'number') out += value;
      else if (typeof value === 'boolean') out += value ? 'true' : 'false';
      else {
        if (value !== lastText) {
          lastText = value;
          lastField = csvField(value);
        }
        out += lastField;
      }
    }
    out += '\n';
  }
  return out;
}

const NEEDS_QUOTES = /[",\r\n]/;

/** One text as a CSV field, quoted when it must be. */
export function csvField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
