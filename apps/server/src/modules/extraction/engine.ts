import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  bucketNameForStudy,
  type DataType,
  EXTRACTION_RUN_LIST_LIMIT,
  EXTRACTION_SERVER_MESSAGES,
  type ExtractionDateRange,
  type ExtractionJob,
  type ExtractionTask,
  scopeLabel,
} from '@research/contracts';
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import {
  extractionJobs,
  extractionRuns,
  extractionTasks,
  participants,
  wearableConnections,
} from '../../db/schema/index.js';
import { AppError } from '../../errors.js';
import {
  createGoogleHealthClient,
  fieldsQuery,
  type GoogleHealthClient,
  type GoogleHealthClientOptions,
  GoogleHealthError,
} from '../../platform/google-health/index.js';
import { defineJob, type JobQueue } from '../../platform/jobs.js';
import { ObjectNotFoundError, type ObjectStore } from '../../platform/object-store/types.js';
import { recordAudit } from '../audit/audit.service.js';
import type { WearablesService } from '../wearables/wearables.service.js';
import { toCsv } from './csv.js';
import { callsFor, missingScopes, type PlannedCall, planExtraction } from './plan.js';
import { createDbQuota, type DbQuota } from './quota.js';
import { TaskPart } from './task-part.js';
import { type CallPages, COLUMNS, DICTIONARY_COLUMNS, dictionaryRows, tidyRows } from './tidy.js';

/**
 * The extraction engine (DESIGN §10): a start writes one run, one job per participant and the
 * planned tasks, then queues one pg-boss job per participant. A job works through its tasks in
 * order, persisting each; a crash or restart resumes at the first unfinished task, and a task run
 * twice writes the same objects (deterministic keys) and the same row. The last job to finish
 * finalises the run (queued for a worker only if that fails): one CSV per type, a data dictionary
 * and `manifest.json`.
 */

export const API_VERSION = 'v4';

export interface ExtractionEngineDeps {
  db: Db;
  config: AppConfig;
  objectStore: ObjectStore;
  /** Lazy: the services exist only after the job queue has started. */
  wearables: () => Promise<WearablesService>;
  jobs: () => JobQueue;
  retry: { limit: number; delaySeconds: number };
  quota?: DbQuota;
  clientOptions?: Omit<GoogleHealthClientOptions, 'fetch'>;
  /** For tests: the fetch the provider calls go through (after the quota). */
  fetch?: typeof fetch;
}

export interface StartInput {
  studyId: string;
  actorId: string;
  name: string;
  dataTypes: DataType[];
  dateRange: ExtractionDateRange;
  participantIds: string[];
  ip?: string | undefined;
}

interface RequestRecord {
  callKey: string;
  method: string;
  url: string;
  body: unknown;
  fetchedAt: string;
  object: string;
  bytes: number;
  sha256: string;
}

const EMPTY = Buffer.alloc(0);
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const snake = (apiType: string) => apiType.replace(/-/g, '_');
const civil = (date: string) => {
  const [year, month, day] = date.split('-').map(Number);
  return { date: { year: year ?? 0, month: month ?? 0, day: day ?? 0 } };
};

/** The list filter of a call (reference §3.3): civil bounds, end-based for sleep. */
export function filterOf(call: PlannedCall): string | undefined {
  const { spec, from, to } = call;
  if (!spec.apiType || !from || !to) return undefined;
  const t = snake(spec.apiType);
  const member =
    spec.filter === 'interval-civil'
      ? `${t}.interval.civil_start_time`
      : spec.filter === 'sample-civil'
        ? `${t}.sample_time.civil_time`
        : spec.filter === 'daily-date'
          ? `${t}.date`
          : spec.filter === 'sleep-civil-end'
            ? `${t}.interval.civil_end_time`
            : null;
  return member ? `${member} >= "${from}" AND ${member} < "${to}"` : undefined;
}

/** A task's tidy rows (CSV, no header) until finalisation joins them into its type's file. */
const partKey = (runId: string, taskId: string) => `extractions/${runId}/parts/${taskId}.csv`;

const rawKey = (
  runId: string,
  participantId: string,
  dataType: string,
  call: PlannedCall,
  page: number,
) =>
  `extractions/${runId}/raw/${participantId}/${dataType}/${call.spec.key}_${call.from ?? 'now'}_p${page + 1}.json`;

