import { describe, expect, it } from 'vitest';
import { formatDocumentSize, formatSizeHuman, formatSizeKBRounded } from './document-size.js';

describe('formatDocumentSize: MB with 2 decimals or KB with 1 decimal', () => {
  it.each([
    [0, '0.0 KB'],
    [Number.NaN, '0.0 KB'],
    // A file with content never reads '0.0 KB': at least one tenth of a KB.
    [1, '0.1 KB'],
    [40, '0.1 KB'],
    [200, '0.2 KB'],
    [1023, '1.0 KB'],
    [1024, '1.0 KB'],
    [1536, '1.5 KB'],
    [52_000, '50.8 KB'],
    [1_048_524, '1023.9 KB'],
    // 1023.96 KB would print '1024.0 KB': shown as MB instead.
    [1_048_535, '1.00 MB'],
    [1_048_576, '1.00 MB'],
    [1_572_864, '1.50 MB'],
    [2_464_154, '2.35 MB'],
    [10 * 1024 * 1024, '10.00 MB'],
  ])('%d bytes read %s', (bytes, shown) => {
    expect(formatDocumentSize(bytes)).toBe(shown);
  });
});

describe('formatSizeKBRounded: bytes under 1 KB, whole KB from there, in participant details', () => {
  it.each([
    [0, '0 bytes'],
    [-5, '0 bytes'],
    // A 45-byte document used to read '1 KB' (and before that '0 KB').
    [1, '1 byte'],
    [45, '45 bytes'],
    [1023, '1023 bytes'],
    [1024, '1 KB'],
    [1535, '1 KB'],
    [1536, '2 KB'],
    [5 * 1024 * 1024, '5120 KB'],
  ])('%d bytes read %s', (bytes, shown) => {
    expect(formatSizeKBRounded(bytes)).toBe(shown);
  });
});

describe('formatSizeHuman: Bytes, KB, MB or GB in the profile form', () => {
  it.each([
    [0, '0 Bytes'],
    [-5, '0 Bytes'],
    [Number.NaN, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [1_048_575, '1 MB'],
    [1_048_576, '1 MB'],
    [1_073_741_823, '1 GB'],
    [1_073_741_824, '1 GB'],
    [5 * 1024 ** 4, '5120 GB'],
  ])('%d bytes read %s', (bytes, shown) => {
    expect(formatSizeHuman(bytes)).toBe(shown);
  });
});

describe('no size form reads zero for a file with content', () => {
  it.each([
    ['formatDocumentSize', formatDocumentSize],
    ['formatSizeKBRounded', formatSizeKBRounded],
    ['formatSizeHuman', formatSizeHuman],
  ])('%s', (_name, format) => {
    for (let bytes = 1; bytes <= 5000; bytes += 1) {
      expect(format(bytes)).not.toMatch(/^0(\.0+)? /);
    }
  });
});
