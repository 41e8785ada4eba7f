import { describe, expect, it } from 'vitest';
import { buildTables, type ReadPartition, type TidyRow } from './tables.js';

/**
 * The minute grid from partitions as the dataset holds them: a watch taken off for a while (no
 * heart rate in those minutes) reads as not worn, with 0 steps; a minute worn without steps as
 * worn, with 0 steps. The sandbox's people never take their watch off, so this is shown here.
 */

const P = 'P0000000000000001';
const ZONE = 'America/New_York';
// 2026-11-03 in New York is UTC−5: local 10:00 is 15:00Z.
const at = (hhmm: string) => Date.parse(`2026-11-03T${hhmm}:00Z`);

const partition = (type: ReadPartition['type'], rows: TidyRow[]): ReadPartition => ({
  participantId: P,
  type,
  date: '2026-11-03',
  timeZone: ZONE,
  state: 'complete',
  rows,
  kinds: new Map(),
});

describe('the minute grid', () => {
  const [steps] = buildTables({
    participantIds: [P],
    tables: ['activity_steps_intraday'],
    dates: ['2026-11-03'],
    minuteGrid: true,
    partitions: [
      partition('activity_steps_intraday', [
        {
          participant_id: P,
          timestamp_utc: at('15:00'),
          utc_offset_seconds: -18_000,
          civil_time: null,
          steps_count: 50,
          source: 'Charge 6',
        },
      ]),
      partition(
        'heartrate_intraday_1min',
        ['15:00', '15:01'].map((hhmm) => ({
          participant_id: P,
          timestamp_utc: at(hhmm),
          utc_offset_seconds: -18_000,
          heart_rate_avg_bpm: 70,
          heart_rate_min_bpm: 68,
          heart_rate_max_bpm: 72,
        })),
      ),
    ],
  });
  const table = steps as NonNullable<typeof steps>;
  const column = (name: string) => table.columns.findIndex((c) => c.name === name);
  const rowAt = (local: string) =>
    table.rows.find((r) => r[column('time_local')] === `2026-11-03T${local}:00-05:00`);

  it('has every minute of the local day', () => {
    expect(table.rows).toHaveLength(1440);
    expect(table.rows[0]?.[column('time_local')]).toBe('2026-11-03T00:00:00-05:00');
  });

  it('tells steps, worn without steps and not worn apart', () => {
    const cells = (local: string) => {
      const row = rowAt(local) ?? [];
      return [row[column('steps_count')], row[column('worn')]];
    };
    expect(cells('10:00')).toEqual([50, true]);
    expect(cells('10:01')).toEqual([0, true]);
    expect(cells('10:02')).toEqual([0, false]);
  });
});
