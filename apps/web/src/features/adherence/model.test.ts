import type { AdherenceRow } from '@research/contracts';
import { describe, expect, it } from 'vitest';
import { visibleRows } from './model';

const row = (name: string, over: Partial<AdherenceRow>): AdherenceRow => ({
  id: name,
  participantId: name.toUpperCase(),
  name,
  enrolledAt: '2026-11-26T00:00:00.000Z',
  connection: 'connected',
  lastDeviceSyncAt: null,
  batteryLevel: null,
  daysWithoutSync: null,
  atRisk: false,
  validDays: 0,
  eligibleDays: 0,
  states: [],
  wearMinutes: [],
  steps: [],
  reasons: {},
  ...over,
});

describe('the participants the Adherence tab lists', () => {
  it('puts lowest adherence first, and between equals those at risk first', () => {
    const rows = [
      row('Ada', { validDays: 0, eligibleDays: 0 }),
      row('Ben', { validDays: 0, eligibleDays: 0, atRisk: true }),
      row('Cy', { validDays: 5, eligibleDays: 10 }),
      row('Di', { validDays: 1, eligibleDays: 10 }),
    ];
    expect(visibleRows(rows, 'all', '', 'adherenceLow').map((r) => r.name)).toEqual([
      'Di',
      'Cy',
      'Ben',
      'Ada',
    ]);
    expect(visibleRows(rows, 'atRisk', '', 'adherenceLow').map((r) => r.name)).toEqual(['Ben']);
  });
});
