import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIME_ORDER_KEY } from '../dataset/index.js';
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
async function partitionFile(
  type: string,
  select: string,
  { participant = P, date = '2026-11-03', inTimeOrder = false } = {},
) {
  const folder = path.join(
    dir,
    `type=${type}`,
    `participant=${participant}`,
    `date=${date}`,
    inTimeOrder ? 'v=ordered' : 'v=1',
  );
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, 'rows.parquet');
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  await db.run("SET TimeZone = 'UTC'");
  // The dataset's writer says so in the file's metadata when its rows are in time order.
  const metadata = inTimeOrder ? `, KV_METADATA {${TIME_ORDER_KEY}: 'strictly ascending'}` : '';
  await db.run(`COPY (${select}) TO '${file}' (FORMAT parquet${metadata})`);
  db.closeSync();
  instance.closeSync();
  return file;
}

const part = (
  type: PartFile['type'],
  file: string,
  participantId = P,
  date = '2026-11-03',
): PartFile => ({
  participantId,
  type,
  date,
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

/**
 * Raw heart rate (tens of thousands of rows a day) is written in the files' order when every
 * file vouches for its time order and each participant's days follow each other; otherwise the
 * rows are sorted and an instant held twice is written once. Either way the table is the same.
 */
describe('points in time order', () => {
  const Q = 'P0000000000000002';
  const DAYS = ['2026-11-03', '2026-11-04', '2026-11-05'];
  // 2026-11-03..05 in New York are UTC−5: local midnight is 05:00Z. 20,000 seconds a day.
  const secondsOf = (pid: string, date: string, from = 0) =>
    `SELECT '${pid}' AS participant_id, TIMESTAMPTZ '${date} 05:00:00+00' + to_seconds(${from} + i * 4) AS timestamp_utc, -18000::INTEGER AS utc_offset_seconds, (60 + i % 40)::DOUBLE AS heart_rate_bpm, 'Charge 6' AS source FROM range(20000) r(i)`;

  async function table(layout: { inTimeOrder: boolean; overlap?: boolean }) {
    const parts: PartFile[] = [];
    for (const pid of [P, Q])
      for (const [n, date] of DAYS.entries()) {
        // A day that starts 4 s before the previous one ended: that instant is held twice.
        const from = layout.overlap && n === 2 ? -86_400 + 79_996 : 0;
        const file = await partitionFile('heartrate_intraday_1sec', secondsOf(pid, date, from), {
          participant: pid,
          date,
          inTimeOrder: layout.inTimeOrder,
        });
        parts.push(part('heartrate_intraday_1sec', file, pid, date));
      }
    const out = path.join(dir, `out-${layout.inTimeOrder}-${layout.overlap ?? false}`);
    await mkdir(out, { recursive: true });
    const [written] = await writeTables({
      participantIds: [Q, P],
      tables: ['heartrate_intraday_1sec'],
      dates: DAYS,
      minuteGrid: false,
      formats: ['csv'],
      parts,
      stagesOf: async () => [],
      dir: out,
    });
    return (await readFile(written?.files[0]?.file as string)).toString('utf8');
  }

  const times = (csv: string) =>
    (parse(csv, { columns: true }) as Record<string, string>[]).map(
      (r) => `${r.participant_id} ${r.time_utc}`,
    );

  it('writes vouched files in their order: every instant once, participant then time', async () => {
    const vouched = await table({ inTimeOrder: true });
    const keys = times(vouched);
    expect(keys).toHaveLength(2 * 3 * 20_000);
    expect(keys).toEqual([...keys].sort());
    expect(new Set(keys).size).toBe(keys.length);
    expect(vouched).toBe(await table({ inTimeOrder: false }));
  });

  it('sorts and writes an instant held twice once when vouched days overlap', async () => {
    const keys = times(await table({ inTimeOrder: true, overlap: true }));
    expect(keys).toEqual([...keys].sort());
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toHaveLength(2 * 3 * 20_000 - 2);
  });
});
