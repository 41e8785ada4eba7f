import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import type { DatasetTrigger, DataType } from '@research/contracts';
import type { Db } from '../../db/client.js';
import type { FsObjectStore } from '../../platform/object-store/fs-store.js';
import type { ObjectStore } from '../../platform/object-store/types.js';
import type { CollectDaysInput, CollectResult } from '../collection/index.js';
import { currentFormat, type Dataset, type LedgerRow, rawPagesOf } from '../dataset/index.js';
import { type PartFile, type StageSegment, writeTables } from './duck-tables.js';
import type { ExportColumn, ExportTable } from './export-columns.js';
import { exportsRepository } from './exports.repository.js';
import { readmeText } from './readme.js';
import { dictionaryCsv } from './writers.js';

/**
 * One export built: the days not held yet fetched first (collection, within the quota), the
 * partitions read (ledger + Parquet, sleep stages from the raw pages), the tables built and
 * written under `exports/{id}/` with the dictionary, manifest and README. Any failure removes what
 * was written and leaves the export failed with the reason.
 */

export interface BuildDeps {
  db: Db;
  objectStore: ObjectStore;
  bucketOf: (studyId: string) => string;
  dataset: Dataset;
  /** Collection's fetch of given days of one participant (respects the quota); none: no fetch. */
  collectDays?: ((input: CollectDaysInput) => Promise<CollectResult>) | undefined;
  now?: () => Date;
}

const SETTLED = new Set(['complete', 'empty']);
const DELETED = 'deleted_at_source';
const HELD = new Set(['complete', 'partial', 'empty']);
const MINUTE_TYPES = new Set<DataType>([
  'activity_steps_intraday',
  'activity_calories_intraday',
  'heartrate_intraday_1min',
]);
/** Progress is written at most this often (partitions read). */
const PROGRESS_EVERY = 50;

export const exportPrefix = (exportId: string) => `exports/${exportId}/`;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

function daysOf(start: string, end: string): string[] {
  const out: string[] = [];
  for (let d = start; d <= end; d = addDays(d, 1)) out.push(d);
  return out;
}

const seconds = (text: unknown): number | null => {
  const match = typeof text === 'string' ? /^(-?\d+(?:\.\d+)?)s$/.exec(text) : null;
  return match ? Number(match[1]) : null;
};

/** The stage segments of the sessions a sleep partition holds, from its raw pages. */
function stagesOf(pages: Buffer[], sessions: Set<string>): StageSegment[] {
  const out: StageSegment[] = [];
  for (const body of pages) {
    const page = JSON.parse(body.toString('utf8') || '{}') as { dataPoints?: unknown[] };
    for (const point of page.dataPoints ?? []) {
      const p = point as { name?: string; dataPointName?: string; sleep?: { stages?: unknown[] } };
      const name = String(p.name ?? p.dataPointName ?? '');
      const sleepId = name.slice(name.lastIndexOf('/') + 1);
      if (!sessions.has(sleepId)) continue;
      for (const stage of p.sleep?.stages ?? []) {
        const s = stage as Record<string, unknown>;
        const startMs = Date.parse(String(s.startTime ?? ''));
        const endMs = Date.parse(String(s.endTime ?? ''));
        if (Number.isNaN(startMs) || Number.isNaN(endMs)) continue;
        out.push({
          sleepId,
          stage: String(s.type ?? ''),
          startMs,
          startOffset: seconds(s.startUtcOffset),
          endMs,
          endOffset: seconds(s.endUtcOffset),
        });
      }
    }
  }
  return out;
}

interface FileOut {
  path: string;
  key: string;
  bytes: number;
  sha256: string;
  rows: number | null;
}