async function readText(body: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/** A failure that ends the participant's job at once (no retry helps). */
class JobFatal extends Error {}

export function createExtractionEngine(deps: ExtractionEngineDeps) {
  const { db, config, objectStore } = deps;
  const quota = deps.quota ?? createDbQuota(db, config.extraction);
  const baseFetch = deps.fetch ?? fetch;
  const bucketOf = (studyId: string) =>
    `${config.storage.driver === 's3' ? config.storage.bucketPrefix : ''}${bucketNameForStudy(studyId)}`;

  // ---- progress bookkeeping -----------------------------------------------------------------

  /**
   * Job totals are sums over its tasks. While a job runs they move by the same amounts as its
   * tasks' counts (`moveJobTotals`, one statement with the task's own update); at its end they are
   * summed again, so nothing a re-run or a dead worker left behind can stay counted twice.
   */
  async function syncJobTotals(jobId: string) {
    await db
      .update(extractionJobs)
      .set({
        callsDone: sql`(select coalesce(sum(${extractionTasks.callsDone}), 0) from ${extractionTasks} where ${extractionTasks.jobId} = ${jobId})`,
        callsPlanned: sql`(select coalesce(sum(${extractionTasks.callsPlanned}), 0) from ${extractionTasks} where ${extractionTasks.jobId} = ${jobId})`,
      })
      .where(eq(extractionJobs.id, jobId));
  }

  /** A page's progress: the task's counts and its job's totals (by the difference) at once. */
  async function recordPage(
    taskId: string,
    jobId: string,
    counts: { done: number; planned: number },
    delta: { done: number; planned: number },
  ) {
    const t = extractionTasks;
    const j = extractionJobs;
    await db.execute(sql`
      with task as (
        update ${t} set calls_done = ${counts.done}, calls_planned = ${counts.planned},
          updated_at = now()
        where ${t.id} = ${taskId}
        returning 1
      )
      update ${j} set calls_done = ${j.callsDone} + ${delta.done},
        calls_planned = ${j.callsPlanned} + ${delta.planned}
      where ${j.id} = ${jobId} and exists (select 1 from task)`);
  }

  /** Moves a job's totals by a task's change in counts (when a task restarts or completes). */
  async function moveJobTotals(jobId: string, delta: { done: number; planned: number }) {
    if (delta.done === 0 && delta.planned === 0) return;
    await db
      .update(extractionJobs)
      .set({
        callsDone: sql`${extractionJobs.callsDone} + ${delta.done}`,
        callsPlanned: sql`${extractionJobs.callsPlanned} + ${delta.planned}`,
      })
      .where(eq(extractionJobs.id, jobId));
  }

  // ---- one task ------------------------------------------------------------------------------

  type TaskRow = typeof extractionTasks.$inferSelect;
  type JobRow = typeof extractionJobs.$inferSelect;

  async function runTask(
    job: JobRow,
    task: TaskRow,
    connection: { healthUserId: string; grantedScopes: string[] },
    bucket: string,
  ) {
    const wearables = await deps.wearables();
    let token = await wearables.accessToken(job.participantId);
    // The client reads each answer once; the task keeps its bytes (stored as is) and its body.
    let last: { bytes: Buffer; body: unknown } = { bytes: EMPTY, body: {} };
    // The current call's reader of answers from their bytes (TaskPart.decoder), if it has one.
    let decode: ((bytes: Buffer) => unknown) | null = null;
    const client: GoogleHealthClient = createGoogleHealthClient(config.googleHealth, {
      ...deps.clientOptions,
      fetch: async (input, init) => {
        await quota.acquire(connection.healthUserId);
        return baseFetch(input, init);
      },
      onBody: (bytes, body) => {
        last = { bytes, body };
      },
      decode: (bytes) => decode?.(bytes) ?? null,
    });
    const dataType = task.dataType as DataType;
    const calls = callsFor(dataType, task.windowStart, task.windowEnd, connection.grantedScopes);
    await db
      .update(extractionTasks)
      .set({
        status: 'running',
        attempts: sql`${extractionTasks.attempts} + 1`,
        callsDone: 0,
        error: null,
        updatedAt: new Date(),
      })
      .where(eq(extractionTasks.id, task.id));
    // A task run again (after a crash or a retry) starts its count afresh.
    await moveJobTotals(job.id, { done: -task.callsDone, planned: 0 });

    const requests: RequestRecord[] = [];
    const window = { start: task.windowStart, end: task.windowEnd };
    const part = new TaskPart(dataType, job.participantId, window);
    let done = 0;
    let planned = task.callsPlanned;
    for (const call of calls) {
      let pageToken: string | null = null;
      let page = 0;
      decode = part.decoder(call.spec.key);
      do {
        const { method, url, body } = requestOf(call, pageToken);
        const send = () => execute(client, token, call, pageToken);
        try {
          await send();
        } catch (error) {
          // An access token that died mid-task (an hour is long): refresh once and repeat.
          if (!(error instanceof GoogleHealthError && error.kind === 'unauthenticated'))
            throw error;
          // Forced refresh; a dead grant (invalid_grant) is marked for reauthorization there.
          await wearables.refresh(job.participantId);
          token = await wearables.accessToken(job.participantId);
          await send();
        }
        const parsed = last.body as { nextPageToken?: string };
        // Stored as received: the same bytes for the file, its size and its hash.
        const raw = last.bytes;
        last = { bytes: EMPTY, body: {} };
        // Into the part at once, before anything is awaited: a parsed page of 10,000 points dies
        // young instead of waiting, with those of every other task in flight, to be promoted.
        part.add(call.spec.key, parsed);
        pageToken = parsed.nextPageToken || null;
        const key = rawKey(task.runId, job.participantId, dataType, call, page);
        await objectStore.putObject(bucket, key, raw, { contentType: 'application/json' });
        requests.push({
          callKey: call.spec.key,
          method,
          url,
          body,
          fetchedAt: new Date().toISOString(),
          object: key,
          bytes: raw.length,
          sha256: sha256(raw),
        });
        done += 1;
        page += 1;
        const before = planned;
        planned = Math.max(planned, done + (pageToken ? 1 : 0));
        await recordPage(
          task.id,
          job.id,
          { done, planned },
          { done: 1, planned: planned - before },
        );
      } while (pageToken);
    }
    // Tidied now, while the pages are at hand: finalisation only joins the parts.
    const { csv, rows } = await part.finish(() => storedPages(bucket, requests));
    await objectStore.putObject(bucket, partKey(task.runId, task.id), csv, {
      contentType: 'text/csv; charset=utf-8',
    });
    await db
      .update(extractionTasks)
      .set({
        status: 'completed',
        callsDone: done,
        // A type that needed fewer pages than estimated is done: planned follows what was needed.
        callsPlanned: done,
        rows,
        outputKeys: requests.map((r) => r.object),
        requests,
        updatedAt: new Date(),
      })
      .where(eq(extractionTasks.id, task.id));
    await moveJobTotals(job.id, { done: 0, planned: done - planned });
  }

  function requestOf(call: PlannedCall, pageToken: string | null) {
    const api = config.googleHealth.apiUrl.replace(/\/$/, '');
    const { spec } = call;
    const path = spec.apiType ? `${api}/v4/users/me/dataTypes/${spec.apiType}/dataPoints` : '';
    switch (spec.method) {
      case 'identity':
        return { method: 'GET', url: `${api}/v4/users/me/identity`, body: null };
      case 'profile':
        return { method: 'GET', url: `${api}/v4/users/me/profile`, body: null };
      case 'settings':
        return { method: 'GET', url: `${api}/v4/users/me/settings`, body: null };
      case 'list': {
        const params = new URLSearchParams();
        const filter = filterOf(call);
        if (filter) params.set('filter', filter);
        if (spec.pageSize) params.set('pageSize', String(spec.pageSize));
        if (pageToken) params.set('pageToken', pageToken);
        if (spec.fields) params.set('fields', spec.fields);
        return { method: 'GET', url: `${path}?${params}`, body: null };
      }
      case 'rollUp':
        return {
          method: 'POST',
          url: `${path}:rollUp${fieldsQuery(spec.fields)}`,
          body: rollUpBody(call, pageToken),
        };
      case 'dailyRollUp':
        return {
          method: 'POST',
          url: `${path}:dailyRollUp${fieldsQuery(spec.fields)}`,
          body: dailyRollUpBody(call, pageToken),
        };
    }
  }

  const rollUpBody = (call: PlannedCall, pageToken: string | null) => ({
    range: { startTime: `${call.from}T00:00:00Z`, endTime: `${call.to}T00:00:00Z` },
    windowSize: call.spec.windowSize ?? '60s',
    ...(call.spec.pageSize ? { pageSize: call.spec.pageSize } : {}),
    ...(pageToken ? { pageToken } : {}),
  });
  const dailyRollUpBody = (call: PlannedCall, pageToken: string | null) => ({
    range: { start: civil(call.from ?? ''), end: civil(call.to ?? '') },
    windowSizeDays: 1,
    ...(pageToken ? { pageToken } : {}),
  });

  /** One page through the shared client (its retry policy: 429/5xx, Retry-After, jitter). */
  async function execute(
    client: GoogleHealthClient,
    token: string,
    call: PlannedCall,
    pageToken: string | null,
  ): Promise<void> {
    const { spec } = call;
    const apiType = spec.apiType ?? '';
    const fields = spec.fields ? { fields: spec.fields } : {};
    switch (spec.method) {
      case 'identity':
        await client.getIdentity(token);
        return;
      case 'profile':
        await client.getProfile(token);
        return;
      case 'settings':
        await client.getSettings(token);
        return;
      case 'list': {
        const filter = filterOf(call);
        await client.listDataPoints(token, apiType, {
          ...(filter ? { filter } : {}),
          ...(spec.pageSize ? { pageSize: spec.pageSize } : {}),
          ...(pageToken ? { pageToken } : {}),
          ...fields,
        });
        return;
      }
      case 'rollUp':
        await client.rollUp(token, apiType, rollUpBody(call, pageToken), fields);
        return;
      case 'dailyRollUp':
        await client.dailyRollUp(token, apiType, dailyRollUpBody(call, pageToken), fields);
        return;
    }
  }

  // ---- one participant's job -------------------------------------------------------------------

  async function failJob(jobId: string, message: string) {
    await db
      .update(extractionTasks)
      .set({ status: 'failed', error: message, updatedAt: new Date() })
      .where(
        and(
          eq(extractionTasks.jobId, jobId),
          inArray(extractionTasks.status, ['pending', 'running']),
        ),
      );
    await db
      .update(extractionJobs)
      .set({ status: 'failed', error: message, completedAt: new Date() })
      .where(eq(extractionJobs.id, jobId));
  }

  async function processJob(jobId: string, finalAttempt: boolean) {
    const [job] = await db.select().from(extractionJobs).where(eq(extractionJobs.id, jobId));
    if (!job) return;
    if (job.status === 'completed' || job.status === 'failed') {
      // Done before, but the worker may have died while writing the run's files.
      await maybeFinalize(job.runId);
      return;
    }
    await db
      .update(extractionJobs)
      .set({ status: 'running', startedAt: job.startedAt ?? new Date() })
      .where(eq(extractionJobs.id, jobId));
    const [connection] = await db
      .select({
        status: wearableConnections.status,
        healthUserId: wearableConnections.healthUserId,
        grantedScopes: wearableConnections.grantedScopes,
      })
      .from(wearableConnections)
      .where(eq(wearableConnections.participantId, job.participantId));
    try {
      if (!connection) throw new JobFatal(EXTRACTION_SERVER_MESSAGES.notConnected);
      if (connection.status !== 'active') {
        throw new JobFatal(EXTRACTION_SERVER_MESSAGES.needsReauthorization);
      }
      const bucket = bucketOf(job.studyId);
      await objectStore.ensureBucket(bucket);
      const tasks = await db
        .select()
        .from(extractionTasks)
        .where(eq(extractionTasks.jobId, jobId))
        .orderBy(asc(extractionTasks.seq));
      const oneTask = async (task: TaskRow) => {
        const missing = missingScopes(task.dataType as DataType, connection.grantedScopes);
        if (missing.length > 0) {
          await skipTask(task, `Scope not granted: ${missing.map(scopeLabel).join(', ')}`);
          return;
        }
        try {
          await runTask(job, task, connection, bucket);
        } catch (error) {
          if (error instanceof AppError && error.code === 'NEEDS_REAUTHORIZATION') {
            throw new JobFatal(EXTRACTION_SERVER_MESSAGES.needsReauthorization);
          }
          if (error instanceof AppError && error.code === 'NOT_CONNECTED') {
            throw new JobFatal(EXTRACTION_SERVER_MESSAGES.notConnected);
          }
          if (error instanceof GoogleHealthError && error.kind === 'permission_denied') {
            await skipTask(task, 'Scope not granted (refused by Google)');
            return;
          }
          const message = errorText(error);
          if (!finalAttempt) {
            await db
              .update(extractionTasks)
              .set({ status: 'pending', error: message, updatedAt: new Date() })
              .where(eq(extractionTasks.id, task.id));
            throw error;
          }
          await db
            .update(extractionTasks)
            .set({ status: 'failed', error: message, updatedAt: new Date() })
            .where(eq(extractionTasks.id, task.id));
        }
      };
      // Completed and skipped tasks are done; failed ones failed for good on an earlier final
      // attempt (or by a fatal error): reported, not redone.
      const open = tasks.filter((t) => t.status === 'pending' || t.status === 'running');
      // Several of the participant's tasks at once, each making its calls in turn; every call
      // still takes a slot of the participant's quota first. The first failure stops new tasks
      // from starting, and is raised once the ones under way have ended.
      let failure: { error: unknown } | null = null;
      let next = 0;
      const lane = async () => {
        for (let task = open[next++]; task && !failure; task = open[next++]) {
          try {
            await oneTask(task);
          } catch (error) {
            failure ??= { error };
          }
        }
      };
      const lanes = Math.min(config.extraction.callsPerParticipant, open.length);
      await Promise.all(Array.from({ length: lanes }, lane));
      if (failure) throw (failure as { error: unknown }).error;
      const failed = await db
        .select({ dataType: extractionTasks.dataType, error: extractionTasks.error })
        .from(extractionTasks)
        .where(and(eq(extractionTasks.jobId, jobId), eq(extractionTasks.status, 'failed')));
      await syncJobTotals(jobId);
      await db
        .update(extractionJobs)
        .set({
          status: failed.length > 0 ? 'failed' : 'completed',
          error:
            failed.length > 0
              ? `${failed.length} part(s) failed: ${[...new Set(failed.map((f) => `${f.dataType}: ${f.error}`))].join('; ')}`
              : null,
          completedAt: new Date(),
        })
        .where(eq(extractionJobs.id, jobId));
    } catch (error) {
      if (!(error instanceof JobFatal)) throw error;
      await failJob(jobId, error.message);
    }
    await maybeFinalize(job.runId);
  }

  /** Skips a task; its job's totals lose whatever the task had counted, in the same statement. */
  async function skipTask(task: TaskRow, reason: string) {
    const t = extractionTasks;
    const j = extractionJobs;
    await db.execute(sql`
      with before as (
        select ${t.callsDone} as done, ${t.callsPlanned} as planned from ${t} where ${t.id} = ${task.id}
      ), skipped as (
        update ${t} set status = 'skipped', skip_reason = ${reason}, calls_planned = 0,
          calls_done = 0
        where ${t.id} = ${task.id}
        returning 1
      )
      update ${j} set calls_done = ${j.callsDone} - (select done from before),
        calls_planned = ${j.callsPlanned} - (select planned from before)
      where ${j.id} = ${task.jobId} and exists (select 1 from skipped)`);
  }

  /** Finalisations under way in this process, so two jobs ending together write the files once. */
  const finalizing = new Map<string, Promise<void>>();

  /** finalize(), joined by any other caller for the same run meanwhile. */
  function finalizeOnce(runId: string): Promise<void> {
    let work = finalizing.get(runId);
    if (!work) {
      work = finalize(runId).finally(() => finalizing.delete(runId));
      finalizing.set(runId, work);
    }
    return work;
  }

  async function maybeFinalize(runId: string) {
    const open = await db
      .select({ id: extractionJobs.id })
      .from(extractionJobs)
      .where(
        and(
          eq(extractionJobs.runId, runId),
          inArray(extractionJobs.status, ['pending', 'running']),
        ),
      )
      .limit(1);
    if (open.length > 0) return;
    // The last job writes the run's files itself, at once, rather than queue them for a worker's
    // next poll.
    try {
      await finalizeOnce(runId);
    } catch {
      // Left to the queue, which retries with back-off.
      await deps
        .jobs()
        .send(finalizeJob, { runId }, { singletonKey: `extraction-finalize:${runId}` });
    }
  }

  // ---- the run's files -------------------------------------------------------------------------

  /** Streams the chunks into the bucket as one CSV; returns its size and SHA-256. */
  async function putCsv(
    bucket: string,
    key: string,
    chunks: AsyncIterable<string | Buffer> | Iterable<string>,
  ) {
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
    try {
      const { body } = await objectStore.getObject(bucket, partKey(task.runId, task.id));
      yield* body as AsyncIterable<Buffer>;
      return;
    } catch (error) {
      if (!(error instanceof ObjectNotFoundError)) throw error;
    }
    const calls = await storedPages(bucket, task.requests as RequestRecord[]);
    const window = { start: task.windowStart, end: task.windowEnd };
    yield toCsv(tidyRows(task.dataType as DataType, participantId, window, calls));
  }

  /** A task's raw pages read back from the bucket, by call key in the order they were fetched. */
  async function storedPages(bucket: string, requests: RequestRecord[]): Promise<CallPages[]> {
    const byCall = new Map<string, unknown[]>();
    for (const record of requests) {
      const { body } = await objectStore.getObject(bucket, record.object);
      const text = await readText(body);
      const pages = byCall.get(record.callKey) ?? [];
      pages.push(text ? JSON.parse(text) : {});
      byCall.set(record.callKey, pages);
    }
    return [...byCall.entries()].map(([key, pages]) => ({ key, pages }));
  }

  async function finalize(runId: string) {
    const [run] = await db.select().from(extractionRuns).where(eq(extractionRuns.id, runId));
    if (run?.status !== 'running') return;
    const bucket = bucketOf(run.studyId);
    await objectStore.ensureBucket(bucket);
    const prefix = `extractions/${runId}`;
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
      .where(eq(extractionJobs.runId, runId));
    const order = new Map(run.params.participantIds.map((id, i) => [id, i]));
    jobs.sort((a, b) => (order.get(a.participantId) ?? 0) - (order.get(b.participantId) ?? 0));
    const tasks = await db
      .select()
      .from(extractionTasks)
      .where(eq(extractionTasks.runId, runId))
      .orderBy(asc(extractionTasks.seq));
    const files: { key: string; bytes: number; sha256: string; rows?: number }[] = [];
    const rowCounts: Record<string, number> = {};

    // All types at once: raw heart rate (hundreds of MB) is the longest; the rest write beside it.
    const typeFiles = await Promise.all(
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
        const file = await putCsv(bucket, `${prefix}/${dataType}.csv`, csv());
        return { dataType, file, rows: typeTasks.reduce((sum, t) => sum + (t.rows ?? 0), 0) };
      }),
    );
    for (const { dataType, file, rows } of typeFiles) {
      files.push(file);
      rowCounts[dataType] = rows;
    }
    const dictionary = await putCsv(bucket, `${prefix}/data_dictionary.csv`, [
      toCsv([DICTIONARY_COLUMNS, ...dictionaryRows(run.params.dataTypes as DataType[])]),
    ]);
    files.push(dictionary);

    const manifest = {
      provider: 'google-health',
      apiVersion: API_VERSION,
      apiBaseUrl: config.googleHealth.apiUrl,
      runId,
      name: run.name,
      studyId: run.studyId,
      createdAt: run.createdAt.toISOString(),
      dataTypes: run.params.dataTypes,
      dateRange: run.params.dateRange,
      rowCounts,
      participants: jobs.map((job) => ({
        participantId: job.participantId,
        healthUserId: job.healthUserId ?? null,
        grantedScopes: job.grantedScopes ?? [],
        status: job.status,
        error: job.error,
        tasks: tasks
          .filter((t) => t.jobId === job.id)
          .map((t) => ({
            dataType: t.dataType,
            windowStart: t.windowStart,
            windowEnd: t.windowEnd,
            status: t.status,
            rows: t.rows,
            skipReason: t.skipReason,
            error: t.error,
            requests: (t.requests as RequestRecord[]).map(({ callKey: _k, ...r }) => r),
          })),
      })),
      files: [
        ...files.map((f) => ({ key: f.key, bytes: f.bytes, sha256: f.sha256 })),
        ...tasks.flatMap((t) =>
          (t.requests as RequestRecord[]).map((r) => ({
            key: r.object,
            bytes: r.bytes,
            sha256: r.sha256,
          })),
        ),
      ],
    };
    const manifestKey = `${prefix}/manifest.json`;
    await objectStore.putObject(bucket, manifestKey, `${JSON.stringify(manifest, null, 2)}\n`, {
      contentType: 'application/json',
    });
    const allFailed = jobs.length > 0 && jobs.every((j) => j.status === 'failed');
    await db
      .update(extractionRuns)
      .set({
        status: allFailed ? 'failed' : 'completed',
        files: [...files.map((f) => f.key), manifestKey],
        completedAt: new Date(),
      })
      .where(eq(extractionRuns.id, runId));
    // The parts are joined into the files above; the bucket keeps only what the manifest lists.
    for (const task of tasks) await objectStore.deleteObject(bucket, partKey(runId, task.id));
    await quota.prune();
  }

  // ---- pg-boss jobs ------------------------------------------------------------------------------

  const participantJob = defineJob<{ jobId: string }>({
    name: 'extraction-participant',
    retryLimit: deps.retry.limit,
    retryDelaySeconds: deps.retry.delaySeconds,
    // No heartbeat in pg-boss: a killed worker's job is picked up again after this long.
    expireInSeconds: config.extraction.jobExpireSeconds,
    concurrency: config.extraction.concurrency,
    handler: async (job) => {
      const final = deps.jobs().isFinalAttempt(job as PgBoss.JobWithMetadata<object>);
      try {
        await processJob(job.data.jobId, final);
      } catch (error) {
        if (!final) throw error;
        // Out of retries on an unexpected failure: report it, so the run can still finish.
        await failJob(job.data.jobId, errorText(error));
        const [row] = await db
          .select({ runId: extractionJobs.runId })
          .from(extractionJobs)
          .where(eq(extractionJobs.id, job.data.jobId));
        if (row) await maybeFinalize(row.runId);
      }
    },
  });

  const finalizeJob = defineJob<{ runId: string }>({
    name: 'extraction-finalize',
    retryLimit: deps.retry.limit,
    retryDelaySeconds: deps.retry.delaySeconds,
    expireInSeconds: 30 * 60,
    concurrency: 1,
    handler: async (job) => finalizeOnce(job.data.runId),
  });

  // ---- the service side ---------------------------------------------------------------------------

  async function start(input: StartInput) {
    const ids = [...new Set(input.participantIds)];
    const found = await db
      .select({
        id: participants.id,
        studyId: participants.studyId,
        status: wearableConnections.status,
        grantedScopes: wearableConnections.grantedScopes,
      })
      .from(participants)
      .leftJoin(wearableConnections, eq(wearableConnections.participantId, participants.id))
      .where(and(inArray(participants.id, ids), isNull(participants.deletedAt)));
    const byId = new Map(found.map((p) => [p.id, p]));
    for (const id of ids) {
      const p = byId.get(id);
      if (!p || p.studyId !== input.studyId) {
        throw new AppError(404, 'PARTICIPANT_NOT_FOUND', 'Participant not found');
      }
      if (p.status !== 'active') {
        throw new AppError(
          400,
          'NOT_SELECTABLE',
          EXTRACTION_SERVER_MESSAGES.participantNotSelectable,
        );
      }
    }
    const dateRange = {
      startDate: input.dateRange.startDate,
      endDate: input.dateRange.endDate,
      mode:
        input.dateRange.mode ??
        (input.dateRange.startDate === input.dateRange.endDate ? 'single' : 'range'),
    } as const;
    const plan = planExtraction({
      participants: ids.map((id) => ({ id, grantedScopes: byId.get(id)?.grantedScopes ?? [] })),
      dataTypes: input.dataTypes,
      dateRange,
    });
    const created = await db.transaction(async (tx) => {
      const [run] = await tx
        .insert(extractionRuns)
        .values({
          studyId: input.studyId,
          name: input.name,
          createdBy: input.actorId,
          params: { dataTypes: input.dataTypes, dateRange, participantIds: ids },
          callsPlanned: plan.callsPlanned,
        })
        .returning();
      if (!run) throw new Error('run not inserted');
      const jobs = await tx
        .insert(extractionJobs)
        .values(
          ids.map((participantId) => ({
            runId: run.id,
            studyId: input.studyId,
            participantId,
            callsPlanned: plan.callsByParticipant.get(participantId) ?? 0,
          })),
        )
        .returning();
      const jobOf = new Map(jobs.map((j) => [j.participantId, j.id]));
      if (plan.tasks.length > 0) {
        await tx.insert(extractionTasks).values(
          plan.tasks.map((t) => ({
            jobId: jobOf.get(t.participantId) ?? '',
            runId: run.id,
            seq: t.seq,
            dataType: t.dataType,
            windowStart: t.windowStart,
            windowEnd: t.windowEnd,
            status: t.status,
            skipReason: t.skipReason,
            callsPlanned: t.callsPlanned,
          })),
        );
      }
      await recordAudit(tx, {
        actorId: input.actorId,
        action: 'extraction.started',
        targetType: 'study',
        targetId: input.studyId,
        details: {
          kind: 'data_access',
          runId: run.id,
          name: input.name,
          participantIds: ids,
          dataTypes: input.dataTypes,
          dateRange,
        },
        ...(input.ip ? { ip: input.ip } : {}),
      });
      return { run, jobs };
    });
    for (const job of created.jobs) {
      await deps.jobs().send(participantJob, { jobId: job.id });
    }
    return {
      runId: created.run.id,
      bucket: bucketOf(input.studyId),
      prefix: `extractions/${created.run.id}/`,
      callsPlanned: plan.callsPlanned,
      jobs: await listJobs(input.studyId, { runId: created.run.id }),
    };
  }

  /** Jobs of the newest runs (or of one run), newest first, as the panel shows them. */
  async function listJobs(
    studyId: string,
    options: { runId?: string; runLimit?: number } = {},
  ): Promise<ExtractionJob[]> {
    const runs = options.runId
      ? await db
          .select()
          .from(extractionRuns)
          .where(and(eq(extractionRuns.id, options.runId), eq(extractionRuns.studyId, studyId)))
      : await db
          .select()
          .from(extractionRuns)
          .where(eq(extractionRuns.studyId, studyId))
          .orderBy(desc(extractionRuns.createdAt))
          .limit(options.runLimit ?? EXTRACTION_RUN_LIST_LIMIT);
    if (runs.length === 0) return [];
    const runOf = new Map(runs.map((r) => [r.id, r]));
    const rows = await db
      .select({
        job: extractionJobs,
        firstName: participants.firstName,
        lastName: participants.lastName,
      })
      .from(extractionJobs)
      .innerJoin(participants, eq(participants.id, extractionJobs.participantId))
      .where(
        inArray(
          extractionJobs.runId,
          runs.map((r) => r.id),
        ),
      )
      .orderBy(desc(extractionJobs.createdAt), asc(extractionJobs.participantId));
    return rows.map(({ job, firstName, lastName }) =>
      toJob(job, runOf.get(job.runId), firstName, lastName),
    );
  }

  function toJob(
    job: JobRow,
    run: typeof extractionRuns.$inferSelect | undefined,
    firstName: string | null,
    lastName: string | null,
  ): ExtractionJob {
    const finished = job.status === 'completed' || job.status === 'failed';
    const progress =
      job.status === 'completed'
        ? 100
        : job.callsPlanned > 0
          ? Math.min(finished ? 100 : 99, Math.floor((job.callsDone / job.callsPlanned) * 100))
          : finished
            ? 100
            : 0;
    return {
      id: job.id,
      runId: job.runId,
      participantId: job.participantId,
      participantName: [firstName, lastName].filter(Boolean).join(' '),
      extractionName: run?.name ?? '',
      dataTypes: (run?.params.dataTypes ?? []) as DataType[],
      dateRange: run?.params.dateRange ?? { startDate: '', endDate: '', mode: 'single' },
      status: job.status,
      progress,
      callsPlanned: job.callsPlanned,
      callsDone: job.callsDone,
      createdAt: job.createdAt.toISOString(),
      completedAt: job.completedAt?.toISOString() ?? null,
      error: job.error,
    };
  }

  async function jobDetail(studyId: string, jobId: string) {
    const [row] = await db
      .select({
        job: extractionJobs,
        run: extractionRuns,
        firstName: participants.firstName,
        lastName: participants.lastName,
      })
      .from(extractionJobs)
      .innerJoin(extractionRuns, eq(extractionRuns.id, extractionJobs.runId))
      .innerJoin(participants, eq(participants.id, extractionJobs.participantId))
      .where(and(eq(extractionJobs.id, jobId), eq(extractionJobs.studyId, studyId)));
    if (!row) throw new AppError(404, 'NOT_FOUND', EXTRACTION_SERVER_MESSAGES.runNotFound);
    const tasks = await db
      .select()
      .from(extractionTasks)
      .where(eq(extractionTasks.jobId, jobId))
      .orderBy(asc(extractionTasks.seq));
    return {
      job: toJob(row.job, row.run, row.firstName, row.lastName),
      tasks: tasks.map(
        (t): ExtractionTask => ({
          dataType: t.dataType as DataType,
          windowStart: t.windowStart,
          windowEnd: t.windowEnd,
          status: t.status,
          callsPlanned: t.callsPlanned,
          callsDone: t.callsDone,
          rows: t.rows,
          attempts: t.attempts,
          files: t.outputKeys,
          skipReason: t.skipReason,
          error: t.error,
        }),
      ),
      runFiles: row.run.files,
    };
  }

  return {
    jobs: [participantJob, finalizeJob],
    participantJob,
    finalizeJob,
    bucketOf,
    start,
    listJobs,
    jobDetail,
    /** For tests and the benchmark: run a job's work in this process, as a worker would. */
    processJob,
    finalize,
  };
}

function errorText(error: unknown): string {
  if (error instanceof GoogleHealthError)
    return `Google Health API: ${error.status} ${error.reason}`;
  if (error instanceof AppError) return error.message;
  return 'Network error or request failed';
}

export type ExtractionEngine = ReturnType<typeof createExtractionEngine>;
