import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  bucketNameForStudy,
  type DataType,
  EXTRACTION_RUN_LIST_LIMIT,
  EXTRACTION_SERVER_MESSAGES,
  EXTRACTION_STALLED_REASON,
  type ExtractionDateRange,
  type ExtractionJob,
  type ExtractionTask,
  scopeLabel,
} from '@research/contracts';
import { and, asc, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { JobWithMetadata, SendOptions } from 'pg-boss';
import type { AppConfig } from '../../config.js';
import { databaseUnavailability } from '../../db/availability.js';
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
import { defineJob, type JobDefinition, type JobQueue } from '../../platform/jobs.js';
import { ObjectNotFoundError, type ObjectStore } from '../../platform/object-store/types.js';
import { recordAudit } from '../audit/audit.service.js';
import type { WearablesService } from '../wearables/wearables.service.js';
import { toCsv } from './csv.js';
import { callsFor, missingScopes, type PlannedCall, planExtraction } from './plan.js';
import { createDbQuota, type DbQuota } from './quota.js';
import { TaskPart } from './task-part.js';
import { type CallPages, COLUMNS, DICTIONARY_COLUMNS, dictionaryRows, tidyRows } from './tidy.js';

/**
 * The extraction engine: a start writes one run, one job per participant and the
 * planned tasks, then queues one pg-boss job per participant. A job works through its tasks in
 * order, persisting each; a crash or restart resumes at the first unfinished task, and a task run
 * twice writes the same objects (deterministic keys) and the same row. The last job to finish
 * finalises the run (queued for a worker only if that fails): one CSV per type, a data dictionary
 * and `manifest.json`.
 *
 * pg-boss hands a job out again when it outlives its expiry, while the first copy may still be
 * working. So a copy works only while it holds the job's lease: taking it increments the job's
 * lease generation (one UPDATE, only when no live lease is held), a timer renews it, and every
 * write of the copy is conditioned on its generation; a copy that finds the lease held by
 * another does nothing. A holder that stops renewing (its process died) is noticed by the run's
 * watch job, which hands the job on once the lease has lapsed, long before pg-boss's expiry.
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
  /** How long a job's lease lasts unless renewed, and how often its holder renews it. */
  lease?: { seconds: number; renewSeconds: number };
}

/**
 * A minute: a holder that has not renewed for that long is taken as dead; renewed every 15 s, so
 * a slow database answer or two does not lose it.
 */
const DEFAULT_LEASE = { seconds: 60, renewSeconds: 15 };

/** Raised by a write of a copy whose lease passed to another copy: that copy stops quietly. */
export class LeaseLost extends Error {
  constructor() {
    super('The job is held by another worker');
    this.name = 'LeaseLost';
  }
}

/** A copy's hold on a job: its generation, and until when it may still write (its own clock). */
interface Lease {
  jobId: string;
  generation: number;
  validUntil: number;
  lost: boolean;
  timer?: NodeJS.Timeout;
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

/** The list filter of a call: civil bounds, end-based for sleep. */
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

/**
 * A task's tidy rows (CSV, no header) until finalisation joins them into its type's file. The
 * lease generation is part of the key: a copy that lost its lease can never overwrite the part
 * the task row names.
 */
const partKey = (runId: string, taskId: string, generation: number) =>
  `extractions/${runId}/parts/${taskId}.g${generation}.csv`;
const partsPrefix = (runId: string) => `extractions/${runId}/parts/`;

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
  const leaseTiming = deps.lease ?? DEFAULT_LEASE;
  /** Holders of this engine, so a test can stop them as a killed process would. */
  const held = new Set<Lease>();

  // ---- the job's lease ----------------------------------------------------------------------

  const rowsOf = (result: unknown) => (result as { rows: unknown[] }).rows;
  /** A copy's own view of its lease ends a little before the database's (clocks, slow answers). */
  const localValidity = (sentAt: number) =>
    sentAt + leaseTiming.seconds * 1000 - Math.min(5_000, (leaseTiming.seconds * 1000) / 4);
  const leaseInterval = sql`${leaseTiming.seconds} * interval '1 second'`;

