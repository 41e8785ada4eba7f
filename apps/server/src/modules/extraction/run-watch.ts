import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { extractionJobs, extractionRuns } from '../../db/schema/index.js';

export interface RunWatchDeps {
  db: Db;
  leaseSeconds: number;
  handOn: (jobId: string) => Promise<void>;
  maybeFinalize: (runId: string) => Promise<void>;
  /** Queues the watch again, `seconds` from now. */
  watchAgain: (runId: string, seconds: number) => Promise<void>;
}

/**
 * The run's watch: hands on every job whose lease lapsed (its worker stopped renewing it), writes
 * the run's files if every job ended but nobody wrote them, and looks again just after the next
 * lease would lapse, until the run has ended.
 */
export function createRunWatch(deps: RunWatchDeps) {
  const { db } = deps;
  return async function watchRun(runId: string) {
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
      if (job.status === 'running' && job.lapsed) await deps.handOn(job.id);
    }
    if (jobs.every((job) => job.status === 'completed' || job.status === 'failed')) {
      await deps.maybeFinalize(runId);
    }
    const live = jobs
      .map((job) => (job.secondsLeft === null ? null : Number(job.secondsLeft)))
      .filter((left): left is number => left !== null && left > 0);
    await deps.watchAgain(runId, Math.ceil(Math.min(deps.leaseSeconds, ...live)) + 1);
  };
}
