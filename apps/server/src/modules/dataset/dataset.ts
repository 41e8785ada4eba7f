import { createHash, randomBytes } from 'node:crypto';
import {
  COLLECTION_REASONS,
  DATA_TYPES,
  DATASET_MARKED_STATES,
  type DatasetMarkedState,
  type DatasetPartitionKey,
  type DatasetTrigger,
  datasetPartitionKeySchema,
  datasetTriggerSchema,
} from '@research/contracts';
import type { Db, Tx } from '../../db/client.js';
import { lockParticipantData } from '../../db/locks.js';
import type { DatasetFile } from '../../db/schema/index.js';
import type { ObjectStore } from '../../platform/object-store/types.js';
import { column, type Value } from './columns.js';
import {
  dayMonthsFingerprint,
  latestTimeZones,
  readDayStrips,
  refreshDayMonths,
} from './day-months.js';
import { assertTimeZone, dayState } from './day-state.js';
import { eachLimited } from './each-limited.js';
import { partitionFormat } from './formats.js';
import {
  deleteRow,
  insertMissing,
  type LedgerInsert,
  type LedgerRow,
  markRows,
  type PartitionSelector,
  putRow,
  putRows,
  readRow,
  selectDayFigures,
  selectRows,
  withPartitionLock,
  withPartitionLocks,
} from './ledger.js';
import { toParquet } from './parquet.js';
import { partitionTable, type RawPage } from './partition-rows.js';
import { partitionPrefix, partitionPrefixOfKey, rawKey, rowsKey } from './paths.js';
import { rawPagesOf } from './raw-pages.js';
import { summarize } from './summary.js';

/**
 * The study's dataset: each participant's data kept as partitions (one per data type and civil
 * day), files in the study bucket under `dataset/` and a ledger row per partition saying what is
 * there. A write replaces a partition whole:
 *
 * 1. the rows are made and the files' bytes are ready in memory; the same pages give the same
 *    bytes, hence the same version (a digest of the contents);
 * 2. in one transaction holding the partition's lock: a version the row already names writes no
 *    file and moves only `fetched_at`; otherwise files left by a write that died before its switch
 *    are removed, the new files are written under names of their own (nothing a reader follows
 *    points there yet), and the row is switched to them;
 * 3. after the commit, the files of the version replaced are removed.
 *
 * A process dying anywhere leaves the row naming a complete set of files. Each write's names are
 * new (version plus a random part), so removing a replaced version's files outside the lock never
 * meets a writer putting the same contents back. A reader follows the row; one that read the row
 * just before a switch may find its files gone after step 3, and reads the row again.
 */

export interface WritePartitionInput {
  studyId: string;
  participantId: string;
  type: DatasetPartitionKey['type'];
  /** The civil day, yyyy-mm-dd, in `timeZone`. */
  date: string;
  /** The participant's IANA time zone. */
  timeZone: string;
  /** The provider's answers for the day as received, in fetch order. */
  rawPages: RawPage[];
  trigger: DatasetTrigger;
  /** The device's last sync, when known: a day it has not synced past stays partial. */
  syncedThrough?: Date | undefined;
  /**
   * Asked under the partition's lock, before anything is written; throwing leaves the partition
   * as it was (collection asks the consent gate again here, after its fetch).
   */
  guard?: (tx: Tx) => Promise<void>;
}

/** A write of writePartitions: one partition's pages (the unit's guard is asked once for all). */
export type PartitionWrite = Omit<WritePartitionInput, 'guard'>;

export interface DatasetDeps {
  db: Db;
  objectStore: ObjectStore;
  bucketOf: (studyId: string) => string;
  now?: () => Date;
}

/** Changes whenever the files' layout or encoding does, so old and new bytes never share a name. */
const FORMAT = 'dataset-partition';
const CALL_KEY = /^[a-z0-9-]{1,64}$/;
const HEART_RATE_DAYS_KEPT = 20;