export async function buildExport(deps: BuildDeps, exportId: string): Promise<void> {
  const repo = exportsRepository(deps.db);
  const now = deps.now ?? (() => new Date());
  const found = await repo.byId(exportId);
  if (!found || found.status === 'completed' || found.status === 'failed') return;
  const bucket = deps.bucketOf(found.studyId);
  const prefix = exportPrefix(exportId);
  await deps.objectStore.ensureBucket(bucket);

  async function removeWritten() {
    let cursor: string | undefined;
    const keys: string[] = [];
    do {
      const page = await deps.objectStore.listObjects(bucket, { prefix, cursor });
      for (const object of page.objects) keys.push(object.key);
      cursor = page.nextCursor;
    } while (cursor);
    await Promise.all(keys.map((key) => deps.objectStore.deleteObject(bucket, key)));
  }

  try {
    // A run that died half-way (a retry) starts again from nothing.
    await removeWritten();
    await repo.clearFiles(exportId);
    const exp = found;
    const dates = daysOf(exp.startDate, exp.endDate);
    const participants = [...exp.participantIds].sort();
    const types = [...exp.dataTypes].sort() as DataType[];
    const total = participants.length * types.length * dates.length;
    await repo.update(exportId, { status: 'running', progressDone: 0, progressTotal: total });

    // 1. Days not settled yet: fetched through collection, within the participant's quota.
    const trigger: DatasetTrigger = { kind: 'sweep', id: `export:${exportId}` };
    const today = now().toISOString().slice(0, 10);
    if (deps.collectDays) {
      for (const participantId of participants) {
        const ledger = await deps.dataset.readLedger({
          studyId: exp.studyId,
          participantId,
          types,
          from: exp.startDate,
          to: exp.endDate,
        });
        // A partition written in an older format (e.g. minutes cut at UTC midnights) is fetched
        // again, as a sweep would.
        const state = new Map(
          ledger.map((r) => [`${r.dataType}\0${r.date}`, currentFormat(r) ? r.state : 'stale']),
        );
        for (const type of types) {
          // Days deleted at the source stay as the study's setting left them (as in a sweep); the
          // profile is not a day's data: one read, of the last day, stands for the range.
          const wanted = (type === 'profile' ? dates.slice(-1) : dates).filter((d) => {
            const current = state.get(`${type}\0${d}`) ?? '';
            return d <= addDays(today, 1) && !SETTLED.has(current) && current !== DELETED;
          });
          if (wanted.length === 0) continue;
          try {
            await deps.collectDays({ participantId, types: [type], dates: wanted, trigger });
          } catch {
            // No connection, no budget left, or Google failing: the days stay missing (manifest).
          }
        }
      }
    }

    // 2. The partitions read: the types asked, and what the minute grid needs beside them.
    const readTypes = new Set<DataType>(types);
    if (types.some((t) => MINUTE_TYPES.has(t))) {
      readTypes.add('activity_steps_intraday');
      if (exp.minuteGrid) {
        readTypes.add('heartrate_intraday_1min');
        readTypes.add('heartrate_intraday_1sec');
      }
    }
    const read: LedgerRow[] = [];
    const used: LedgerRow[] = [];
    const missing: {
      participantId: string;
      type: DataType;
      date: string;
      state: string;
      reason: string | null;
    }[] = [];
    let done = 0;
    let reported = 0;
    const rawCopies: { path: string; file: { key: string; bytes: number; sha256: string } }[] = [];

    for (const participantId of participants) {
      for (const type of [...readTypes].sort()) {
        const asked = types.includes(type);
        const rows = await deps.dataset.readLedger({
          studyId: exp.studyId,
          participantId,
          types: [type],
          from: exp.startDate,
          to: exp.endDate,
        });
        const byDate = new Map(rows.map((r) => [r.date, r]));
        for (const date of dates) {
          const row = byDate.get(date);
          if (asked) {
            done += 1;
            if (!row || !HELD.has(row.state)) {
              missing.push({
                participantId,
                type,
                date,
                state: row?.state ?? 'missing',
                reason: row?.reason ?? (row ? null : 'Not held by the dataset and not fetched'),
              });
            }
          }
          if (!row) continue;
          read.push(row);
          if (HELD.has(row.state)) used.push(row);
          if (exp.includeRaw && asked && HELD.has(row.state)) {
            for (const [n, page] of rawPagesOf(row).entries()) {
              rawCopies.push({
                path: `raw/${type}/participant=${participantId}/date=${date}/${String(n).padStart(4, '0')}-${page.call}.json`,
                file: page,
              });
            }
          }
          if (done - reported >= PROGRESS_EVERY) {
            reported = done;
            await repo.update(exportId, { progressDone: done });
          }
        }
      }
    }
    await repo.update(exportId, { progressDone: done });

    // 3. Tables (DuckDB, from the partitions' files), dictionary, manifest, README.
    const tableNames: ExportTable[] = [...types];
    if (types.includes('sleep_log')) tableNames.push('sleep_stages');
    const files: FileOut[] = [];
    const put = async (file: string, bytes: Buffer, rows: number | null, contentType: string) => {
      const key = `${prefix}${file}`;
      await deps.objectStore.putObject(bucket, key, bytes, { contentType });
      files.push({ path: file, key, bytes: bytes.length, sha256: sha256(bytes), rows });
    };
    /** A table's file, streamed from disk into the bucket and hashed on the way. */
    const putFile = async (file: string, local: string, rows: number, contentType: string) => {
      const key = `${prefix}${file}`;
      const hash = createHash('sha256');
      let bytes = 0;
      const counted = createReadStream(local).pipe(
        new Transform({
          transform(chunk: Buffer, _encoding, done) {
            hash.update(chunk);
            bytes += chunk.length;
            done(null, chunk);
          },
        }),
      );
      await deps.objectStore.putObject(bucket, key, counted, { contentType });
      files.push({ path: file, key, bytes, sha256: hash.digest('hex'), rows });
    };
    const dictionary: { file: string; columns: ExportColumn[] }[] = [];
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'wrp-export-'));
    let tables: Awaited<ReturnType<typeof writeTables>>;
    // Each table goes into the bucket while DuckDB builds the next ones, one upload at a time in
    // the order the tables finish. A failed upload is kept (not left unhandled) and fails the
    // build once DuckDB is done.
    let uploads: Promise<void> = Promise.resolve();
    let uploadFailure: { error: unknown } | undefined;
    try {
      const source = await localFiles(deps, bucket, read, path.join(tmp, 'in'));
      tables = await writeTables({
        participantIds: participants,
        tables: tableNames.sort(),
        dates,
        minuteGrid: exp.minuteGrid,
        formats: exp.formats,
        parts: source.parts,
        zones: await deps.dataset.latestTimeZones(exp.studyId, participants),
        stagesOf: async (part, sessions) => {
          const row = source.rowOf.get(part);
          if (!row) return [];
          const pages = await Promise.all(
            rawPagesOf(row).map((page) => deps.dataset.readRawPage(row.studyId, page)),
          );
          return stagesOf(pages, sessions);
        },
        dir: tmp,
        written: (table) => {
          uploads = uploads
            .then(async () => {
              if (uploadFailure) return;
              for (const { format, file } of table.files) {
                const out = `${format}/${table.name}.${format}`;
                const type =
                  format === 'parquet'
                    ? 'application/vnd.apache.parquet'
                    : 'text/csv; charset=utf-8';
                await putFile(out, file, table.rows, type);
                dictionary.push({ file: out, columns: table.columns });
              }
            })
            .catch((error: unknown) => {
              uploadFailure ??= { error };
            });
        },
      });
    } finally {
      // Also when DuckDB failed: the uploads under way finish before their files go.
      await uploads;
      await rm(tmp, { recursive: true, force: true });
    }
    if (uploadFailure) throw uploadFailure.error;
    // Tables finish in any order (two at a time): listed by path, the same for the same export.
    const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : 1);
    files.sort(byPath);
    dictionary.sort((a, b) => byPath({ path: a.file }, { path: b.file }));
    for (const copy of rawCopies) {
      await put(
        copy.path,
        await deps.dataset.readRawPage(exp.studyId, copy.file),
        null,
        'application/json',
      );
    }
    await put('data_dictionary.csv', dictionaryCsv(dictionary), null, 'text/csv; charset=utf-8');
    await put(
      'README.txt',
      Buffer.from(
        readmeText(
          tables.map((t) => ({ name: t.name, columns: t.columns })),
          exp.formats,
        ),
        'utf8',
      ),
      null,
      'text/plain; charset=utf-8',
    );
    const manifest = {
      export: {
        id: exp.id,
        name: exp.name,
        studyId: exp.studyId,
        createdBy: exp.createdByLabel,
        createdAt: exp.createdAt.toISOString(),
        participantIds: participants,
        dataTypes: types,
        dateRange: { startDate: exp.startDate, endDate: exp.endDate },
        formats: [...exp.formats].sort(),
        minuteGrid: exp.minuteGrid,
        includeRaw: exp.includeRaw,
      },
      partitions: used.map((row) => ({
        participantId: row.participantId,
        type: row.dataType,
        date: row.date,
        timeZone: row.timeZone,
        state: row.state,
        fetchedAt: row.fetchedAt?.toISOString() ?? null,
        trigger: row.trigger ?? null,
        version: row.version,
        rows: row.rowCount,
        rowsFile: row.rowsFile,
        // What the ledger keeps of the requests: the call each page answered, in fetch order.
        requests: rawPagesOf(row).map((page) => ({
          call: page.call,
          object: page.key,
          bytes: page.bytes,
          sha256: page.sha256,
        })),
      })),
      missingPartitions: missing,
      files: files.map(({ key: _key, ...file }) => file),
    };
    await put(
      'manifest.json',
      Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8'),
      null,
      'application/json',
    );
    await repo.complete(exportId, files, {
      missingPartitions: missing.length,
      bytes: files.reduce((sum, f) => sum + f.bytes, 0),
      completedAt: now(),
    });
  } catch (error) {
    await removeWritten().catch(() => undefined);
    await repo.clearFiles(exportId);
    await repo.update(exportId, {
      status: 'failed',
      error: error instanceof Error ? error.message : String(error),
      completedAt: now(),
    });
  }
}

