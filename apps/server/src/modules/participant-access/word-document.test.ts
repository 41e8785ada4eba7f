import { describe, expect, it } from 'vitest';
import { CFB_SAMPLES } from '../../test/cfb.js';
import { isWordDocument } from './word-document.js';

describe('isWordDocument', () => {
  it('takes a container with a WordDocument stream in its root', () => {
    expect(isWordDocument(CFB_SAMPLES.word())).toBe(true);
  });

  it('refuses other containers, an embedded Word object, truncated files and non-CFB bytes', () => {
    expect(isWordDocument(CFB_SAMPLES.excel())).toBe(false);
    expect(isWordDocument(CFB_SAMPLES.excelWithEmbeddedWord())).toBe(false);
    expect(isWordDocument(CFB_SAMPLES.word().subarray(0, 1024))).toBe(false);
    expect(isWordDocument(Buffer.from('PK\u0003\u0004 not a compound file'))).toBe(false);
    expect(isWordDocument(Buffer.alloc(0))).toBe(false);
  });
});
