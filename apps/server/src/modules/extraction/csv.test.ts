import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { toCsv } from './csv.js';
import type { Cell } from './tidy.js';

const rows: Cell[][] = [
  ['participant_id', 'timestamp_utc', 'utc_offset_seconds', 'civil_time', 'heart_rate_bpm'],
  ['p-1', '2026-11-01T05:59:58Z', -14400, '2026-11-01T01:59:58', 61],
  ['p-1', '2026-11-01T06:00:01Z', -18000, '2026-11-01T01:00:01', 62],
  ['p-1', '2026-11-10T14:00:00Z', 3600, null, 0],
  ['p-2', '', null, null, 1234.5],
  ['p-2', 'Berlin, Germany', true, false, -0],
  ['p-3', 'said "hello"', 1e21, 0.1 + 0.2, Number.NaN],
  ['p-3', 'two\nlines', 'carriage\rreturn', 'both\r\n', '"'],
  ['p-3', ' spaced ', '=1+1', 'é ü 😀', ','],
];

describe('the CSV writer', () => {
  it('writes the bytes csv-stringify wrote with the engine’s options', () => {
    const options = { cast: { boolean: (v: boolean) => (v ? 'true' : 'false') } };
    expect(toCsv(rows)).toBe(stringify(rows, options));
    expect(toCsv([])).toBe(stringify([], options));
  });

  it('round-trips texts with commas, quotes, CR and LF through a CSV parser', () => {
    const texts = ['a,b', 'say "hi"', 'line\nbreak', 'cr\ronly', 'crlf\r\n', '"', ',', '', 'plain'];
    const parsed = parse(toCsv([texts, texts.slice().reverse()])) as string[][];
    expect(parsed).toEqual([texts, texts.slice().reverse()]);
  });

  it('writes numbers as JavaScript prints them, booleans as words and null as an empty field', () => {
    expect(toCsv([[1, -2.5, true, false, null, 'x']])).toBe('1,-2.5,true,false,,x\n');
  });
});