/** Object-store calls in flight at once for one write (a backfilled range has hundreds of files). */
const PUTS_AT_ONCE = 16;

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
/** The longest start all the texts share. */
function sharedStart(texts: readonly string[]): string {
  let start = texts[0] ?? '';
  for (const text of texts) {
    let n = 0;
    while (n < start.length && start[n] === text[n]) n++;
    start = start.slice(0, n);
  }
  return start;
}
const partitionName = (key: DatasetPartitionKey) => `${key.type}|${key.date}`;
const keyOfRow = (row: LedgerRow): DatasetPartitionKey => ({
  studyId: row.studyId,
  participantId: row.participantId,
  type: row.dataType,
  date: row.date,
});

export function createDataset(deps: DatasetDeps) {
  const { db, objectStore } = deps;
  const now = deps.now ?? (() => new Date());
  const buckets = new Set<string>();

  async function bucketOf(studyId: string) {
    const bucket = deps.bucketOf(studyId);
    if (!buckets.has(bucket)) {
      await objectStore.ensureBucket(bucket);
      buckets.add(bucket);
    }
    return bucket;
  }

  /** A write made ready in memory: its row and its files' bytes. */
  function prepare(input: PartitionWrite, fetchedAt: Date) {
    const key = datasetPartitionKeySchema.parse({
      studyId: input.studyId,
      participantId: input.participantId,
      type: input.type,
      date: input.date,
    });
    const trigger = datasetTriggerSchema.parse(input.trigger);
    assertTimeZone(input.timeZone);
    for (const page of input.rawPages) {
      if (!CALL_KEY.test(page.call)) throw new RangeError(`Invalid call key: ${page.call}`);
    }

    const table = partitionTable(
      key.type,
      key.participantId,
      key.date,
      input.rawPages,
      input.timeZone,
    );
    const parquet = toParquet(table);
    const rawHashes = input.rawPages.map((page) => sha256(page.body));
    const rowsHash = sha256(parquet);
    const version = sha256(
      Buffer.from(
        [
          `${FORMAT}-${partitionFormat(key.type)}`,
          rowsHash,
          ...input.rawPages.map((p, n) => `${p.call}:${rawHashes[n]}`),
        ].join('\n'),
      ),
    ).slice(0, 24);
    const writeName = `${version}-${randomBytes(4).toString('hex')}`;
    const rowsFile: DatasetFile = {
      key: rowsKey(key, writeName),
      bytes: parquet.length,
      sha256: rowsHash,
    };
    const rawFiles: DatasetFile[] = input.rawPages.map((page, n) => ({
      key: rawKey(key, writeName, n, page.call),
      bytes: page.body.length,
      sha256: rawHashes[n] as string,
    }));
    const row: LedgerInsert = {
      studyId: key.studyId,
      participantId: key.participantId,
      dataType: key.type,
      date: key.date,
      timeZone: input.timeZone,
      format: partitionFormat(key.type),
      state: dayState({
        dataType: key.type,
        date: key.date,
        timeZone: input.timeZone,
        rows: table.rows,
        now: fetchedAt,
        syncedThrough: input.syncedThrough,
      }),
      reason: null,
      version,
      rowCount: table.rows,
      rowsFile,
      rawFiles,
      fetchedAt,
      trigger,
      ...summarize(table),
      updatedAt: fetchedAt,
    };
    const puts = [
      { key: rowsFile.key, body: parquet, contentType: 'application/vnd.apache.parquet' },
      ...input.rawPages.map((page, n) => ({
        key: (rawFiles[n] as DatasetFile).key,
        body: page.body,
        contentType: 'application/json',
      })),
    ];
    return { key, row, puts };
  }

  async function writePartition(input: WritePartitionInput): Promise<LedgerRow> {
    const { guard, ...write } = input;
    const [written] = await writePartitions([write], guard);
    return written as LedgerRow;
  }

  /**
   * Writes several partitions of one participant as one unit (a backfilled range's days): one
   * transaction holds all their locks, their rows are switched together, and the day cells are
   * refreshed once. Each partition follows the steps above; answers the rows in input order.
   */
  async function writePartitions(
    inputs: readonly PartitionWrite[],
    /** As writePartition's: asked once under the locks, before anything is written. */
    guard?: (tx: Tx) => Promise<void>,
  ): Promise<LedgerRow[]> {
    if (inputs.length === 0) return [];
    const fetchedAt = now();
    const writes = inputs.map((input) => prepare(input, fetchedAt));
    const keys = writes.map((w) => w.key);
    const { studyId, participantId } = keys[0] as DatasetPartitionKey;
    const named = new Set(keys.map(partitionName));
    if (named.size !== keys.length)
      throw new RangeError('A partition is written twice in one unit');
    if (keys.some((k) => k.studyId !== studyId || k.participantId !== participantId)) {
      throw new RangeError("Partitions written together must be one participant's in one study");
    }

    const bucket = await bucketOf(studyId);
    const { written, replaced } = await withPartitionLocks(db, keys, async (tx) => {
      await guard?.(tx);
      const current = new Map(
        (
          await selectRows(tx, {
            studyId,
            participantId,
            types: [...new Set(keys.map((k) => k.type))],
            dates: [...new Set(keys.map((k) => k.date))],
          })
        ).map((row) => [partitionName(keyOfRow(row)), row]),
      );
      const rows: LedgerInsert[] = [];
      const changed: typeof writes = [];
      const replaced: LedgerRow[] = [];
      for (const write of writes) {
        const found = current.get(partitionName(write.key));
        if (found && found.version === write.row.version) {
          // The same contents: the row keeps its files and its own updated_at; only the fetch is new.
          rows.push({
            ...write.row,
            rowsFile: found.rowsFile,
            rawFiles: found.rawFiles,
            updatedAt: found.updatedAt,
          });
          continue;
        }
        rows.push(write.row);
        changed.push(write);
        if (found) replaced.push(found);
      }
      await removeStrays(
        bucket,
        changed.map((w) => w.key),
        current,
      );
      await eachLimited(
        changed.flatMap((w) => w.puts),
        PUTS_AT_ONCE,
        (put) => objectStore.putObject(bucket, put.key, put.body, { contentType: put.contentType }),
      );
      const written = await putRows(tx, rows);
      await refreshDayMonths(tx, keys);
      return { written, replaced };
    });
    await eachLimited(replaced.flatMap(filesOf), PUTS_AT_ONCE, (file) =>
      objectStore.deleteObject(bucket, file.key),
    );
    return written;
  }

  const filesOf = (row: LedgerRow) => [...(row.rowsFile ? [row.rowsFile] : []), ...row.rawFiles];
  const listedIn = (row: LedgerRow, objectKey: string) =>
    filesOf(row).some((file) => file.key === objectKey);

  /** Removes the objects under `prefix` that `remove` picks. */
  async function removeFiles(
    bucket: string,
    prefix: string,
    remove: (objectKey: string) => boolean,
  ) {
    const doomed: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await objectStore.listObjects(bucket, { prefix, cursor });
      for (const object of page.objects) if (remove(object.key)) doomed.push(object.key);
      cursor = page.nextCursor;
    } while (cursor);
    await eachLimited(doomed, PUTS_AT_ONCE, (objectKey) =>
      objectStore.deleteObject(bucket, objectKey),
    );
  }

  /**
   * Removes what earlier writes of these partitions left that their current rows do not list (a
   * write that died before its switch). Each type's days of the participant are listed once, by
   * the longest key prefix their dates share (a range's month, as a rule).
   */
  async function removeStrays(
    bucket: string,
    keys: readonly DatasetPartitionKey[],
    current: ReadonlyMap<string, LedgerRow>,
  ) {
    for (const type of new Set(keys.map((k) => k.type))) {
      const mine = new Map(keys.filter((k) => k.type === type).map((k) => [partitionPrefix(k), k]));
      const prefixes = [...mine.keys()];
      await removeFiles(bucket, sharedStart(prefixes), (objectKey) => {
        const key = mine.get(partitionPrefixOfKey(objectKey));
        if (!key) return false;
        const row = current.get(partitionName(key));
        return !row || !listedIn(row, objectKey);
      });
    }
  }

  /**
   * A page a ledger row lists, its bytes as received. Throws when the object is gone (the
   * partition was replaced since the row was read: read the row again) or is not the bytes the
   * row names.
   */
  async function readRawPage(studyId: string, file: DatasetFile): Promise<Buffer> {
    const { body } = await objectStore.getObject(await bucketOf(studyId), file.key);
    const chunks: Buffer[] = [];
    for await (const chunk of body)
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    const bytes = Buffer.concat(chunks);
    if (bytes.length !== file.bytes || sha256(bytes) !== file.sha256) {
      throw new Error(`Dataset page ${file.key} is not the bytes its ledger row lists`);
    }
    return bytes;
  }

  /** The ledger rows a selector picks, by participant, type and day. */
  function readLedger(selector: PartitionSelector): Promise<LedgerRow[]> {
    return selectRows(db, selector);
  }

  /**
   * Marks partitions failed, scope_missing, revoked or deleted_at_source, with the reason. Rows
   * that exist are updated (their files stay, and stay listed); with `dates` and `timeZone`, the
   * partitions of those days that have no row yet get one, without files.
   */
  async function markPartitions(
    selector: PartitionSelector & { timeZone?: string | undefined },
    state: DatasetMarkedState,
    reason: string,
    /** As a write's guard: asked in the transaction first; throwing marks nothing. */
    guard?: (tx: Tx) => Promise<void>,
  ): Promise<LedgerRow[]> {
    if (!DATASET_MARKED_STATES.includes(state))
      throw new RangeError(`Not a marked state: ${state}`);
    if (!reason.trim()) throw new RangeError('A marked partition needs a reason');
    const { timeZone, ...select } = selector;
    return db.transaction(async (tx) => {
      // A participant's marks wait for their withdrawal like writes (see lockParticipantData).
      if (select.participantId !== undefined)
        await lockParticipantData(tx, select.participantId, 'shared');
      await guard?.(tx);
      const marked = await markRows(tx, select, state, reason);
      const done = async (rows: LedgerRow[]) => {
        await refreshDayMonths(tx, rows);
        return rows;
      };
      if (!select.dates || timeZone === undefined || select.participantId === undefined) {
        return done(marked);
      }
      assertTimeZone(timeZone);
      const participantId = select.participantId;
      const missing = (select.types ?? DATA_TYPES).flatMap((dataType) =>
        (select.dates ?? []).map((date) => {
          datasetPartitionKeySchema.parse({
            studyId: select.studyId,
            participantId,
            type: dataType,
            date,
          });
          return {
            studyId: select.studyId,
            participantId,
            dataType,
            date,
            timeZone,
            state,
            reason,
          };
        }),
      );
      const inserted = await insertMissing(tx, missing);
      return done([...marked, ...inserted]);
    });
  }

  /**
   * Deletes every partition of a participant, rows and files: a withdrawal in a study whose
   * setting deletes the data collected. Each partition under its lock, so a write under way
   * finishes first and its files go too. Answers how many partitions were deleted.
   */
  async function removeParticipant(studyId: string, participantId: string): Promise<number> {
    const rows = await selectRows(db, { studyId, participantId });
    const bucket = await bucketOf(studyId);
    for (const found of rows) {
      const key: DatasetPartitionKey = {
        studyId,
        participantId,
        type: found.dataType,
        date: found.date,
      };
      await withPartitionLock(db, key, async (tx) => {
        await deleteRow(tx, key);
        await refreshDayMonths(tx, [found]);
        await removeFiles(bucket, partitionPrefix(key), () => true);
      });
    }
    return rows.length;
  }

  /**
   * Removes the files of the selected partitions marked `deleted_at_source` (the study's setting
   * asks for it) and keeps their rows, without files or figures, saying why. Others are left
   * alone. Two turns under each partition's lock: the row first lets go of its files, then
   * whatever under the partition's folder the row does not list goes (a writer that came in
   * between keeps its own). A run that died between the two is finished by running it again.
   * Answers the rows that let go of files.
   */
  async function removePartitions(selector: PartitionSelector): Promise<LedgerRow[]> {
    const removed: LedgerRow[] = [];
    const rows = await selectRows(db, selector);
    for (const found of rows) {
      if (found.state !== 'deleted_at_source') continue;
      const key: DatasetPartitionKey = {
        studyId: found.studyId,
        participantId: found.participantId,
        type: found.dataType,
        date: found.date,
      };
      const cleared = await withPartitionLock(db, key, async (tx) => {
        const current = await readRow(tx, key);
        if (current?.state !== 'deleted_at_source') return null;
        // No files listed: nothing to let go of (removed before, or never collected).
        if (filesOf(current).length === 0) return { row: current, changed: false };
        const row = await putRow(tx, {
          ...current,
          reason: COLLECTION_REASONS.removedAtSource,
          version: null,
          rowCount: 0,
          rowsFile: null,
          rawFiles: [],
          steps: null,
          wearMinutes: null,
          restingHeartRateBpm: null,
          sleepMinutes: null,
          sleepStages: null,
          updatedAt: now(),
        });
        await refreshDayMonths(tx, [row]);
        return { row, changed: true };
      });
      if (!cleared) continue;
      const bucket = await bucketOf(key.studyId);
      await withPartitionLock(db, key, async (tx) => {
        const current = await readRow(tx, key);
        await removeFiles(
          bucket,
          partitionPrefix(key),
          (object) => !current || !listedIn(current, object),
        );
      });
      if (cleared.changed) removed.push(cleared.row);
    }
    return removed;
  }

  /**
   * A day of one-second heart rate as stored: the partition's pages as received, read by the
   * dataset's own reader (the byte reader, JSON where a page is not in its shape). Null when the
   * day has no partition with pages. A partition replaced while it was read is read again.
   */
  /**
   * The last few heart-rate days read (a researcher steps through a participant's days and back;
   * ~0.5 MB each), by partition version, oldest dropped first.
   */
  const heartRateDays = new Map<
    string,
    { timeZone: string; timeMs: ArrayLike<Value>; bpm: ArrayLike<Value> }
  >();

  async function heartRateDay(
    studyId: string,
    participantId: string,
    date: string,
  ): Promise<{ timeZone: string; timeMs: ArrayLike<Value>; bpm: ArrayLike<Value> } | null> {
    const key: DatasetPartitionKey = {
      studyId,
      participantId,
      type: 'heartrate_intraday_1sec',
      date,
    };
    for (let attempt = 0; ; attempt++) {
      const row = await readRow(db, key);
      if (!row) return null;
      // A version names its files' contents: what was read for it holds until the row moves on.
      const keptKey = `${studyId}|${participantId}|${date}|${row.version}`;
      const found = row.version ? heartRateDays.get(keptKey) : undefined;
      if (found) return { ...found, timeZone: row.timeZone };
      try {
        const pages = await Promise.all(
          rawPagesOf(row).map(async (page) => ({
            call: page.call,
            body: await readRawPage(studyId, page),
          })),
        );
        const table = partitionTable(key.type, participantId, date, pages, row.timeZone);
        const read = {
          timeZone: row.timeZone,
          timeMs: column(table, 'timestamp_utc') ?? [],
          bpm: column(table, 'heart_rate_bpm') ?? [],
        };
        if (row.version) {
          heartRateDays.set(keptKey, read);
          if (heartRateDays.size > HEART_RATE_DAYS_KEPT) {
            heartRateDays.delete(heartRateDays.keys().next().value as string);
          }
        }
        return read;
      } catch (error) {
        if (attempt >= 2) throw error;
      }
    }
  }

  return {
    writePartition,
    writePartitions,
    readLedger,
    readRawPage,
    markPartitions,
    removePartitions,
    removeParticipant,
    heartRateDay,
    /** Every participant's day cells over a range (the heat map), from the read model. */
    dayStrips: (studyId: string, from: string, to: string, participantId?: string) =>
      readDayStrips(db, studyId, from, to, participantId),
    /** Changes whenever a day cell of the study in the range does (a cached heat map's check). */
    dayStripsFingerprint: (studyId: string, from: string, to: string) =>
      dayMonthsFingerprint(db, studyId, from, to),
    /** The zone of each participant's latest collected month. */
    latestTimeZones: (studyId: string, participantIds: readonly string[]) =>
      latestTimeZones(db, studyId, participantIds),
    /** A participant's ledger figures per type and day (the charts). */
    dayFigures: (studyId: string, participantId: string, from: string, to: string) =>
      selectDayFigures(db, studyId, participantId, from, to),
  };
}

export type Dataset = ReturnType<typeof createDataset>;
