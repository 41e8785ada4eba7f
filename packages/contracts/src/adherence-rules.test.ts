import { describe, expect, it } from 'vitest';
import { atRiskCutoff, daysWithoutSync, isAtRisk, isValidDay } from './adherence-rules.js';

const now = new Date('2026-11-26T12:00:00Z');

describe('adherence rules', () => {
  it('counts a day valid from the study’s hours of wear on', () => {
    expect(isValidDay(600, 10)).toBe(true);
    expect(isValidDay(599, 10)).toBe(false);
    expect(isValidDay(null, 10)).toBe(false);
  });

  it('counts whole days without a sync', () => {
    expect(daysWithoutSync('2026-11-26T01:00:00Z', now)).toBe(0);
    expect(daysWithoutSync('2026-11-25T11:59:00Z', now)).toBe(1);
    expect(daysWithoutSync(new Date('2026-11-23T12:00:00Z'), now)).toBe(3);
    expect(daysWithoutSync(null, now)).toBeNull();
    // A device clock ahead of ours synced "now".
    expect(daysWithoutSync('2026-11-27T00:00:00Z', now)).toBe(0);
  });

  it('flags a participant after the study’s days without a sync, or never synced that long', () => {
    const base = { connectedAt: '2026-11-01T00:00:00Z', now, riskNoSyncDays: 2 };
    expect(isAtRisk({ ...base, lastDeviceSyncAt: '2026-11-25T00:00:00Z' })).toBe(false);
    expect(isAtRisk({ ...base, lastDeviceSyncAt: '2026-11-24T11:00:00Z' })).toBe(true);
    expect(isAtRisk({ ...base, lastDeviceSyncAt: null })).toBe(true);
    expect(isAtRisk({ ...base, connectedAt: '2026-11-26T00:00:00Z', lastDeviceSyncAt: null })).toBe(
      false,
    );
  });

  it('gives SQL the same bound as isAtRisk', () => {
    const cutoff = atRiskCutoff(now, 2);
    for (const offsetMs of [-1, 0, 1, 3_600_000, -86_400_000]) {
      const at = new Date(cutoff.getTime() + offsetMs);
      const rule = isAtRisk({ lastDeviceSyncAt: at, connectedAt: at, now, riskNoSyncDays: 2 });
      expect(rule).toBe(at.getTime() <= cutoff.getTime());
    }
  });
});
