import { bucketNameForStudy } from '@research/contracts';
import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { GoogleHealthClientOptions } from '../../platform/google-health/index.js';
import type { JobQueue } from '../../platform/jobs.js';
import type { ObjectStore } from '../../platform/object-store/types.js';
import type { WearablesService } from '../wearables/index.js';
import type { DatasetReader } from './dataset-days.js';
import { createEstimate } from './estimate.js';
import { createFinalize } from './finalize.js';
import { createJobDefinitions } from './job-definitions.js';
import { createJobRunner } from './job-runner.js';
import { createLeases, DEFAULT_LEASE } from './lease.js';
import { createProgress } from './progress.js';
import { createDbQuota, type DbQuota } from './quota.js';
import { createReadModels } from './read-models.js';
import { createRunFiles, type ExtractionLog } from './run-files.js';
import { createRunWatch } from './run-watch.js';
import { createStartRun } from './start-run.js';
import { createStoredPages } from './stored-pages.js';
import { createTaskRunner } from './task-runner.js';

/**
 * The extraction engine: a start writes one run, one job per participant and the planned tasks,
 * then queues one pg-boss job per participant. A job works through its tasks, persisting each; a
 * crash or restart resumes at the first unfinished task, and a task run twice writes the same
 * objects (deterministic keys) and the same row. The last job to finish finalises the run (queued
 * for a worker only if that fails): one CSV per type, a data dictionary and `manifest.json`.
 *
 * This file only wires the parts, each in its own file:
 *   start-run.ts        a run's rows and queued jobs (plan.ts decides the calls)
 *   estimate.ts         a selection's calls and time before it is started (plan and quotas)
 *   job-runner.ts       one participant's job: its lease, its tasks side by side, its failures
 *   task-runner.ts      one task: its pages (provider-call.ts: what was sent, what came back),
 *                       or the dataset's settled days (dataset-days.ts)
 *   lease.ts            a job's lease, so a copy pg-boss handed out twice never writes
 *   progress.ts         every task and job state and count the screens show
 *   finalize.ts         when the run's files are written, and by whom
 *   run-files.ts        the CSVs, data dictionary and manifest (manifest.ts)
 *   run-watch.ts        hands on jobs whose worker died
 *   job-definitions.ts  the pg-boss jobs and how they are queued
 *   read-models.ts      what the routes read
 */

export { LeaseLost } from './lease.js';
export { API_VERSION } from './manifest.js';
export { filterOf } from './provider-call.js';
export type { StartInput } from './start-run.js';

export interface ExtractionEngineDeps {
  db: Db;
  config: AppConfig;
  objectStore: ObjectStore;
  wearables: WearablesService;
  jobs: () => JobQueue;
  retry: { limit: number; delaySeconds: number };
  quota?: DbQuota;
  clientOptions?: Omit<GoogleHealthClientOptions, 'fetch'>;
  /** For tests: the fetch the provider calls go through (after the quota). */
  fetch?: typeof fetch;
  /** How long a job's lease lasts unless renewed, and how often its holder renews it. */
  lease?: { seconds: number; renewSeconds: number };
  /** Where a run's end is logged (the app's logger); nowhere when left out. */
  log?: ExtractionLog;
  /**
   * The study's dataset (modules/dataset, wired in app.ts): a run reads the settled days it holds
   * instead of asking Google for them. Without it every page is asked for.
   */
  dataset?: DatasetReader;
}

const silent: ExtractionLog = { info: () => {}, warn: () => {} };

export function createExtractionEngine(deps: ExtractionEngineDeps) {
  const { db, config, objectStore } = deps;
  const quota =
    deps.quota ?? createDbQuota(db, config.extraction, deps.log ? { log: deps.log } : {});
  const leaseTiming = deps.lease ?? DEFAULT_LEASE;
  const bucketOf = (studyId: string) =>
    `${config.storage.driver === 's3' ? config.storage.bucketPrefix : ''}${bucketNameForStudy(studyId)}`;

  // The queue's handlers call parts made below; they run only once the engine exists.
  const queue = createJobDefinitions({
    config,
    jobs: deps.jobs,
    retry: deps.retry,
    leaseSeconds: leaseTiming.seconds,
    handlers: {
      participant: (jobId, finalAttempt) => jobRunner.processJob(jobId, finalAttempt),
      watch: (runId) => watchRun(runId),
      finalize: (runId) => finalization.finalizeOnce(runId),
    },
  });
  const leases = createLeases(db, leaseTiming);
  const progress = createProgress(db);
  const storedPages = createStoredPages(objectStore);
  const writeRunFiles = createRunFiles({
    db,
    config,
    objectStore,
    quota,
    storedPages,
    bucketOf,
    log: deps.log ?? silent,
  });
  const finalization = createFinalize({ db, writeRunFiles, finalizeLater: queue.send.finalize });
  const runTask = createTaskRunner({
    config,
    objectStore,
    quota,
    progress,
    storedPages,
    wearables: deps.wearables,
    fetch: deps.fetch ?? fetch,
    clientOptions: deps.clientOptions,
    dataset: deps.dataset,
  });
  const jobRunner = createJobRunner({
    db,
    config,
    objectStore,
    leases,
    progress,
    runTask,
    bucketOf,
    maybeFinalize: finalization.maybeFinalize,
  });
  const watchRun = createRunWatch({
    db,
    leaseSeconds: leaseTiming.seconds,
    handOn: queue.send.handOn,
    maybeFinalize: finalization.maybeFinalize,
    watchAgain: (runId, seconds) => queue.send.watch(runId, seconds, { quietly: true }),
  });
  const { listJobs, jobDetail } = createReadModels(db);
  const start = createStartRun({
    db,
    bucketOf,
    listJobs,
    queueParticipant: queue.send.participant,
    queueWatch: (runId) => queue.send.watch(runId, leaseTiming.seconds),
  });

  return {
    jobs: [queue.participantJob, queue.finalizeJob, queue.watchJob],
    participantJob: queue.participantJob,
    finalizeJob: queue.finalizeJob,
    watchJob: queue.watchJob,
    bucketOf,
    /** The per-user quota every Google Health call takes a slot of (collection shares it). */
    quota,
    start,
    estimate: createEstimate({ db, config }),
    listJobs,
    jobDetail,
    /** For tests and the benchmark: run a job's work in this process, as a worker would. */
    processJob: jobRunner.processJob,
    finalize: finalization.finalize,
    /** For tests: what a killed process stops doing (renewing its leases). */
    halt: leases.halt,
  };
}

export type ExtractionEngine = ReturnType<typeof createExtractionEngine>;
