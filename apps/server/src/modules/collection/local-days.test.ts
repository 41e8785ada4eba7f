import type { DataType } from '@research/contracts';
import { parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { connect } from '../../../../sandbox/src/test/health-flow.js';
import { useExtractionKit } from '../../test/extraction-kit.js';
import { createDataset, type LedgerRow } from '../dataset/index.js';
import { addDays } from '../extraction/index.js';

/**
 * What a partition of the one-minute tables holds: its own local day's minutes, cut at the
 * participant's local midnights (Google's 60-second buckets carry no offset, so the range asked
 * for decides which minutes a day gets), each with the offset and local time of the zone then;
 * and what the intraday lists hold: the wearable's points only, with the device named.
 *
 * The sandbox's simulated person lives in New York (DST ends 2026-11-01, a 25-hour day) and is in
 * Berlin from 2026-11-10T14:00Z to 2026-11-15T09:00Z; the settings report the zone they are in at
 * the sandbox's now.
 */

const kit = useExtractionKit({ env: { EXTRACTION_PER_USER_PER_MINUTE: '100000' } });
const MINUTE_TYPES: DataType[] = ['activity_calories_intraday', 'heartrate_intraday_1min'];

const ledger = (participantId: string) =>
  createDataset({
    db: kit.app.platform.db,
    objectStore: kit.app.platform.objectStore,
    bucketOf: kit.app.extraction.bucketOf,
  }).readLedger({ studyId: kit.world.study.id, participantId });

type Row = Record<string, unknown>;
async function rowsOf(row: LedgerRow | undefined): Promise<Row[]> {
  expect(row?.rowsFile).toBeTruthy();
  const bytes = await kit.readObject(row?.rowsFile?.key as string);
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
  return (await parquetReadObjects({ file: file as ArrayBuffer })) as Row[];
}
const ms = (value: unknown) => (value as Date).getTime();
const iso = (value: unknown) => (value as Date).toISOString().replace('.000Z', 'Z');
const civil = (value: unknown) => (value as Date).toISOString().slice(0, 19);
const find = (rows: LedgerRow[], type: DataType, date: string) =>
  rows.find((row) => row.dataType === type && row.date === date);

/** Every bucket on the partition's day, one per minute, each's local time its instant + offset. */
function expectLocalMinutes(rows: Row[], date: string) {
  for (const [n, row] of rows.entries()) {
    expect(civil(row.civil_time).slice(0, 10), iso(row.timestamp_utc)).toBe(date);
    expect(ms(row.civil_time) - ms(row.timestamp_utc)).toBe(
      (row.utc_offset_seconds as number) * 1000,
    );
    if (n > 0) expect(ms(row.timestamp_utc) - ms(rows[n - 1]?.timestamp_utc)).toBeGreaterThan(0);
  }
}

describe('one-minute tables cut at the participant’s local midnights', () => {
  it('hold the DST day’s 1,500 minutes and whole first and last days of a backfilled range, the same bytes as a day’s own fetch', async () => {
    kit.sandbox.health.setControls({ perUserPerMinute: 100_000 });
    const account = 'local.days@gmail.test';
    const participant = await kit.connected(account);
    kit.sandbox.health.sync(account, Date.now());
    const dates = ['2026-10-31', '2026-11-01', '2026-11-02'];
    // A sweep's older days: one range call per type, cut into the days.
    const ranged = await kit.app.collection.collectDays({
      participantId: participant.id,
      types: MINUTE_TYPES,
      dates,
      trigger: { kind: 'sweep' },
    });
    expect(ranged).toMatchObject({ written: 6, marked: { failed: 0 } });
    const rows = await ledger(participant.id);
    for (const row of rows) {
      expect(row.timeZone).toBe('America/New_York');
      expect(row.trigger?.id).toMatch(/^backfill:2026-10-31\.\.2026-11-02/);
    }

    // Calories: a bucket every minute (the basal energy never stops).
    const minutes = { '2026-10-31': 1440, '2026-11-01': 1500, '2026-11-02': 1440 };
    for (const [date, count] of Object.entries(minutes)) {
      const calories = await rowsOf(find(rows, 'activity_calories_intraday', date));
      expect(calories, date).toHaveLength(count);
      expectLocalMinutes(calories, date);
      expect(civil(calories[0]?.civil_time), date).toBe(`${date}T00:00:00`);
      expect(civil(calories.at(-1)?.civil_time), date).toBe(`${date}T23:59:00`);
    }
    const dst = await rowsOf(find(rows, 'activity_calories_intraday', '2026-11-01'));
    expect(iso(dst[0]?.timestamp_utc)).toBe('2026-11-01T04:00:00Z');
    expect(iso(dst.at(-1)?.timestamp_utc)).toBe('2026-11-02T04:59:00Z');
    // 01:30 twice: first at -4 h, then at -5 h.
    const half = dst.filter((row) => civil(row.civil_time) === '2026-11-01T01:30:00');
    expect(half.map((row) => [iso(row.timestamp_utc), row.utc_offset_seconds])).toEqual([
      ['2026-11-01T05:30:00Z', -14_400],
      ['2026-11-01T06:30:00Z', -18_000],
    ]);

    // Heart rate: buckets where the tracker was worn, all on the day, 01:xx twice as well.
    for (const date of dates) {
      const heart = await rowsOf(find(rows, 'heartrate_intraday_1min', date));
      expect(heart.length, date).toBeGreaterThan(600);
      expectLocalMinutes(heart, date);
      for (const row of heart) expect(typeof row.heart_rate_avg_bpm).toBe('number');
    }
    const heartDst = await rowsOf(find(rows, 'heartrate_intraday_1min', '2026-11-01'));
    const oneAm = heartDst.filter((row) => civil(row.civil_time).slice(11, 13) === '01');
    expect(new Set(oneAm.map((row) => row.utc_offset_seconds))).toEqual(
      new Set([-14_400, -18_000]),
    );

    // The same days a day at a time (a notification's fetch): the same versions, byte for byte.
    for (const date of dates) {
      await kit.app.collection.collectDays({
        participantId: participant.id,
        types: MINUTE_TYPES,
        dates: [date],
        trigger: { kind: 'notification', id: 'test-notification' },
      });
    }
    const again = await ledger(participant.id);
    for (const row of again) {
      expect(row.trigger?.kind).toBe('notification');
      const before = find(rows, row.dataType, row.date);
      expect(row.version, `${row.dataType} ${row.date}`).toBe(before?.version);
      expect(row.rowCount).toBe(before?.rowCount);
    }
  }, 180_000);

  it('on travel days follow the zone the participant’s settings give, and match the device’s own offsets after the flight', async () => {
    kit.sandbox.health.setControls({ perUserPerMinute: 100_000 });
    // The sandbox's now inside the trip: the settings say Europe/Berlin.
    const trip = Date.parse('2026-11-13T12:00:00Z');
    kit.sandbox.health.setControls({ clockOffsetMs: trip - Date.now() });
    try {
      const account = 'local.travel@gmail.test';
      const participant = await kit.connected(account);
      const dates = ['2026-11-10', '2026-11-11', '2026-11-12'];
      const result = await kit.app.collection.collectDays({
        participantId: participant.id,
        types: [...MINUTE_TYPES, 'heartrate_intraday_1sec'],
        dates,
        trigger: { kind: 'notification', id: 'test-notification' },
      });
      expect(result).toMatchObject({ written: 9, marked: { failed: 0 } });
      const rows = await ledger(participant.id);
      for (const row of rows) expect(row.timeZone).toBe('Europe/Berlin');

      for (const date of dates) {
        const calories = await rowsOf(find(rows, 'activity_calories_intraday', date));
        // Berlin's day: 23:00Z to 23:00Z, +1 h throughout.
        expect(calories, date).toHaveLength(1440);
        expectLocalMinutes(calories, date);
        expect(iso(calories[0]?.timestamp_utc)).toBe(`${addDays(date, -1)}T23:00:00Z`);
        expect(new Set(calories.map((row) => row.utc_offset_seconds))).toEqual(new Set([3600]));
      }
      // From the landing on (14:00Z on the 10th), the offsets are those the device recorded.
      for (const date of dates) {
        const heart = await rowsOf(find(rows, 'heartrate_intraday_1min', date));
        const samples = await rowsOf(find(rows, 'heartrate_intraday_1sec', date));
        const recorded = new Map(
          samples.map((s) => [Math.floor(ms(s.timestamp_utc) / 60_000), s.utc_offset_seconds]),
        );
        let compared = 0;
        for (const row of heart) {
          if (ms(row.timestamp_utc) < Date.parse('2026-11-10T14:00:00Z')) continue;
          const offset = recorded.get(ms(row.timestamp_utc) / 60_000);
          if (offset === undefined) continue;
          expect(row.utc_offset_seconds).toBe(offset);
          compared += 1;
        }
        expect(compared, date).toBeGreaterThan(100);
      }
    } finally {
      kit.sandbox.health.setControls({ clockOffsetMs: 0 });
    }
  }, 180_000);
});

describe('intraday lists with a watch and a phone', () => {
  it('hold the wearable’s points only, named, adding up to the day’s steps', async () => {
    kit.sandbox.health.setControls({ perUserPerMinute: 100_000 });
    const account = 'watch.and+phone@gmail.test';
    const participant = await kit.connected(account);
    kit.sandbox.health.sync(account, Date.now());
    const date = '2026-11-20';
    const types: DataType[] = [
      'activity_steps_intraday',
      'heartrate_intraday_1sec',
      'activity_steps_timeseries',
    ];
    const result = await kit.app.collection.collectDays({
      participantId: participant.id,
      types,
      dates: [date],
      trigger: { kind: 'notification', id: 'test-notification' },
    });
    expect(result).toMatchObject({ written: 3, marked: { failed: 0 } });
    const rows = await ledger(participant.id);

    const steps = await rowsOf(find(rows, 'activity_steps_intraday', date));
    expect(steps.length).toBeGreaterThan(100);
    expect(new Set(steps.map((row) => row.source))).toEqual(new Set(['Charge 6']));
    const daily = await rowsOf(find(rows, 'activity_steps_timeseries', date));
    const dayTotal = daily.find((row) => (row.date as Date).toISOString().startsWith(date));
    const sum = steps.reduce((total, row) => total + (row.steps_count as number), 0);
    expect(sum).toBe(dayTotal?.steps_count);

    const heart = await rowsOf(find(rows, 'heartrate_intraday_1sec', date));
    expect(heart.length).toBeGreaterThan(10_000);
    expect(new Set(heart.map((row) => row.source))).toEqual(new Set(['Charge 6']));

    // The phone is there: asked for every source, Google lists its points beside the watch's.
    const { access_token } = await connect(kit.sandbox, account);
    const filter = `steps.interval.civil_start_time >= "${date}" AND steps.interval.civil_start_time < "2026-11-21"`;
    const list = async (family?: string) => {
      const query = new URLSearchParams({ filter, pageSize: '10000' });
      if (family) query.set('dataSourceFamily', `users/me/dataSourceFamilies/${family}`);
      const res = await fetch(
        `${kit.sandbox.health.urls.apiBaseUrl}/v4/users/me/dataTypes/steps/dataPoints?${query}`,
        { headers: { authorization: `Bearer ${access_token}` } },
      );
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        dataPoints?: {
          dataSource: { device?: { displayName?: string } };
          steps: { count: string };
        }[];
      };
      return body.dataPoints ?? [];
    };
    const all = await list();
    const names = new Set(all.map((p) => p.dataSource.device?.displayName));
    expect(names).toEqual(new Set(['Charge 6', 'Pixel 9']));
    expect(all.reduce((total, p) => total + Number(p.steps.count), 0)).toBeGreaterThan(sum);
    const wearables = await list('google-wearables');
    expect(wearables.reduce((total, p) => total + Number(p.steps.count), 0)).toBe(sum);
  }, 180_000);
});
