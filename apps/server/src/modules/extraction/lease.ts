import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { extractionJobs } from '../../db/schema/index.js';
import type { JobRow } from './records.js';

/**
 * A job's lease. pg-boss hands a job out again when it outlives its expiry, while the first copy
 * may still be working. So a copy works only while it holds the job's lease: taking it increments
 * the job's lease generation (one UPDATE, only when no live lease is held), a timer renews it, and
 * every write of the copy is conditioned on its generation; a copy that finds the lease held by
 * another does nothing. A holder that stops renewing (its process died) is noticed by the run's
 * watch job, which hands the job on once the lease has lapsed, long before pg-boss's expiry.
 */

export interface LeaseTiming {
  /** How long a lease lasts unless renewed. */
  seconds: number;
  /** How often its holder renews it. */
  renewSeconds: number;
}

/**
 * A minute: a holder that has not renewed for that long is taken as dead; renewed every 15 s, so
 * a slow database answer or two does not lose it.
 */
export const DEFAULT_LEASE: LeaseTiming = { seconds: 60, renewSeconds: 15 };

/** Raised by a write of a copy whose lease passed to another copy: that copy stops quietly. */
export class LeaseLost extends Error {
  constructor() {
    super('The job is held by another worker');
    this.name = 'LeaseLost';
  }
}

/** A copy's hold on a job: its generation, and until when it may still write (its own clock). */
export interface Lease {
  jobId: string;
  generation: number;
  validUntil: number;
  lost: boolean;
  timer?: NodeJS.Timeout;
}

/** A task write's condition: the job's lease is still this copy's. */
export const holds = (lease: Lease): SQL =>
  sql`exists (select 1 from ${extractionJobs} where ${extractionJobs.id} = ${lease.jobId} and ${extractionJobs.leaseGeneration} = ${lease.generation})`;

/** A job write's condition: this job, and its lease is still this copy's. */
export const heldJob = (lease: Lease): SQL =>
  and(
    eq(extractionJobs.id, lease.jobId),
    eq(extractionJobs.leaseGeneration, lease.generation),
  ) as SQL;

/** Checks a conditioned write's returned rows: none means the lease has passed on. */
export function wrote(lease: Lease, rows: unknown[]) {
  if (rows.length === 0) {
    lease.lost = true;
    throw new LeaseLost();
  }
}

/** Throws LeaseLost unless this copy may still write (before an object write, which the database cannot condition). */
export function fence(lease: Lease) {
  if (lease.lost || Date.now() > lease.validUntil) {
    lease.lost = true;
    throw new LeaseLost();
  }
}

export function createLeases(db: Db, timing: LeaseTiming) {
  /** Holders of this engine, so a test can stop them as a killed process would. */
  const held = new Set<Lease>();
  /** A copy's own view of its lease ends a little before the database's (clocks, slow answers). */
  const localValidity = (sentAt: number) =>
    sentAt + timing.seconds * 1000 - Math.min(5_000, (timing.seconds * 1000) / 4);
  const leaseInterval = sql`${timing.seconds} * interval '1 second'`;

  /**
   * Takes the job's lease when no live one is held: the generation goes up by one, in the same
   * statement that finds the lease free, so two copies can never both take it.
   */
  async function take(jobId: string): Promise<{ lease: Lease; job: JobRow } | null> {
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
    lease.timer = setInterval(() => void renew(lease), timing.renewSeconds * 1000);
    lease.timer.unref();
    held.add(lease);
    return { lease, job };
  }

  async function renew(lease: Lease) {
    if (lease.lost) return;
    const sentAt = Date.now();
    try {
      const renewed = await db
        .update(extractionJobs)
        .set({ leaseExpiresAt: sql`now() + ${leaseInterval}` })
        .where(and(heldJob(lease), eq(extractionJobs.status, 'running')))
        .returning({ id: extractionJobs.id });
      if (renewed.length === 0) lease.lost = true;
      else lease.validUntil = localValidity(sentAt);
    } catch {
      // A failed renewal is retried at the next tick; meanwhile the lease runs out by itself.
    }
  }

  function drop(lease: Lease) {
    clearInterval(lease.timer);
    held.delete(lease);
  }

  /** For tests: what a killed process stops doing (renewing its leases). */
  function halt() {
    for (const lease of held) drop(lease);
  }

  return { take, drop, halt };
}

export type Leases = ReturnType<typeof createLeases>;