  /**
   * Takes the job's lease when no live one is held: the generation goes up by one, in the same
   * statement that finds the lease free, so two copies can never both take it.
   */
  async function takeLease(jobId: string): Promise<{ lease: Lease; job: JobRow } | null> {
    const sentAt = Date.now();
    const j = extractionJobs;
    const [job] = await db
      .update(j)
      .set({
        leaseGeneration: sql`${j.leaseGeneration} + 1`,
        leaseExpiresAt: sql`now() + ${leaseInterval}`,
        status: 'running',
        startedAt: sql`coalesce(${j.startedAt}, now())`,
      })
      .where(
        and(
          eq(j.id, jobId),
          inArray(j.status, ['pending', 'running']),
          sql`(${j.leaseExpiresAt} is null or ${j.leaseExpiresAt} < now())`,
        ),
      )
      .returning();
    if (!job) return null;
    const lease: Lease = {
      jobId,
      generation: job.leaseGeneration,
      validUntil: localValidity(sentAt),
      lost: false,
    };
    lease.timer = setInterval(() => void renewLease(lease), leaseTiming.renewSeconds * 1000);
    lease.timer.unref();
    held.add(lease);
    return { lease, job };
  }

  async function renewLease(lease: Lease) {
    if (lease.lost) return;
    const sentAt = Date.now();
    try {
      const renewed = await db
        .update(extractionJobs)
        .set({ leaseExpiresAt: sql`now() + ${leaseInterval}` })
        .where(
          and(
            eq(extractionJobs.id, lease.jobId),
            eq(extractionJobs.leaseGeneration, lease.generation),
            eq(extractionJobs.status, 'running'),
          ),
        )
        .returning({ id: extractionJobs.id });
      if (renewed.length === 0) lease.lost = true;
      else lease.validUntil = localValidity(sentAt);
    } catch {
      // A failed renewal is retried at the next tick; meanwhile the lease runs out by itself.
    }
  }

  function dropLease(lease: Lease) {
    clearInterval(lease.timer);
    held.delete(lease);
  }

  /** Throws LeaseLost unless this copy may still write (before an object write, which the database cannot condition). */
  function fence(lease: Lease) {
    if (lease.lost || Date.now() > lease.validUntil) {
      lease.lost = true;
      throw new LeaseLost();
    }
  }

  /** A task write's condition: the job's lease is still this copy's. */
  const holds = (lease: Lease): SQL =>
    sql`exists (select 1 from ${extractionJobs} where ${extractionJobs.id} = ${lease.jobId} and ${extractionJobs.leaseGeneration} = ${lease.generation})`;

  /** Checks a conditioned write's returned rows: none means the lease has passed on. */
  function wrote(lease: Lease, rows: unknown[]) {
    if (rows.length === 0) {
      lease.lost = true;
      throw new LeaseLost();
    }
  }

  // ---- progress bookkeeping -----------------------------------------------------------------

  /**
   * Job totals are sums over its tasks. While a job runs they move by the same amounts as its
   * tasks' counts (`moveJobTotals`, one statement with the task's own update); at its end they are
   * summed again, so nothing a re-run or a dead worker left behind can stay counted twice.
   */
  async function syncJobTotals(lease: Lease) {
    const { jobId } = lease;
    const rows = await db
      .update(extractionJobs)
      .set({
        callsDone: sql`(select coalesce(sum(${extractionTasks.callsDone}), 0) from ${extractionTasks} where ${extractionTasks.jobId} = ${jobId})`,
        callsPlanned: sql`(select coalesce(sum(${extractionTasks.callsPlanned}), 0) from ${extractionTasks} where ${extractionTasks.jobId} = ${jobId})`,
      })
      .where(
        and(eq(extractionJobs.id, jobId), eq(extractionJobs.leaseGeneration, lease.generation)),
      )
      .returning({ id: extractionJobs.id });
    wrote(lease, rows);
  }

  /** A page's progress: the task's counts and its job's totals (by the difference) at once. */
  async function recordPage(
    lease: Lease,
    taskId: string,
    counts: { done: number; planned: number },
    delta: { done: number; planned: number },
  ) {
    const t = extractionTasks;
    const j = extractionJobs;
    const result = await db.execute(sql`
      with task as (
        update ${t} set calls_done = ${counts.done}, calls_planned = ${counts.planned},
          updated_at = now()
        where ${t.id} = ${taskId} and ${holds(lease)}
        returning 1
      )
      update ${j} set calls_done = ${j.callsDone} + ${delta.done},
        calls_planned = ${j.callsPlanned} + ${delta.planned}
      where ${j.id} = ${lease.jobId} and ${j.leaseGeneration} = ${lease.generation}
        and exists (select 1 from task)
      returning 1`);
    wrote(lease, rowsOf(result));
  }

