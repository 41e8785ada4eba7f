import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { DataType } from '@research/contracts';
import { asc, eq } from 'drizzle-orm';
import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import {
  extractionJobs,
  extractionRuns,
  extractionTasks,
  wearableConnections,
} from '../../db/schema/index.js';
import { ObjectNotFoundError, type ObjectStore } from '../../platform/object-store/types.js';
import { toCsv } from './csv.js';
import { buildManifest, type ManifestJob, type WrittenFile } from './manifest.js';
import type { DbQuota } from './quota.js';
import {
  partsPrefix,
  type RequestRecord,
  type RunRow,
  runPrefix,
  type TaskRow,
} from './records.js';
import type { StoredPages } from './stored-pages.js';
import { COLUMNS, DICTIONARY_COLUMNS, dictionaryRows, tidyRows } from './tidy.js';

/**
 * The run's files, written once every job has ended: one CSV per type (the tasks' parts joined in
 * the order of the run's participants), a data dictionary and `manifest.json`; then the bucket is
 * left holding exactly what the manifest lists, and the run gets its final status.
 */

/** Where the engine's few log lines go (the app's logger); never a token or personal data. */
export interface ExtractionLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface RunFilesDeps {
  db: Db;
  config: AppConfig;
  objectStore: ObjectStore;
  quota: DbQuota;
  storedPages: StoredPages;
  bucketOf: (studyId: string) => string;
  log: ExtractionLog;
}

