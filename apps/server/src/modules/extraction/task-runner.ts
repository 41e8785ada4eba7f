import { createHash } from 'node:crypto';
import type { DataType } from '@research/contracts';
import type { AppConfig } from '../../config.js';
import {
  type GoogleHealthClientOptions,
  GoogleHealthError,
} from '../../platform/google-health/index.js';
import type { ObjectStore } from '../../platform/object-store/types.js';
import type { WearablesService } from '../wearables/index.js';
import { type DatasetReader, plannedPages, type TaskStep, taskSteps } from './dataset-days.js';
import { fence, type Lease, wrote } from './lease.js';
import { callsFor, type PlannedCall, zoneCalls } from './plan.js';
import type { Progress } from './progress.js';
import { createProviderCall, type Exchange, type PageReader } from './provider-call.js';
import type { DbQuota } from './quota.js';
import {
  type DatasetRecord,
  type JobRow,
  partKey,
  type RequestRecord,
  rawKey,
  type TaskRow,
} from './records.js';
import type { StoredPages } from './stored-pages.js';
import { TaskPart } from './task-part.js';
import { zoneOfCalls } from './tidy-readers.js';

/**
 * One task: its calls page by page, each page stored as received and added to the task's part at
 * once, its progress counted as it goes; at the end the part (its tidy rows) is written and the
 * task completed with the exact requests it made. Days the study's dataset holds settled are read
 * from it instead (dataset-days.ts): their pages are copied into the run's folder, and only the
 * days left are asked for.
 */

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

export interface TaskRunnerDeps {
  config: AppConfig;
  objectStore: ObjectStore;
  quota: DbQuota;
  progress: Progress;
  storedPages: StoredPages;
  wearables: WearablesService;
  fetch: typeof fetch;
  clientOptions?: Omit<GoogleHealthClientOptions, 'fetch'> | undefined;
  /** The study's dataset; without it every page is asked for. */
  dataset?: DatasetReader | undefined;
}

export interface Connection {
  healthUserId: string;
  grantedScopes: string[];
}

