import { createHash } from 'node:crypto';
import { bucketNameForStudy, DATA_TYPES } from '@research/contracts';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObjectStore } from '../../platform/object-store/types.js';
import { sandboxAccount } from '../../test/dataset-kit.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { studyWithParticipants } from '../../test/wearables-kit.js';
import { addDays, COLUMNS, heartRatePageColumns } from '../extraction/index.js';
import {
  civilDateIn,
  createDataset,
  type PartitionWrite,
  type RawPage,
  type WritePartitionInput,
} from './index.js';

let t: TestApp;
let studyId: string;
let addParticipant: () => Promise<{ id: string }>;
let day: Awaited<ReturnType<typeof sandboxAccount>>;
const NOW = new Date('2026-11-20T12:00:00Z');
const DATE = '2026-11-10';
const ZONE = 'America/New_York';
const TRIGGER = { kind: 'notification', id: 'n-1' } as const;

beforeAll(async () => {
  t = await createTestApp();
  const study = await studyWithParticipants(t.app);
  studyId = study.study.id;
  addParticipant = study.addParticipant;
  day = await sandboxAccount(
    t.sandbox as NonNullable<TestApp['sandbox']>,
    t.config,
    'ds.one@gmail.test',
  );
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const bucket = () => bucketNameForStudy(studyId);
const datasetOn = (objectStore: ObjectStore = t.app.platform.objectStore, at = NOW) =>
  createDataset({
    db: t.app.platform.db,
    objectStore,
    bucketOf: bucketNameForStudy,
    now: () => at,
  });

async function bytesOf(key: string): Promise<Buffer> {
  const { body } = await t.app.platform.objectStore.getObject(bucket(), key);
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

async function keysUnder(prefix: string): Promise<string[]> {
  const page = await t.app.platform.objectStore.listObjects(bucket(), { prefix });
  return page.objects.map((o) => o.key);
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const arrayBuffer = (b: Buffer) =>
  b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer;
const prefixOf = (participantId: string, type: string, date = DATE) =>
  `dataset/type=${type}/participant=${participantId}/date=${date}/`;

async function heartRateDay(
  participantId: string,
  pages?: RawPage[],
): Promise<WritePartitionInput> {
  return {
    studyId,
    participantId,
    type: 'heartrate_intraday_1sec',
    date: DATE,
    timeZone: ZONE,
    rawPages: pages ?? (await day('heartrate_intraday_1sec', DATE)),
    trigger: TRIGGER,
  };
}

describe('a partition of the study dataset', () => {
  it('keeps a day of raw heart rate as typed Parquet beside its pages as received, with a ledger row', async () => {
    const p = await addParticipant();
    const input = await heartRateDay(p.id);
    const row = await datasetOn().writePartition(input);

    expect(row).toMatchObject({
      studyId,
      participantId: p.id,
      dataType: 'heartrate_intraday_1sec',
      date: DATE,
      timeZone: ZONE,
      state: 'complete',
      reason: null,
      trigger: TRIGGER,
      fetchedAt: NOW,
    });
    expect(row.rowCount).toBeGreaterThan(20_000);
    expect(row.wearMinutes).toBeGreaterThan(0);
    expect(row.wearMinutes).toBeLessThanOrEqual(1500);
    // Every file listed is in the bucket with the listed digest, under the partition's Hive path.
    const files = [row.rowsFile, ...row.rawFiles];
    expect(row.rawFiles).toHaveLength(input.rawPages.length);
    const named = `${prefixOf(p.id, 'heartrate_intraday_1sec')}(rows|raw)-${row.version}-[0-9a-f]{8}`;
    for (const file of files) {
      expect(file?.key).toMatch(new RegExp(`^${named}(\\.parquet|-\\d{4}-heart-rate\\.json)$`));
      const bytes = await bytesOf(file?.key as string);
      expect({ sha256: sha256(bytes), bytes: bytes.length }).toEqual({
        sha256: file?.sha256,
        bytes: file?.bytes,
      });
    }
    // The pages exactly as received.
    for (const [n, page] of input.rawPages.entries()) {
      expect((await bytesOf(row.rawFiles[n]?.key as string)).equals(page.body)).toBe(true);
    }
    // Typed columns: instants adjusted to UTC, civil times not, offsets as integers.
    const parquet = arrayBuffer(await bytesOf(row.rowsFile?.key as string));
    const schema = parquetMetadata(parquet).schema.slice(1);
    expect(schema.map((s) => [s.name, s.type, s.logical_type])).toEqual([
      ['participant_id', 'BYTE_ARRAY', { type: 'STRING' }],
      ['timestamp_utc', 'INT64', { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' }],
      ['utc_offset_seconds', 'INT32', undefined],
      ['civil_time', 'INT64', { type: 'TIMESTAMP', isAdjustedToUTC: false, unit: 'MILLIS' }],
      ['heart_rate_bpm', 'DOUBLE', undefined],
      ['source', 'BYTE_ARRAY', { type: 'STRING' }],
    ]);
    const rows = (await parquetReadObjects({ file: parquet })) as Record<string, unknown>[];
    expect(rows).toHaveLength(row.rowCount);
    const first = rows[0] as Record<string, unknown>;
    const civil = (first.civil_time as Date).getTime() - (first.timestamp_utc as Date).getTime();
    expect(first.participant_id).toBe(p.id);
    expect(civil).toBe((first.utc_offset_seconds as number) * 1000);
    // New York in November: UTC-5, and the civil times fall on the partition's day.
    expect(first.utc_offset_seconds).toBe(-18_000);
    expect((first.civil_time as Date).toISOString().slice(0, 10)).toBe(DATE);
    expect(typeof first.heart_rate_bpm).toBe('number');
    // The wearable the sample came from.
    expect(first.source).toBe('Charge 6');
    const times = rows.map((r) => (r.timestamp_utc as Date).getTime());
    expect(times.every((time, i) => i === 0 || time > (times[i - 1] as number))).toBe(true);
  });

  it('is written again from the same pages to the same bytes: only fetched_at moves', async () => {
    const p = await addParticipant();
    const input = await heartRateDay(p.id);
    const first = await datasetOn().writePartition(input);
    const later = new Date(NOW.getTime() + 60_000);
    const again = await datasetOn(undefined, later).writePartition(input);

    expect(again.rowsFile?.sha256).toBe(first.rowsFile?.sha256);
    expect(again).toEqual({ ...first, fetchedAt: later });
    const [stored] = await datasetOn().readLedger({ studyId, participantId: p.id });
    expect(stored).toEqual(again);
    expect(await keysUnder(prefixOf(p.id, 'heartrate_intraday_1sec'))).toHaveLength(
      1 + input.rawPages.length,
    );
  });

  it('is replaced whole by other pages: the row names the new files and the old ones go', async () => {
    const p = await addParticipant();
    const dataset = datasetOn();
    const before = await dataset.writePartition(await heartRateDay(p.id));
    const fewer = (await day('heartrate_intraday_1sec', DATE)).slice(0, 1);
    const after = await dataset.writePartition(await heartRateDay(p.id, fewer));

    expect(after.version).not.toBe(before.version);
    expect(after.rowCount).toBeLessThan(before.rowCount);
    expect((await keysUnder(prefixOf(p.id, 'heartrate_intraday_1sec'))).sort()).toEqual(
      [after.rowsFile?.key, ...after.rawFiles.map((f) => f.key)].sort(),
    );
  });

  it('stays whole when concurrent writers race on it', async () => {
    const p = await addParticipant();
    const full = await heartRateDay(p.id);
    const part = await heartRateDay(p.id, full.rawPages.slice(0, 1));
    const rest = await heartRateDay(p.id, full.rawPages.slice(1));
    const dataset = datasetOn();
    // Two processes' worth of writers: each its own dataset, all on one partition.
    const other = datasetOn();
    await Promise.all([
      dataset.writePartition(full),
      other.writePartition(part),
      dataset.writePartition(rest),
      other.writePartition(full),
      dataset.writePartition(part),
    ]);
    const [row] = await dataset.readLedger({ studyId, participantId: p.id });
    const listed = [row?.rowsFile, ...(row?.rawFiles ?? [])];
    expect((await keysUnder(prefixOf(p.id, 'heartrate_intraday_1sec'))).sort()).toEqual(
      listed.map((f) => f?.key).sort(),
    );
    for (const file of listed)
      expect(sha256(await bytesOf(file?.key as string))).toBe(file?.sha256);
  });

  it('keeps its row and files when a writer dies before the switch; the next write clears its leftovers', async () => {
    const p = await addParticipant();
    const store = t.app.platform.objectStore;
    const dataset = datasetOn();
    const before = await dataset.writePartition(await heartRateDay(p.id));
    // The new Parquet file never lands: the writer stops there, as a killed process would.
    const dying: ObjectStore = {
      ...store,
      putObject: async (b, key, body, opts) => {
        if (key.endsWith('.parquet')) throw new Error('process died');
        await store.putObject(b, key, body, opts);
      },
    };
    const fewer = await heartRateDay(p.id, (await day('heartrate_intraday_1sec', DATE)).slice(1));
    await expect(datasetOn(dying).writePartition(fewer)).rejects.toThrow('process died');

    const [row] = await dataset.readLedger({ studyId, participantId: p.id });
    expect(row).toEqual(before);
    for (const file of [before.rowsFile, ...before.rawFiles]) {
      expect(sha256(await bytesOf(file?.key as string))).toBe(file?.sha256);
    }
    // And one a write of the older layout (a folder a version) left, cleared the same way.
    const older = `${prefixOf(p.id, 'heartrate_intraday_1sec')}v=dead-0000/raw/0000-heart-rate.json`;
    await store.putObject(bucket(), older, '{}');
    const after = await dataset.writePartition(fewer);
    expect((await keysUnder(prefixOf(p.id, 'heartrate_intraday_1sec'))).sort()).toEqual(
      [after.rowsFile?.key, ...after.rawFiles.map((f) => f.key)].sort(),
    );
  });

  it('stores the same rows whether the byte reader or JSON reads the pages', async () => {
    const p = await addParticipant();
    const pages = await day('heartrate_intraday_1sec', DATE);
    // The same samples, each with its members in another order: the byte reader declines it.
    const reordered = pages.map((page) => {
      const json = JSON.parse(page.body.toString('utf8')) as {
        dataPoints: {
          dataSource: unknown;
          heartRate: { sampleTime: unknown; beatsPerMinute: unknown };
        }[];
      };
      const dataPoints = json.dataPoints.map(({ dataSource, heartRate }) => ({
        heartRate: { beatsPerMinute: heartRate.beatsPerMinute, sampleTime: heartRate.sampleTime },
        dataSource,
      }));
      return { call: page.call, body: Buffer.from(JSON.stringify({ ...json, dataPoints })) };
    });
    expect(pages.every((page) => heartRatePageColumns(page.body) !== null)).toBe(true);
    expect(reordered.some((page) => heartRatePageColumns(page.body) !== null)).toBe(false);
    const dataset = datasetOn();
    const fast = await dataset.writePartition(await heartRateDay(p.id, pages));
    const q = await addParticipant();
    const slow = await dataset.writePartition(await heartRateDay(q.id, reordered));
    const rowsOf = async (key: string | undefined) =>
      parquetReadObjects({ file: arrayBuffer(await bytesOf(key as string)) });
    expect(slow.rowCount).toBe(fast.rowCount);
    expect(slow.wearMinutes).toBe(fast.wearMinutes);
    const [a, b] = [await rowsOf(fast.rowsFile?.key), await rowsOf(slow.rowsFile?.key)];
    expect(b.map((r) => ({ ...r, participant_id: p.id }))).toEqual(a);
  });
});

describe('every type of the extraction', () => {
  it('becomes a partition with the tidy columns, and the day figures the dashboards read', async () => {
    const p = await addParticipant();
    const dataset = datasetOn();
    const rows = new Map<string, Awaited<ReturnType<typeof dataset.writePartition>>>();
    for (const type of DATA_TYPES) {
      const row = await dataset.writePartition({
        studyId,
        participantId: p.id,
        type,
        date: DATE,
        timeZone: ZONE,
        rawPages: await day(type, DATE),
        trigger: { kind: 'sweep' },
      });
      rows.set(type, row);
      const file = arrayBuffer(await bytesOf(row.rowsFile?.key as string));
      expect(
        parquetMetadata(file)
          .schema.slice(1)
          .map((s) => s.name),
        type,
      ).toEqual(COLUMNS[type].map((c) => c.name));
      expect(Number(parquetMetadata(file).num_rows), type).toBe(row.rowCount);
    }
    const steps = rows.get('activity_steps_intraday');
    expect(steps?.steps).toBeGreaterThan(0);
    expect(rows.get('activity_steps_timeseries')?.steps).toBe(steps?.steps);
    expect(rows.get('activity_summary')?.steps).toBe(steps?.steps);
    expect(rows.get('heartrate_summary')?.restingHeartRateBpm).toBeGreaterThan(30);
    expect(rows.get('heartrate_timeseries')?.restingHeartRateBpm).toBe(
      rows.get('heartrate_summary')?.restingHeartRateBpm,
    );
    expect(rows.get('heartrate_intraday_1min')?.wearMinutes).toBeGreaterThan(0);
    expect(rows.get('sleep_log')?.sleepMinutes).toBeGreaterThan(0);
    expect(rows.get('profile')?.state).toBe('complete');
    const ledger = await dataset.readLedger({ studyId, participantId: p.id });
    expect(ledger.map((r) => r.dataType).sort()).toEqual([...DATA_TYPES].sort());
  });
});

describe('the state of a partition', () => {
  const empty = (call: string): RawPage[] => [{ call, body: Buffer.from('{}') }];

  it('is partial while the day is not over in the participant’s zone, or not synced past', async () => {
    const p = await addParticipant();
    const dataset = datasetOn();
    const pages = await day('activity_steps_intraday', DATE);
    const base = {
      studyId,
      participantId: p.id,
      type: 'activity_steps_intraday',
      timeZone: ZONE,
      trigger: TRIGGER,
    } as const;
    // 2026-11-20T12:00Z is the morning of the 20th in New York, and already the 21st in Auckland.
    expect(
      (await dataset.writePartition({ ...base, date: '2026-11-20', rawPages: pages })).state,
    ).toBe('partial');
    expect(
      (
        await dataset.writePartition({
          ...base,
          date: '2026-11-20',
          timeZone: 'Pacific/Auckland',
          rawPages: pages,
        })
      ).state,
    ).toBe('complete');
    const synced = new Date('2026-11-10T20:00:00Z');
    expect(
      (
        await dataset.writePartition({
          ...base,
          date: DATE,
          rawPages: pages,
          syncedThrough: synced,
        })
      ).state,
    ).toBe('partial');
    expect(
      (
        await dataset.writePartition({
          ...base,
          date: '2026-11-09',
          rawPages: pages,
          syncedThrough: synced,
        })
      ).state,
    ).toBe('complete');
  });

  it('of a minute roll-up is settled once the participant’s day is over: its range ends at local midnight', async () => {
    const p = await addParticipant();
    const dataset = datasetOn();
    const base = {
      studyId,
      participantId: p.id,
      type: 'heartrate_intraday_1min',
      timeZone: 'Pacific/Auckland',
      trigger: TRIGGER,
      rawPages: empty('heart-rate'),
    } as const;
    // Auckland's day is over before the UTC day of the same date: no UTC day to wait for.
    const dayBefore = addDays(civilDateIn('Pacific/Auckland', NOW), -1);
    expect((await dataset.writePartition({ ...base, date: dayBefore })).state).toBe('empty');
    const today = civilDateIn('Pacific/Auckland', NOW);
    expect((await dataset.writePartition({ ...base, date: today })).state).toBe('partial');
  });

  it('is empty for a settled day without data (not worn)', async () => {
    const p = await addParticipant();
    const row = await datasetOn().writePartition({
      studyId,
      participantId: p.id,
      type: 'heartrate_intraday_1sec',
      date: DATE,
      timeZone: ZONE,
      rawPages: empty('heart-rate'),
      trigger: TRIGGER,
    });
    expect(row).toMatchObject({ state: 'empty', rowCount: 0, wearMinutes: 0 });
    const file = arrayBuffer(await bytesOf(row.rowsFile?.key as string));
    expect(Number(parquetMetadata(file).num_rows)).toBe(0);
  });

  it('is marked revoked, deleted at source, scope missing or failed with the reason, files kept', async () => {
    const p = await addParticipant();
    const dataset = datasetOn();
    const written = await dataset.writePartition(await heartRateDay(p.id));
    const marked = await dataset.markPartitions(
      { studyId, participantId: p.id, from: DATE },
      'revoked',
      'The participant revoked access on 2026-11-12.',
    );
    expect(marked).toHaveLength(1);
    expect(marked[0]).toMatchObject({
      state: 'revoked',
      reason: 'The participant revoked access on 2026-11-12.',
      rowsFile: written.rowsFile,
      rowCount: written.rowCount,
    });
    // Days without a row get one when the days and the zone are given.
    const missing = await dataset.markPartitions(
      {
        studyId,
        participantId: p.id,
        types: ['sleep_log'],
        dates: [DATE, '2026-11-11'],
        timeZone: ZONE,
      },
      'scope_missing',
      'Sleep was not granted.',
    );
    expect(missing.map((r) => [r.dataType, r.date, r.state, r.rowsFile])).toEqual([
      ['sleep_log', DATE, 'scope_missing', null],
      ['sleep_log', '2026-11-11', 'scope_missing', null],
    ]);
    await expect(
      dataset.markPartitions({ studyId, participantId: p.id }, 'failed', ' '),
    ).rejects.toThrow('needs a reason');
  });

  it('refuses a partition key, zone or trigger it cannot store', async () => {
    const p = await addParticipant();
    const input = await heartRateDay(p.id, []);
    const dataset = datasetOn();
    await expect(dataset.writePartition({ ...input, timeZone: 'Mars/Olympus' })).rejects.toThrow(
      'Unknown time zone',
    );
    await expect(dataset.writePartition({ ...input, date: '2026-02-30' })).rejects.toThrow();
    await expect(dataset.writePartition({ ...input, participantId: '../x' })).rejects.toThrow();
    await expect(
      dataset.writePartition({ ...input, rawPages: [{ call: '../x', body: Buffer.from('{}') }] }),
    ).rejects.toThrow('Invalid call key');
  });
});

describe('a backfilled range written as one unit', () => {
  const TYPE = 'activity_steps_timeseries' as const;
  const DAYS = ['2026-11-08', '2026-11-09', '2026-11-10', '2026-11-11'];
  let pages: Map<string, RawPage[]>;

  beforeAll(async () => {
    pages = new Map();
    for (const date of DAYS) pages.set(date, await day(TYPE, date));
  });

  const unit = (participantId: string, dates = DAYS): PartitionWrite[] =>
    dates.map((date) => ({
      studyId,
      participantId,
      type: TYPE,
      date,
      timeZone: ZONE,
      rawPages: pages.get(date) as RawPage[],
      trigger: { kind: 'sweep', id: 'backfill:2026-11-08..2026-11-11' },
    }));
  const listedKeys = (rows: { rowsFile: { key: string } | null; rawFiles: { key: string }[] }[]) =>
    rows.flatMap((r) => [r.rowsFile?.key, ...r.rawFiles.map((f) => f.key)]).sort();
  const typeKeys = async (participantId: string) =>
    (await keysUnder(`dataset/type=${TYPE}/participant=${participantId}/`)).sort();

  it('gives each day the row and files a write of its own would, and the day cells', async () => {
    const [p, q] = [await addParticipant(), await addParticipant()];
    const dataset = datasetOn();
    const together = await dataset.writePartitions(unit(p.id));
    expect(together.map((r) => r.date)).toEqual(DAYS);
    expect(together.every((r) => r.state === 'complete' && r.rowCount === 1)).toBe(true);
    expect(together.every((r) => typeof r.steps === 'number')).toBe(true);
    expect(await dataset.readLedger({ studyId, participantId: p.id })).toEqual(together);
    expect(await typeKeys(p.id)).toEqual(listedKeys(together));
    for (const row of together) {
      expect(sha256(await bytesOf(row.rowsFile?.key as string))).toBe(row.rowsFile?.sha256);
    }
    // Each day written again on its own is the same contents: the row and its files stay.
    for (const [n, input] of unit(p.id).entries()) {
      expect(await dataset.writePartition(input)).toEqual(together[n]);
    }
    expect(await typeKeys(p.id)).toEqual(listedKeys(together));

    const alone = [];
    for (const input of unit(q.id)) alone.push(await dataset.writePartition(input));
    expect(together.map((r) => [r.state, r.rowCount, r.steps])).toEqual(
      alone.map((r) => [r.state, r.rowCount, r.steps]),
    );
    const from = DAYS[0] as string;
    const to = DAYS.at(-1) as string;
    const strip = (await dataset.dayStrips(studyId, from, to, p.id)).get(p.id);
    const single = (await dataset.dayStrips(studyId, from, to, q.id)).get(q.id);
    expect(strip?.states).toEqual(DAYS.map(() => 'complete'));
    expect(strip?.steps).toEqual(together.map((r) => r.steps));
    expect({ ...strip, participantId: q.id }).toEqual(single);
  });

  it('writes nothing of the unit when a file fails; the next write clears what was left', async () => {
    const p = await addParticipant();
    const store = t.app.platform.objectStore;
    let puts = 0;
    const dying: ObjectStore = {
      ...store,
      putObject: async (b, key, body, opts) => {
        if (++puts === 5) throw new Error('process died');
        await store.putObject(b, key, body, opts);
      },
    };
    await expect(datasetOn(dying).writePartitions(unit(p.id))).rejects.toThrow('process died');
    expect(await datasetOn().readLedger({ studyId, participantId: p.id })).toEqual([]);
    expect((await typeKeys(p.id)).length).toBeGreaterThan(0);

    const rows = await datasetOn().writePartitions(unit(p.id));
    expect(rows).toHaveLength(DAYS.length);
    expect(await typeKeys(p.id)).toEqual(listedKeys(rows));
  });

  it('keeps the files of days that did not change and replaces those that did', async () => {
    const p = await addParticipant();
    const first = await datasetOn().writePartitions(unit(p.id));
    const later = new Date(NOW.getTime() + 60_000);
    const changed = unit(p.id).map((input, n) =>
      n === 1 ? { ...input, rawPages: pages.get(DAYS[0] as string) as RawPage[] } : input,
    );
    const again = await datasetOn(undefined, later).writePartitions(changed);

    expect(again.map((r) => r.fetchedAt)).toEqual(DAYS.map(() => later));
    for (const n of [0, 2, 3]) {
      expect(again[n]).toEqual({ ...first[n], fetchedAt: later });
    }
    expect(again[1]?.version).not.toBe(first[1]?.version);
    expect(again[1]?.updatedAt).toEqual(later);
    expect(await typeKeys(p.id)).toEqual(listedKeys(again));
  });

  it('writes nothing when its guard refuses, and refuses a unit it cannot write together', async () => {
    const p = await addParticipant();
    const q = await addParticipant();
    const dataset = datasetOn();
    await expect(
      dataset.writePartitions(unit(p.id), async () => {
        throw new Error('held back');
      }),
    ).rejects.toThrow('held back');
    expect(await dataset.readLedger({ studyId, participantId: p.id })).toEqual([]);
    expect(await typeKeys(p.id)).toEqual([]);

    const [one] = unit(p.id);
    await expect(dataset.writePartitions([one, one] as never)).rejects.toThrow('written twice');
    const mixed = [...unit(p.id, DAYS.slice(0, 2)), ...unit(q.id, DAYS.slice(2))];
    await expect(dataset.writePartitions(mixed)).rejects.toThrow("one participant's");
    expect(await dataset.writePartitions([])).toEqual([]);
  });

  it('stays whole when overlapping units and single writes race', async () => {
    const p = await addParticipant();
    const dataset = datasetOn();
    const other = datasetOn();
    await Promise.all([
      dataset.writePartitions(unit(p.id)),
      other.writePartitions(unit(p.id, DAYS.slice(1)).reverse()),
      dataset.writePartition(unit(p.id)[2] as WritePartitionInput),
      other.writePartitions(unit(p.id, DAYS.slice(0, 3))),
    ]);
    const rows = await dataset.readLedger({ studyId, participantId: p.id });
    expect(rows.map((r) => r.date)).toEqual(DAYS);
    expect(await typeKeys(p.id)).toEqual(listedKeys(rows));
  });

  it('keeps the day cells in step when units of other types race over the same months', async () => {
    // Four days across a month's end; each type's range is a unit of its own. The first makes the
    // month rows; the two that race give the cells a figure each (wear minutes, steps), so a
    // refresh that missed the other's rows shows.
    const days = ['2026-10-30', '2026-10-31', '2026-11-01', '2026-11-02'];
    const types = [
      'heartrate_summary',
      'heartrate_intraday_1min',
      'activity_steps_timeseries',
    ] as const;
    const typePages = new Map<string, RawPage[]>();
    for (const type of types)
      for (const date of days) typePages.set(`${type}|${date}`, await day(type, date));
    const units = (participantId: string) =>
      types.map((type) =>
        days.map((date) => ({
          studyId,
          participantId,
          type,
          date,
          timeZone: ZONE,
          rawPages: typePages.get(`${type}|${date}`) as RawPage[],
          trigger: { kind: 'sweep' as const, id: 'backfill:2026-10-30..2026-11-02' },
        })),
      );
    const [raced, alone] = [await addParticipant(), await addParticipant()];
    const [first, ...racing] = units(raced.id);
    await datasetOn().writePartitions(first as PartitionWrite[]);
    await Promise.all(racing.map((unit) => datasetOn().writePartitions(unit)));
    for (const unit of units(alone.id)) await datasetOn().writePartitions(unit);

    const strips = await datasetOn().dayStrips(studyId, days[0] as string, days[3] as string);
    const racedStrip = strips.get(raced.id);
    expect(racedStrip?.states).toEqual(['complete', 'complete', 'complete', 'complete']);
    expect(racedStrip?.steps.every((n) => typeof n === 'number')).toBe(true);
    expect(racedStrip?.wearMinutes.every((n) => typeof n === 'number')).toBe(true);
    expect({ ...racedStrip, participantId: alone.id }).toEqual(strips.get(alone.id));
  });
});