export function createRunFiles(deps: RunFilesDeps) {
  const { db, objectStore } = deps;

  /** Streams the chunks into the bucket as one CSV; returns its size and SHA-256. */
  async function putCsv(
    bucket: string,
    key: string,
    chunks: AsyncIterable<string | Buffer> | Iterable<string>,
  ): Promise<WrittenFile> {
    const hash = createHash('sha256');
    let bytes = 0;
    async function* hashed() {
      for await (const chunk of chunks) {
        const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
        hash.update(buffer);
        bytes += buffer.length;
        yield buffer;
      }
    }
    await objectStore.putObject(bucket, key, Readable.from(hashed()), {
      contentType: 'text/csv; charset=utf-8',
    });
    return { key, bytes, sha256: hash.digest('hex') };
  }

  /**
   * A completed task's rows as CSV without a header: the part its run wrote, or, for a task
   * completed before parts existed, tidied again from its raw pages.
   */
  async function* taskCsv(bucket: string, participantId: string, task: TaskRow) {
    if (task.partKey) {
      try {
        const { body } = await objectStore.getObject(bucket, task.partKey);
        yield* body as AsyncIterable<Buffer>;
        return;
      } catch (error) {
        if (!(error instanceof ObjectNotFoundError)) throw error;
      }
    }
    const calls = await deps.storedPages(bucket, task.requests as RequestRecord[]);
    const window = { start: task.windowStart, end: task.windowEnd };
    yield toCsv(tidyRows(task.dataType as DataType, participantId, window, calls));
  }

  /** The run's jobs with their participants' grants, in the order the run lists participants. */
  async function jobsOf(run: RunRow): Promise<ManifestJob[]> {
    const jobs = await db
      .select({
        id: extractionJobs.id,
        participantId: extractionJobs.participantId,
        status: extractionJobs.status,
        error: extractionJobs.error,
        healthUserId: wearableConnections.healthUserId,
        grantedScopes: wearableConnections.grantedScopes,
      })
      .from(extractionJobs)
      .leftJoin(
        wearableConnections,
        eq(wearableConnections.participantId, extractionJobs.participantId),
      )
      .where(eq(extractionJobs.runId, run.id));
    const order = new Map(run.params.participantIds.map((id, i) => [id, i]));
    return jobs.sort(
      (a, b) => (order.get(a.participantId) ?? 0) - (order.get(b.participantId) ?? 0),
    );
  }

  /** One CSV per type, all at once: raw heart rate (hundreds of MB) is the longest. */
  async function typeCsvs(run: RunRow, bucket: string, jobs: ManifestJob[], tasks: TaskRow[]) {
    return Promise.all(
      (run.params.dataTypes as DataType[]).map(async (dataType) => {
        const typeTasks = tasks.filter((t) => t.dataType === dataType && t.status === 'completed');
        async function* csv() {
          yield toCsv([COLUMNS[dataType].map((c) => c.name)]);
          for (const job of jobs) {
            for (const task of typeTasks) {
              if (task.jobId === job.id) yield* taskCsv(bucket, job.participantId, task);
            }
          }
        }
        const file = await putCsv(bucket, `${runPrefix(run.id)}/${dataType}.csv`, csv());
        return { dataType, file, rows: typeTasks.reduce((sum, t) => sum + (t.rows ?? 0), 0) };
      }),
    );
  }

  async function writeRunFiles(run: RunRow) {
    const runId = run.id;
    const bucket = deps.bucketOf(run.studyId);
    await objectStore.ensureBucket(bucket);
    const prefix = runPrefix(runId);
    const jobs = await jobsOf(run);
    const tasks = await db
      .select()
      .from(extractionTasks)
      .where(eq(extractionTasks.runId, runId))
      .orderBy(asc(extractionTasks.seq));
    const files: WrittenFile[] = [];
    const rowCounts: Record<string, number> = {};
    for (const { dataType, file, rows } of await typeCsvs(run, bucket, jobs, tasks)) {
      files.push(file);
      rowCounts[dataType] = rows;
    }
    files.push(
      await putCsv(bucket, `${prefix}/data_dictionary.csv`, [
        toCsv([DICTIONARY_COLUMNS, ...dictionaryRows(run.params.dataTypes as DataType[])]),
      ]),
    );
    const manifest = buildManifest({ config: deps.config, run, jobs, tasks, files, rowCounts });
    const manifestKey = `${prefix}/manifest.json`;
    // The bucket holds exactly what the manifest lists: the pages of a task that failed for good
    // (its rows are in no CSV, and nothing vouches for a part-fetched window) and the pages of an
    // earlier attempt that fetched more of them go; the parts go once the manifest is written.
    const listed = new Set([...manifest.files.map((f) => f.key), manifestKey]);
    await removeObjects(
      bucket,
      `${prefix}/`,
      (key) => !listed.has(key) && !key.startsWith(partsPrefix(runId)),
    );
    await objectStore.putObject(bucket, manifestKey, `${JSON.stringify(manifest, null, 2)}\n`, {
      contentType: 'application/json',
    });
    await removeObjects(bucket, partsPrefix(runId), () => true);
    await endRun(runId, jobs, [...files.map((f) => f.key), manifestKey]);
    logReaders(runId, tasks);
    await deps.quota.prune();
  }

  /** The run's final status: failed when every participant's job failed, else completed. */
  async function endRun(runId: string, jobs: ManifestJob[], files: string[]) {
    const allFailed = jobs.length > 0 && jobs.every((j) => j.status === 'failed');
    await db
      .update(extractionRuns)
      .set({
        status: allFailed ? 'failed' : 'completed',
        files,
        completedAt: new Date(),
        finalizingUntil: null,
      })
      .where(eq(extractionRuns.id, runId));
  }

  /**
   * One line a run: how many pages the fast readers (raw heart rate, read from its bytes) left to
   * JSON. Any at all means the provider's answers changed shape, and the speed-up is gone.
   */
  function logReaders(runId: string, tasks: TaskRow[]) {
    const pages = tasks.flatMap((t) =>
      t.status === 'completed' ? (t.requests as RequestRecord[]) : [],
    );
    const readAsJson = pages.filter((r) => r.readAsJson).length;
    const details = { runId, pages: pages.length, readAsJson };
    if (readAsJson > 0) {
      deps.log.warn(
        details,
        'extraction run ended: pages the fast reader could not read were parsed as JSON',
      );
    } else {
      deps.log.info(details, 'extraction run ended: every page with a fast reader was read by it');
    }
  }

  /** Deletes the objects under `prefix` that `remove` picks. */
  async function removeObjects(bucket: string, prefix: string, remove: (key: string) => boolean) {
    const doomed: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await objectStore.listObjects(bucket, { prefix, cursor });
      for (const object of page.objects) if (remove(object.key)) doomed.push(object.key);
      cursor = page.nextCursor;
    } while (cursor);
    for (const key of doomed) await objectStore.deleteObject(bucket, key);
  }

  return writeRunFiles;
}