export function createTaskRunner(deps: TaskRunnerDeps) {
  const { objectStore, progress } = deps;

  /**
   * The participant's access token, read when the first page is asked for (a task the dataset
   * answers whole needs none), and one forced refresh when it died mid-task.
   */
  function tokenKeeper(participantId: string) {
    const { wearables } = deps;
    let token: string | undefined;
    return {
      current: async () => {
        token ??= await wearables.accessToken(participantId);
        return token;
      },
      async renew() {
        // Forced refresh; a dead grant (invalid_grant) is marked for reauthorization there.
        await wearables.refresh(participantId);
        token = await wearables.accessToken(participantId);
      },
    };
  }

  /** `signal` aborts when the job has failed for good: the task stops before its next call. */
  async function runTask(
    lease: Lease,
    job: JobRow,
    task: TaskRow,
    connection: Connection,
    bucket: string,
    signal?: AbortSignal,
  ) {
    const tokens = tokenKeeper(job.participantId);
    const exchange = createProviderCall({
      endpoints: deps.config.googleHealth,
      clientOptions: deps.clientOptions,
      fetch: deps.fetch,
      beforeEach: () => deps.quota.acquire(connection.healthUserId, signal).then(() => {}),
    });
    /** A page; an access token that died mid-task (an hour is long) is refreshed once, and the page asked again. */
    const fetchPage = async (
      call: PlannedCall,
      pageToken: string | null,
      reader: PageReader | null,
    ) => {
      try {
        return await exchange(await tokens.current(), call, pageToken, reader);
      } catch (error) {
        if (!(error instanceof GoogleHealthError && error.kind === 'unauthenticated')) throw error;
        await tokens.renew();
        return exchange(await tokens.current(), call, pageToken, reader);
      }
    };
    const dataType = task.dataType as DataType;
    const calls = callsFor(dataType, task.windowStart, task.windowEnd, connection.grantedScopes);
    const days = deps.dataset
      ? await deps.dataset.settledDays({
          studyId: job.studyId,
          participantId: job.participantId,
          dataType,
          from: task.windowStart,
          to: task.windowEnd,
        })
      : [];
    await progress.startTask(lease, task);

    const requests: RequestRecord[] = [];
    const counts = { done: 0, planned: task.callsPlanned };
    // 60-second roll-ups are cut at the participant's local midnights: their zone first (their
    // Google settings; UTC without the settings scope, as the dataset's days are then).
    let timeZone = 'UTC';
    for (const call of zoneCalls(dataType, connection.grantedScopes)) {
      signal?.throwIfAborted();
      const { body, ...sent } = await fetchPage(call, null, null);
      timeZone = zoneOfCalls([{ key: call.spec.key, pages: [body] }]);
      const key = rawKey(task.runId, job.participantId, dataType, call.spec.key, call.from, 0);
      requests.push(await storePage(lease, bucket, key, call.spec.key, sent));
      await countPage(lease, task.id, counts, false);
    }
    const steps = taskSteps(calls, days, timeZone);
    const window = { start: task.windowStart, end: task.windowEnd };
    const part = new TaskPart(dataType, job.participantId, window, timeZone);
    // Pages read from the dataset are no calls: the plan keeps only those still to be asked for.
    const planned = counts.done + plannedPages(steps);
    if (planned !== counts.planned) {
      await progress.recordPage(
        lease,
        task.id,
        { done: counts.done, planned },
        {
          done: 0,
          planned: planned - counts.planned,
        },
      );
      counts.planned = planned;
    }
    for (const step of steps) {
      if (step.kind === 'stored') {
        for (const record of await readStoredDay(lease, bucket, job, task, step, part, signal)) {
          requests.push(record);
        }
        continue;
      }
      const { call } = step;
      const reader = part.decoder(call.spec.key);
      let pageToken: string | null = null;
      let page = 0;
      do {
        signal?.throwIfAborted();
        const { body, ...sent } = await fetchPage({ ...call, timeZone }, pageToken, reader);
        // Into the part at once, before anything is awaited: a parsed page of 10,000 points dies
        // young instead of waiting, with those of every other task in flight, to be promoted.
        part.add(call.spec.key, body);
        pageToken = (body as { nextPageToken?: string }).nextPageToken || null;
        const key = rawKey(task.runId, job.participantId, dataType, call.spec.key, call.from, page);
        requests.push(await storePage(lease, bucket, key, call.spec.key, sent));
        page += 1;
        await countPage(lease, task.id, counts, pageToken !== null);
      } while (pageToken);
    }
    await completeTask(lease, task, bucket, part, requests, counts);
  }

  /**
   * A stored day's pages of one call, as the dataset keeps them: each added to the part (through
   * the call's fast reader, as a fetched page would be) and copied into the run's folder under the
   * name a one-day call of that day would give it, since a later write of the partition may
   * replace the dataset's copy.
   */
  async function readStoredDay(
    lease: Lease,
    bucket: string,
    job: JobRow,
    task: TaskRow,
    step: Extract<TaskStep, { kind: 'stored' }>,
    part: TaskPart,
    signal?: AbortSignal,
  ): Promise<DatasetRecord[]> {
    const { call, day } = step;
    const callKey = call.spec.key;
    const reader = part.decoder(callKey);
    const records: DatasetRecord[] = [];
    for (const [n, page] of step.pages.entries()) {
      signal?.throwIfAborted();
      const bytes = await (deps.dataset as DatasetReader).readPage(job.studyId, page);
      const read = reader ? reader(bytes) : null;
      part.add(callKey, read ?? (bytes.length > 0 ? JSON.parse(bytes.toString('utf8')) : {}));
      const key = rawKey(task.runId, job.participantId, task.dataType, callKey, call.from, n);
      fence(lease);
      await objectStore.putObject(bucket, key, bytes, { contentType: 'application/json' });
      records.push({
        source: 'dataset',
        callKey,
        partition: {
          type: task.dataType,
          date: day.date,
          timeZone: day.timeZone,
          state: day.state,
          version: day.version,
          object: page.key,
        },
        fetchedAt: day.fetchedAt.toISOString(),
        object: key,
        bytes: bytes.length,
        sha256: page.sha256,
        ...(reader && read === null ? { readAsJson: true as const } : {}),
      });
    }
    return records;
  }

  /** Stores a page's bytes as received (the same bytes for the file, its size and its hash). */
  async function storePage(
    lease: Lease,
    bucket: string,
    key: string,
    callKey: string,
    answer: Omit<Exchange, 'body'>,
  ): Promise<RequestRecord> {
    fence(lease);
    await objectStore.putObject(bucket, key, answer.bytes, { contentType: 'application/json' });
    return {
      callKey,
      ...answer.request,
      fetchedAt: new Date().toISOString(),
      object: key,
      bytes: answer.bytes.length,
      sha256: sha256(answer.bytes),
      ...(answer.readAsJson ? { readAsJson: true as const } : {}),
    };
  }

  /** One page more done; the plan grows when a call needs more pages than estimated. */
  async function countPage(
    lease: Lease,
    taskId: string,
    counts: { done: number; planned: number },
    morePages: boolean,
  ) {
    counts.done += 1;
    const before = counts.planned;
    counts.planned = Math.max(counts.planned, counts.done + (morePages ? 1 : 0));
    await progress.recordPage(
      lease,
      taskId,
      { ...counts },
      { done: 1, planned: counts.planned - before },
    );
  }

  /** Tidied now, while the pages are at hand: finalisation only joins the parts. */
  async function completeTask(
    lease: Lease,
    task: TaskRow,
    bucket: string,
    part: TaskPart,
    requests: RequestRecord[],
    counts: { done: number; planned: number },
  ) {
    const { csv, rows } = await part.finish(() => deps.storedPages(bucket, requests));
    const key = partKey(task.runId, task.id, lease.generation);
    fence(lease);
    await objectStore.putObject(bucket, key, csv, { contentType: 'text/csv; charset=utf-8' });
    const done = counts.done;
    if (!(await progress.completeTask(lease, task.id, { done, rows, requests, partKey: key }))) {
      // Not this copy's task any more: its part is nobody's.
      await objectStore.deleteObject(bucket, key).catch(() => {});
      wrote(lease, []);
    }
    await progress.moveJobTotals(lease, { done: 0, planned: done - counts.planned });
  }

  return runTask;
}

export type TaskRunner = ReturnType<typeof createTaskRunner>;