/**
 * Every partition read as DuckDB reads it: its rows.parquet on local disk (the file store's own
 * file, else a copy in `dir`). One replaced while the export runs (its files gone) is read again
 * from the ledger.
 */
async function localFiles(deps: BuildDeps, bucket: string, rows: LedgerRow[], dir: string) {
  const store = deps.objectStore as Partial<FsObjectStore>;
  const onDisk = store.driver === 'fs' && typeof store.localPath === 'function';
  const parts: PartFile[] = [];
  const rowOf = new Map<PartFile, LedgerRow>();
  for (const [n, first] of rows.entries()) {
    let row: LedgerRow | undefined = first;
    let file: string | null = null;
    for (let attempt = 0; row && HELD.has(row.state) && row.rowsFile; attempt++) {
      try {
        if (onDisk) {
          file = (store.localPath as FsObjectStore['localPath'])(bucket, row.rowsFile.key);
          await stat(file);
        } else {
          // Under the same participant=/date= folders as in the bucket (DuckDB reads them).
          const folder = path.join(
            dir,
            String(n),
            `participant=${first.participantId}`,
            `date=${first.date}`,
          );
          await mkdir(folder, { recursive: true });
          file = path.join(folder, 'rows.parquet');
          await writeFile(file, await deps.dataset.readRawPage(row.studyId, row.rowsFile));
        }
        break;
      } catch (error) {
        file = null;
        if (attempt >= 2) throw error;
        [row] = await deps.dataset.readLedger({
          studyId: first.studyId,
          participantId: first.participantId,
          types: [first.dataType],
          dates: [first.date],
        });
      }
    }
    const part: PartFile = {
      participantId: first.participantId,
      type: first.dataType,
      date: first.date,
      timeZone: row?.timeZone ?? first.timeZone,
      state: row?.state ?? 'missing',
      file,
    };
    parts.push(part);
    if (row) rowOf.set(part, row);
  }
  return { parts, rowOf };
}
