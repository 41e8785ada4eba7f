import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PartFile, writeTables } from './duck-tables.js';

/**
 * The minute grid from partitions as the dataset holds them: a watch taken off for a while (no
 * heart rate in those minutes) reads as not worn, with 0 steps; a minute worn without steps as
 * worn, with 0 steps. The sandbox's people never take their watch off, so this is shown here.
 */

const P = 'P0000000000000001';
const ZONE = 'America/New_York';
let dir = '';
let rows: Record<string, string>[] = [];
let text = '';

/** A rows.parquet as the dataset writes it (UTC instants, offsets as INT32), Hive-style path. */
async function partitionFile(type: string, select: string) {
  const folder = path.join(dir, `type=${type}`, `participant=${P}`, 'date=2026-11-03', 'v=1');
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, 'rows.parquet');
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  await db.run("SET TimeZone = 'UTC'");
  await db.run(`COPY (${select}) TO '${file}' (FORMAT parquet)`);
  db.closeSync();
  instance.closeSync();
  return file;
}

const part = (type: PartFile['type'], file: string): PartFile => ({
  participantId: P,
  type,
  date: '2026-11-03',
  timeZone: ZONE,
  state: 'complete',
  file,
});

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'wrp-duck-tables-'));
  // 2026-11-03 in New York is UTC−5: local 10:00 is 15:00Z.
  const steps = await partitionFile(
    'activity_steps_intraday',
    `SELECT '${P}' AS participant_id, TIMESTAMPTZ '2026-11-03 15:00:00+00' AS timestamp_utc, -18000::INTEGER AS utc_offset_seconds, 50.0::DOUBLE AS steps_count, 'Charge 6' AS source`,
  );
  const heart = await partitionFile(
    'heartrate_intraday_1min',
    `SELECT '${P}' AS participant_id, TIMESTAMPTZ '2026-11-03 15:00:00+00' + to_minutes(i) AS timestamp_utc, -18000::INTEGER AS utc_offset_seconds, 70.0::DOUBLE AS heart_rate_avg_bpm, 68.0::DOUBLE AS heart_rate_min_bpm, 72.0::DOUBLE AS heart_rate_max_bpm FROM range(2) r(i)`,
  );
  const [table] = await writeTables({
    participantIds: [P],
    tables: ['activity_steps_intraday'],
    dates: ['2026-11-03'],
    minuteGrid: true,
    formats: ['csv'],
    parts: [part('activity_steps_intraday', steps), part('heartrate_intraday_1min', heart)],
    stagesOf: async () => [],
    dir,
  });
  text = (await readFile(table?.files[0]?.file as string)).toString('utf8');
  rows = parse(text, { columns: true }) as Record<string, string>[];
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the minute grid', () => {
  const rowAt = (local: string) =>
    rows.find((r) => r.time_local === `2026-11-03T${local}:00-05:00`);

  it('has every minute of the local day', () => {
    expect(rows).toHaveLength(1440);
    expect(rows[0]?.time_local).toBe('2026-11-03T00:00:00-05:00');
    expect(rows[0]?.time_utc).toBe('2026-11-03T05:00:00.000Z');
  });

  it('tells steps, worn without steps and not worn apart', () => {
    const cells = (local: string) => {
      const row = rowAt(local);
      return [row?.steps_count, row?.worn];
    };
    expect(cells('10:00')).toEqual(['50', 'true']);
    expect(cells('10:01')).toEqual(['0', 'true']);
    expect(cells('10:02')).toEqual(['0', 'false']);
  });

  // The folder names (type=…/participant=…) are not read as columns.
  it('writes the CSV as before: bare header, text quoted, CRLF, the source passed through', () => {
    const [header, first] = text.split('\r\n');
    expect(header).toBe(
      'participant_id,date,time_local,time_utc,utc_offset_seconds,day_state,worn,steps_count,source',
    );
    expect(first).toBe(
      `"${P}",2026-11-03,"2026-11-03T00:00:00-05:00",2026-11-03T05:00:00.000Z,-18000,"complete",false,0,`,
    );
    expect(rowAt('10:00')?.source).toBe('Charge 6');
  });
});
