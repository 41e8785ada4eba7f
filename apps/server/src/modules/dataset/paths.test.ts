import { describe, expect, it } from 'vitest';
import { callOfRawKey, partitionPrefix, partitionPrefixOfKey, rawKey, rowsKey } from './paths.js';

const key = {
  studyId: 's',
  participantId: 'P1',
  type: 'heartrate_intraday_1sec',
  date: '2026-11-01',
} as const;
const folder = 'dataset/type=heartrate_intraday_1sec/participant=P1/date=2026-11-01/';

describe('dataset paths', () => {
  it("puts a write's files side by side in the day's folder, named by their version", () => {
    expect(partitionPrefix(key)).toBe(folder);
    expect(rowsKey(key, '0a1b-c2d3e4f5')).toBe(`${folder}rows-0a1b-c2d3e4f5.parquet`);
    expect(rawKey(key, '0a1b-c2d3e4f5', 3, 'heart-rate')).toBe(
      `${folder}raw-0a1b-c2d3e4f5-0003-heart-rate.json`,
    );
  });

  it('reads the call and the partition of a key in either layout, and nothing else', () => {
    const older = `${folder}v=0a1b-c2d3e4f5/raw/0003-heart-rate.json`;
    expect(callOfRawKey(rawKey(key, '0a1b-c2d3e4f5', 3, 'heart-rate'))).toBe('heart-rate');
    expect(callOfRawKey(older)).toBe('heart-rate');
    expect(callOfRawKey(rowsKey(key, '0a1b-c2d3e4f5'))).toBeNull();
    expect(callOfRawKey(`${folder}notes.json`)).toBeNull();
    for (const objectKey of [older, rowsKey(key, 'ab-cd'), `${folder}v=ab-cd/rows.parquet`]) {
      expect(partitionPrefixOfKey(objectKey)).toBe(folder);
    }
    expect(partitionPrefixOfKey('exports/run-1/raw/x.json')).toBe('');
  });
});