  /** Moves a job's totals by a task's change in counts (when a task restarts or completes). */
  async function moveJobTotals(lease: Lease, delta: { done: number; planned: number }) {
    if (delta.done === 0 && delta.planned === 0) return;
    const rows = await db
      .update(extractionJobs)
      .set({
        callsDone: sql`${extractionJobs.callsDone} + ${delta.done}`,
        callsPlanned: sql`${extractionJobs.callsPlanned} + ${delta.planned}`,
      })
      .where(
        and(
          eq(extractionJobs.id, lease.jobId),
          eq(extractionJobs.leaseGeneration, lease.generation),
        ),
      )
      .returning({ id: extractionJobs.id });
    wrote(lease, rows);
  }

  // ---- one task ------------------------------------------------------------------------------

  type TaskRow = typeof extractionTasks.$inferSelect;
  type JobRow = typeof extractionJobs.$inferSelect;

  async function runTask(
    lease: Lease,
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
    wrote(
      lease,
      await db
        .update(extractionTasks)
        .set({
          status: 'running',
          attempts: sql`${extractionTasks.attempts} + 1`,
          callsDone: 0,
          error: null,
          updatedAt: new Date(),
        })
        .where(and(eq(extractionTasks.id, task.id), holds(lease)))
        .returning({ id: extractionTasks.id }),
    );
    // A task run again (after a crash or a retry) starts its count afresh.
    await moveJobTotals(lease, { done: -task.callsDone, planned: 0 });

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
        fence(lease);
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
        await recordPage(lease, task.id, { done, planned }, { done: 1, planned: planned - before });
      } while (pageToken);
    }
    // Tidied now, while the pages are at hand: finalisation only joins the parts.
    const { csv, rows } = await part.finish(() => storedPages(bucket, requests));
    const key = partKey(task.runId, task.id, lease.generation);
    fence(lease);
    await objectStore.putObject(bucket, key, csv, { contentType: 'text/csv; charset=utf-8' });
    const completed = await db
      .update(extractionTasks)
      .set({
        status: 'completed',
        callsDone: done,
        // A type that needed fewer pages than estimated is done: planned follows what was needed.
        callsPlanned: done,
        rows,
        outputKeys: requests.map((r) => r.object),
        requests,
        partKey: key,
        updatedAt: new Date(),
      })
      .where(and(eq(extractionTasks.id, task.id), holds(lease)))
      .returning({ id: extractionTasks.id });
    if (completed.length === 0) {
      // Not this copy's task any more: its part is nobody's.
      await objectStore.deleteObject(bucket, key).catch(() => {});
      wrote(lease, completed);
    }
    await moveJobTotals(lease, { done: 0, planned: done - planned });
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

  /** Ends the job as failed with its open tasks, if this copy still holds it. */
  async function failJob(lease: Lease, message: string) {
    await db
      .update(extractionTasks)
      .set({ status: 'failed', error: message, updatedAt: new Date() })
      .where(
        and(
          eq(extractionTasks.jobId, lease.jobId),
          inArray(extractionTasks.status, ['pending', 'running']),
          holds(lease),
        ),
      );
    wrote(
      lease,
      await db
        .update(extractionJobs)
        .set({ status: 'failed', error: message, completedAt: new Date(), leaseExpiresAt: null })
        .where(
          and(
            eq(extractionJobs.id, lease.jobId),
            eq(extractionJobs.leaseGeneration, lease.generation),
          ),
        )
        .returning({ id: extractionJobs.id }),
    );
  }

  /**
   * One copy of a participant's job: it works only if it takes the job's lease. A copy that finds
   * the lease held (pg-boss handed the job out again while the first copy works) leaves at once:
   * the holder ends the job, or the run's watch job hands it on if the holder dies.
   */
  async function processJob(jobId: string, finalAttempt: boolean) {
    const taken = await takeLease(jobId);
    if (!taken) {
      const [row] = await db
        .select({ runId: extractionJobs.runId, status: extractionJobs.status })
        .from(extractionJobs)
        .where(eq(extractionJobs.id, jobId));
      // Done before, but the worker may have died while writing the run's files.
      if (row?.status === 'completed' || row?.status === 'failed') await maybeFinalize(row.runId);
      return;
    }
    const { lease, job } = taken;
    try {
      await workJob(lease, job, finalAttempt);
    } catch (error) {
      if (error instanceof LeaseLost || lease.lost) return;
      // An outage is retried like an early attempt, even on the last (the queue sends it again).
      if (!finalAttempt || databaseUnavailability(error)) {
        // Free for pg-boss's retry at once, rather than when the lease would have run out. While
        // the database is away that waits for it (up to the lease's own end): otherwise the retry
        // finds the lease still held and only the run's watch would hand the job on, a minute on.
        for (let attempt = 0; ; attempt++) {
          try {
            await db
              .update(extractionJobs)
              .set({ leaseExpiresAt: null })
              .where(
                and(
                  eq(extractionJobs.id, jobId),
                  eq(extractionJobs.leaseGeneration, lease.generation),
                ),
              );
            break;
          } catch (freeing) {
            if (!databaseUnavailability(freeing) || Date.now() > lease.validUntil) throw error;
            await new Promise((r) => setTimeout(r, Math.min(500 * 2 ** attempt, 5_000)));
          }
        }
        throw error;
      }
      // Out of retries on an unexpected failure: report it, so the run can still finish.
      try {
        await failJob(lease, errorText(error));
      } catch (failure) {
        if (failure instanceof LeaseLost) return;
        throw failure;
      }
    } finally {
      dropLease(lease);
    }
    await maybeFinalize(job.runId);
  }

  async function workJob(lease: Lease, job: JobRow, finalAttempt: boolean) {
    const jobId = job.id;
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
      const setTask = async (task: TaskRow, status: 'pending' | 'failed', message: string) =>
        wrote(
          lease,
          await db
            .update(extractionTasks)
            .set({ status, error: message, updatedAt: new Date() })
            .where(and(eq(extractionTasks.id, task.id), holds(lease)))
            .returning({ id: extractionTasks.id }),
        );
      const oneTask = async (task: TaskRow) => {
        const missing = missingScopes(task.dataType as DataType, connection.grantedScopes);
        if (missing.length > 0) {
          await skipTask(lease, task, `Scope not granted: ${missing.map(scopeLabel).join(', ')}`);
          return;
        }
        try {
          await runTask(lease, job, task, connection, bucket);
        } catch (error) {
          if (error instanceof LeaseLost) throw error;
          if (error instanceof AppError && error.code === 'NEEDS_REAUTHORIZATION') {
            throw new JobFatal(EXTRACTION_SERVER_MESSAGES.needsReauthorization);
          }
          if (error instanceof AppError && error.code === 'NOT_CONNECTED') {
            throw new JobFatal(EXTRACTION_SERVER_MESSAGES.notConnected);
          }
          if (error instanceof GoogleHealthError && error.kind === 'permission_denied') {
            await skipTask(lease, task, 'Scope not granted (refused by Google)');
            return;
          }
          const message = errorText(error);
          // A database out of reach is no fault of the task: retried, never failed for it.
          if (!finalAttempt || databaseUnavailability(error)) {
            await setTask(task, 'pending', message);
            throw error;
          }
          await setTask(task, 'failed', message);
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
            // A fatal error or a lost lease wins over whatever another lane met.
            if (!failure || error instanceof JobFatal || error instanceof LeaseLost)
              failure = { error };
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
      await syncJobTotals(lease);
      wrote(
        lease,
        await db
          .update(extractionJobs)
          .set({
            status: failed.length > 0 ? 'failed' : 'completed',
            error:
              failed.length > 0
                ? `${failed.length} part(s) failed: ${[...new Set(failed.map((f) => `${f.dataType}: ${f.error}`))].join('; ')}`
                : null,
            completedAt: new Date(),
            leaseExpiresAt: null,
          })
          .where(
            and(eq(extractionJobs.id, jobId), eq(extractionJobs.leaseGeneration, lease.generation)),
          )
          .returning({ id: extractionJobs.id }),
      );
    } catch (error) {
      if (!(error instanceof JobFatal)) throw error;
      await failJob(lease, error.message);
    }
  }

  /** Skips a task; its job's totals lose whatever the task had counted, in the same statement. */
  async function skipTask(lease: Lease, task: TaskRow, reason: string) {
    const t = extractionTasks;
    const j = extractionJobs;
    const result = await db.execute(sql`
      with before as (
        select ${t.callsDone} as done, ${t.callsPlanned} as planned from ${t} where ${t.id} = ${task.id}
      ), skipped as (
        update ${t} set status = 'skipped', skip_reason = ${reason}, calls_planned = 0,
          calls_done = 0
        where ${t.id} = ${task.id} and ${holds(lease)}
        returning 1
      )
      update ${j} set calls_done = ${j.callsDone} - (select done from before),
        calls_planned = ${j.callsPlanned} - (select planned from before)
      where ${j.id} = ${task.jobId} and ${j.leaseGeneration} = ${lease.generation}
        and exists (select 1 from skipped)
      returning 1`);
    wrote(lease, rowsOf(result));
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

  const openJobs = (runId: string) =>
    db
      .select({ id: extractionJobs.id })
      .from(extractionJobs)
      .where(
        and(
          eq(extractionJobs.runId, runId),
          inArray(extractionJobs.status, ['pending', 'running']),
        ),
      )
      .limit(1);

  async function maybeFinalize(runId: string) {
    if ((await openJobs(runId)).length > 0) return;
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

  /**
   * The run's watch: hands on every job whose lease lapsed (its worker stopped renewing it),
   * writes the run's files if every job ended but nobody wrote them, and looks again just after
   * the next lease would lapse, until the run has ended.
   */
  async function watchRun(runId: string) {
    const [run] = await db
      .select({ status: extractionRuns.status })
      .from(extractionRuns)
      .where(eq(extractionRuns.id, runId));
    if (run?.status !== 'running') return;
    const j = extractionJobs;
    const jobs = await db
      .select({
        id: j.id,
        status: j.status,
        lapsed: sql<boolean>`${j.leaseExpiresAt} < now()`,
        secondsLeft: sql<number | null>`extract(epoch from ${j.leaseExpiresAt} - now())::float8`,
      })
      .from(j)
      .where(eq(j.runId, runId));
    for (const job of jobs) {
      if (job.status === 'running' && job.lapsed) await handOn(job.id);
    }
    if (jobs.every((job) => job.status === 'completed' || job.status === 'failed')) {
      await maybeFinalize(runId);
    }
    const live = jobs
      .map((job) => (job.secondsLeft === null ? null : Number(job.secondsLeft)))
      .filter((left): left is number => left !== null && left > 0);
    const next = Math.ceil(Math.min(leaseTiming.seconds, ...live)) + 1;
    await sendQuietly(watchJob, { runId }, { startAfter: next });
  }

  /** The job again, for any worker: its lease lapsed, so the first copy to take it goes on. */
  async function handOn(jobId: string) {
    await sendQuietly(
      participantJob,
      { jobId },
      { singletonKey: `extraction-hand-on:${jobId}`, singletonSeconds: leaseTiming.seconds },
    );
  }

  /** A send that pg-boss may refuse as a duplicate of one already queued (singleton). */
  async function sendQuietly<T extends object>(
    definition: JobDefinition<T>,
    data: T,
    options: SendOptions,
  ) {
    try {
      await deps.jobs().send(definition, data, options);
    } catch (error) {
      if (!(error instanceof Error && error.message.includes('was not queued'))) throw error;
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
    if (task.partKey) {
      try {
        const { body } = await objectStore.getObject(bucket, task.partKey);
        yield* body as AsyncIterable<Buffer>;
        return;
      } catch (error) {
        if (!(error instanceof ObjectNotFoundError)) throw error;
      }
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

  /**
   * Writes the run's files once: only when every job has ended (no copy holds a lease any more,
   * so no task can still write), and only by the worker that claims the run.
   */
  async function finalize(runId: string) {
    if ((await openJobs(runId)).length > 0) return;
    const r = extractionRuns;
    const [run] = await db
      .update(r)
      .set({ finalizingUntil: sql`now() + interval '10 minutes'` })
      .where(
        and(
          eq(r.id, runId),
          eq(r.status, 'running'),
          sql`(${r.finalizingUntil} is null or ${r.finalizingUntil} < now())`,
        ),
      )
      .returning();
    if (!run) return;
    try {
      await writeRunFiles(run);
    } catch (error) {
      // Claimed no longer: the queued finalisation (or the watch) tries again.
      await db.update(r).set({ finalizingUntil: null }).where(eq(r.id, runId));
      throw error;
    }
  }

  async function writeRunFiles(run: typeof extractionRuns.$inferSelect) {
    const runId = run.id;
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
    // The bucket holds exactly what the manifest lists: the pages of a task that failed for good
    // (its rows are in no CSV, and nothing vouches for a part-fetched window) and the pages of an
    // earlier attempt that fetched more of them go; the parts go once the manifest is written.
    const listed = new Set([...manifest.files.map((f) => f.key), manifestKey]);
    await removeUnlisted(
      bucket,
      `${prefix}/`,
      (key) => !listed.has(key) && !key.startsWith(partsPrefix(runId)),
    );
    await objectStore.putObject(bucket, manifestKey, `${JSON.stringify(manifest, null, 2)}\n`, {
      contentType: 'application/json',
    });
    await removeUnlisted(bucket, partsPrefix(runId), () => true);
    const allFailed = jobs.length > 0 && jobs.every((j) => j.status === 'failed');
    await db
      .update(extractionRuns)
      .set({
        status: allFailed ? 'failed' : 'completed',
        files: [...files.map((f) => f.key), manifestKey],
        completedAt: new Date(),
        finalizingUntil: null,
      })
      .where(eq(extractionRuns.id, runId));
    await quota.prune();
  }

  /** Deletes the objects under `prefix` that `remove` picks. */
  async function removeUnlisted(bucket: string, prefix: string, remove: (key: string) => boolean) {
    const doomed: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await objectStore.listObjects(bucket, { prefix, cursor });
      for (const object of page.objects) if (remove(object.key)) doomed.push(object.key);
      cursor = page.nextCursor;
    } while (cursor);
    for (const key of doomed) await objectStore.deleteObject(bucket, key);
  }

  // ---- pg-boss jobs ------------------------------------------------------------------------------

  const participantJob = defineJob<{ jobId: string }>({
    name: 'extraction-participant',
    retryLimit: deps.retry.limit,
    retryDelaySeconds: deps.retry.delaySeconds,
    // pg-boss hands a job out again after this long even while its first copy works; the lease
    // makes such a copy leave at once, and the run's watch hands on a dead worker's job sooner.
    expireInSeconds: config.extraction.jobExpireSeconds,
    concurrency: config.extraction.concurrency,
    handler: async (job) =>
      processJob(job.data.jobId, deps.jobs().isFinalAttempt(job as JobWithMetadata<object>)),
  });

  const watchJob = defineJob<{ runId: string }>({
    name: 'extraction-watch',
    retryLimit: deps.retry.limit,
    retryDelaySeconds: deps.retry.delaySeconds,
    expireInSeconds: 5 * 60,
    concurrency: 1,
    handler: async (job) => watchRun(job.data.runId),
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
    await deps
      .jobs()
      .send(watchJob, { runId: created.run.id }, { startAfter: leaseTiming.seconds });
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
    // Its worker stopped renewing the lease: the watch hands the job to another worker.
    const stalled =
      job.status === 'running' && job.leaseExpiresAt !== null && job.leaseExpiresAt < new Date();
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
      status: stalled ? 'stalled' : job.status,
      progress,
      callsPlanned: job.callsPlanned,
      callsDone: job.callsDone,
      createdAt: job.createdAt.toISOString(),
      completedAt: job.completedAt?.toISOString() ?? null,
      error: stalled ? EXTRACTION_STALLED_REASON : job.error,
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
    jobs: [participantJob, finalizeJob, watchJob],
    participantJob,
    finalizeJob,
    watchJob,
    bucketOf,
    start,
    listJobs,
    jobDetail,
    /** For tests and the benchmark: run a job's work in this process, as a worker would. */
    processJob,
    finalize,
    /** For tests: what a killed process stops doing (renewing its leases). */
    halt() {
      for (const lease of held) dropLease(lease);
    },
  };
}

function errorText(error: unknown): string {
  if (error instanceof GoogleHealthError)
    return `Google Health API: ${error.status} ${error.reason}`;
  if (error instanceof AppError) return error.message;
  return 'Network error or request failed';
}

export type ExtractionEngine = ReturnType<typeof createExtractionEngine>;
