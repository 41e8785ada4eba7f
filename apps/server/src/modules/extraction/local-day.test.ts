import { describe, expect, it } from 'vitest';
import { instantText, localMidnight, ZoneOffsets, zoneOffsetSeconds } from './local-day.js';

const minutes = (zone: string, date: string, next: string) =>
  (localMidnight(zone, next) - localMidnight(zone, date)) / 60_000;

describe('local days as instants', () => {
  it('run from local midnight to local midnight: 1,500 minutes when Los Angeles falls back, 1,380 in spring', () => {
    const la = 'America/Los_Angeles';
    expect(instantText(localMidnight(la, '2026-11-01'))).toBe('2026-11-01T07:00:00Z');
    expect(instantText(localMidnight(la, '2026-11-02'))).toBe('2026-11-02T08:00:00Z');
    expect(minutes(la, '2026-11-01', '2026-11-02')).toBe(1500);
    expect(minutes(la, '2026-03-08', '2026-03-09')).toBe(1380);
    expect(minutes(la, '2026-11-02', '2026-11-03')).toBe(1440);
    // 01:30 twice on the DST day, an hour apart, at -7 h then -8 h.
    const zone = new ZoneOffsets(la);
    expect(zone.civilOf('2026-11-01T08:30:00Z')).toEqual({
      offset: -25_200,
      civil: '2026-11-01T01:30:00',
    });
    expect(zone.civilOf('2026-11-01T09:30:00Z')).toEqual({
      offset: -28_800,
      civil: '2026-11-01T01:30:00',
    });
    expect(zone.dateOf(localMidnight(la, '2026-11-02') - 1)).toBe('2026-11-01');
  });

  it('handle offsets of quarter hours, UTC, and a zone that skips midnight', () => {
    expect(instantText(localMidnight('Asia/Kathmandu', '2026-11-01'))).toBe('2026-10-31T18:15:00Z');
    expect(instantText(localMidnight('UTC', '2026-11-01'))).toBe('2026-11-01T00:00:00Z');
    expect(zoneOffsetSeconds('UTC', Date.parse('2026-11-01T00:00:00Z'))).toBe(0);
    // Santiago springs forward at midnight (00:00 → 01:00): the day starts at 01:00, 23 hours.
    const santiago = 'America/Santiago';
    const start = localMidnight(santiago, '2026-09-06');
    expect(new ZoneOffsets(santiago).civilOf(instantText(start))?.civil).toBe(
      '2026-09-06T01:00:00',
    );
    expect(minutes(santiago, '2026-09-06', '2026-09-07')).toBe(1380);
  });
});
