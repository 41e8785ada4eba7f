import { bucketNameForStudy, COLLECTION_REASONS, type DataType } from '@research/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxAccount } from '../../test/dataset-kit.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { studyWithParticipants } from '../../test/wearables-kit.js';
import { createDataset, type LedgerRow } from './index.js';

/** Partitions deleted at the source, removed from the dataset where the study's setting says so. */

let t: TestApp;
let studyId: string;
let addParticipant: () => Promise<{ id: string }>;
let day: Awaited<ReturnType<typeof sandboxAccount>>;
const NOW = new Date('2026-11-20T12:00:00Z');
const DATE = '2026-11-10';
const ZONE = 'America/New_York';

beforeAll(async () => {
  t = await createTestApp();
  const study = await studyWithParticipants(t.app);
  studyId = study.study.id;
  addParticipant = study.addParticipant;
  day = await sandboxAccount(
    t.sandbox as NonNullable<TestApp['sandbox']>,
    t.config,
    'ds.removed@gmail.test',
  );
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const bucket = () => bucketNameForStudy(studyId);
const dataset = () =>
  createDataset({
    db: t.app.platform.db,
    objectStore: t.app.platform.objectStore,
    bucketOf: bucketNameForStudy,
    now: () => NOW,
  });
const prefixOf = (participantId: string, type: string) =>
  `dataset/type=${type}/participant=${participantId}/date=${DATE}/`;

async function keysUnder(prefix: string): Promise<string[]> {
  const page = await t.app.platform.objectStore.listObjects(bucket(), { prefix });
  return page.objects.map((o) => o.key).sort();
}

async function write(participantId: string, type: DataType) {
  return dataset().writePartition({
    studyId,
    participantId,
    type,
    date: DATE,
    timeZone: ZONE,
    rawPages: await day(type, DATE),
    trigger: { kind: 'sweep' },
  });
}

const filesOf = (row: LedgerRow) =>
  [...(row.rowsFile ? [row.rowsFile.key] : []), ...row.rawFiles.map((f) => f.key)].sort();

describe('removing partitions deleted at the source', () => {
  it('deletes exactly their files, leftovers included, and keeps their rows saying why', async () => {
    const p = await addParticipant();
    const other = await addParticipant();
    const heart = await write(p.id, 'heartrate_intraday_1sec');
    const steps = await write(p.id, 'activity_steps_intraday');
    const othersHeart = await write(other.id, 'heartrate_intraday_1sec');
    // Writes that died before their switch left files the row does not list (one in the older
    // layout, a folder a version).
    for (const leftover of ['rows-dead-0000.parquet', 'v=dead-0000/rows.parquet']) {
      await t.app.platform.objectStore.putObject(
        bucket(),
        `${prefixOf(p.id, 'heartrate_intraday_1sec')}${leftover}`,
        Buffer.from('x'),
      );
    }
    // Both participants deleted the day's heart rate; only the first's steps stay complete.
    await dataset().markPartitions(
      { studyId, types: ['heartrate_intraday_1sec'], dates: [DATE] },
      'deleted_at_source',
      'Deleted by the participant in their Google account.',
    );

    const removed = await dataset().removePartitions({ studyId, participantId: p.id });

    expect(removed).toHaveLength(1);
    const [row] = await dataset().readLedger({
      studyId,
      participantId: p.id,
      types: ['heartrate_intraday_1sec'],
    });
    expect(row).toEqual(removed[0]);
    expect(row).toMatchObject({
      state: 'deleted_at_source',
      reason: COLLECTION_REASONS.removedAtSource,
      timeZone: ZONE,
      version: null,
      rowCount: 0,
      rowsFile: null,
      rawFiles: [],
      wearMinutes: null,
      fetchedAt: heart.fetchedAt,
      updatedAt: NOW,
    });
    expect(await keysUnder(prefixOf(p.id, 'heartrate_intraday_1sec'))).toEqual([]);
    // Everything else is as it was: the same participant's steps, the other participant's day.
    expect(await keysUnder(prefixOf(p.id, 'activity_steps_intraday'))).toEqual(filesOf(steps));
    expect(await keysUnder(prefixOf(other.id, 'heartrate_intraday_1sec'))).toEqual(
      filesOf(othersHeart),
    );
    const [stepsRow] = await dataset().readLedger({
      studyId,
      participantId: p.id,
      types: ['activity_steps_intraday'],
    });
    expect(stepsRow).toEqual(steps);
    const [othersRow] = await dataset().readLedger({ studyId, participantId: other.id });
    expect(othersRow).toMatchObject({ state: 'deleted_at_source', rowsFile: othersHeart.rowsFile });

    // Again: nothing more to remove, the row stays as it is.
    expect(await dataset().removePartitions({ studyId, participantId: p.id })).toEqual([]);
  });

  it('leaves the partition whole when a writer races it: the row lists exactly what is stored', async () => {
    const p = await addParticipant();
    const type = 'heartrate_intraday_1sec';
    const first = await write(p.id, type);
    await dataset().markPartitions(
      { studyId, participantId: p.id, types: [type] },
      'deleted_at_source',
      'Deleted by the participant in their Google account.',
    );
    const pages = await day(type, DATE);
    // Other bytes than the first write's, so the writer switches the row to new files.
    pages.push({ call: 'heart-rate', body: Buffer.from('{"dataPoints":[]}') });
    await Promise.all([
      dataset().removePartitions({ studyId, participantId: p.id }),
      dataset().writePartition({
        studyId,
        participantId: p.id,
        type,
        date: DATE,
        timeZone: ZONE,
        rawPages: pages,
        trigger: { kind: 'sweep' },
      }),
    ]);
    const [row] = await dataset().readLedger({ studyId, participantId: p.id });
    expect(row).toBeDefined();
    expect(await keysUnder(prefixOf(p.id, type))).toEqual(filesOf(row as LedgerRow));
    for (const key of filesOf(first)) expect(filesOf(row as LedgerRow)).not.toContain(key);
  });
});
