import { EXTRACTION_STALLED_REASON } from '@research/contracts';
import { civilDayTotals } from '@research/sandbox';
import { parse } from 'csv-parse/sync';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { extractionJobs, extractionTasks } from '../../db/schema/index.js';
import type { JobQueue } from '../../platform/jobs.js';
import { type JobView, useExtractionKit } from '../../test/extraction-kit.js';
import { compareRows, reportFault, runRows } from '../../test/fault-report.js';
import { eventually } from '../../test/test-app.js';

/**
 * Faults of the job queue: pg-boss hands a participant's job out again when it outlives its
 * expiry (while the first copy still works), and a worker dies while it holds a job.
 */

const kit = useExtractionKit();

afterAll(() => {
  kit.sandbox.health.setControls({ latencyMs: 0 });
});

const queue = () => kit.app.platform.jobs;

/** Participant jobs pg-boss still has to give out or is running (copies included). */
async function queuedCopies(): Promise<number> {
  const result = await kit.app.platform.db.execute(
    sql`select count(*)::int as n from pgboss.job where name = 'extraction-participant' and state in ('created', 'retry', 'active')`,
  );
  return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n);
}

const TYPES = ['activity_steps_intraday', 'heartrate_timeseries', 'sleep_log', 'profile'];

describe('a job that outlives its expiry', () => {
  it('is handed out again, but the second copy writes nothing: the files equal a clean run’s', async (context) => {
    const account = 'faults.expiry@gmail.test';
    const participant = await kit.connected(account);
    const clean = await kit.startRun(participant.id, 'Clean', TYPES);
    await kit.finished(clean);
    const expected = await kit.objectsOf(clean);

    // Every copy pg-boss hands out from now on expires after 2 s; the provider takes 1.5 s a call.
    await queue().boss.updateQueue('extraction-participant', {
      expireInSeconds: 2,
    });
    kit.sandbox.health.setControls({ latencyMs: 1500 });
    let runId = '';
    try {
      runId = await kit.startRun(participant.id, 'Outlived its expiry', TYPES);
      const [job] = await kit.jobsOf(runId);
      const seen: JobView[] = [];
      // pg-boss's maintenance, every half second instead of every two minutes: a job active for
      // longer than its expiry is failed and handed out again (a retry after 1 s).
      for (let i = 0; i < 60 && (await kit.runOf(runId))?.status === 'running'; i++) {
        await queue().boss.supervise('extraction-participant');
        seen.push(...(await kit.jobsOf(runId)));
        await new Promise((r) => setTimeout(r, 500));
      }
      await kit.finished(runId);
      // Every copy has ended.
      await eventually(async () => (await queuedCopies()) === 0, 60_000);
      // The job was handed out again at least once while its first copy worked.
      const copies = await kit.app.platform.db.execute(
        sql`select max(retry_count)::int as n from pgboss.job where name = 'extraction-participant' and data->>'jobId' = ${job?.id ?? ''}`,
      );
      expect(
        Number((copies as unknown as { rows: { n: number }[] }).rows[0]?.n),
      ).toBeGreaterThanOrEqual(1);

      // Progress never went past the total.
      for (const view of [...seen, ...(await kit.jobsOf(runId))]) {
        expect(view.callsDone, JSON.stringify(view)).toBeLessThanOrEqual(view.callsPlanned);
      }
      // No task was run twice: the second copy never started one.
      const tasks = await kit.app.platform.db
        .select()
        .from(extractionTasks)
        .where(eq(extractionTasks.runId, runId));
      expect(tasks.map((t) => t.attempts)).toEqual(tasks.map(() => 1));
      const [done] = await kit.jobsOf(runId);
      const [cleanJob] = await kit.jobsOf(clean);
      expect(done).toMatchObject({ status: 'completed', callsDone: cleanJob?.callsDone });
    } finally {
      kit.sandbox.health.setControls({ latencyMs: 0 });
      await queue().boss.updateQueue('extraction-participant', {
        expireInSeconds: kit.testApp.config.extraction.jobExpireSeconds,
      });
    }

    const rows = compareRows(
      await runRows(kit.app.platform.objectStore, kit.bucket(), clean),
      await runRows(kit.app.platform.objectStore, kit.bucket(), runId),
    );
    const outcome = (await kit.runOf(runId))?.status ?? 'unknown';
    reportFault(context, { fault: 'job expiry (handed out again)', outcome, ...rows });
    expect(rows).toMatchObject({ rowsLost: 0, duplicates: 0 });
    // The same files, byte for byte, as the clean run (the manifest differs only in its run).
    const actual = await kit.objectsOf(runId);
    expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [key, object] of actual) {
      if (key !== 'manifest.json') expect(object.sha256, key).toBe(expected.get(key)?.sha256);
    }
    const sleep = parse((await kit.readObject(`extractions/${runId}/sleep_log.csv`)).toString(), {
      columns: true,
    }) as unknown[];
    expect(sleep.length).toBeGreaterThan(0);
    // The manifest lists exactly the files in the bucket, with their hashes, and nothing was
    // written after it.
    const manifest = JSON.parse(
      (await kit.readObject(`extractions/${runId}/manifest.json`)).toString(),
    );
    const listed = new Map(
      (manifest.files as { key: string; sha256: string }[]).map((f) => [f.key, f.sha256]),
    );
    const inBucket = [...actual.keys()].filter((k) => k !== 'manifest.json');
    expect(inBucket.map((k) => `extractions/${runId}/${k}`).sort()).toEqual(
      [...listed.keys()].sort(),
    );
    for (const key of inBucket) {
      expect(listed.get(`extractions/${runId}/${key}`), key).toBe(actual.get(key)?.sha256);
    }
    const manifestAt = actual.get('manifest.json')?.at ?? 0;
    for (const [key, object] of actual) expect(object.at, key).toBeLessThanOrEqual(manifestAt);
  }, 180_000);
});

describe('a worker that dies holding a job', () => {
  it('shows the job stalled with the reason, and another worker completes it long before the expiry', async (context) => {
    const account = 'faults.killed@gmail.test';
    const participant = await kit.connected(account);
    let calls = 0;
    // A worker with a 5 s lease whose process "dies" on its third request: it never answers
    // again and renews nothing. The run's watch is held back until the test has seen the job
    // stalled (the state lasts only until the watch hands the job on, which on a busy machine
    // can be quicker than a poll), then goes to the app's queue like any run's.
    let heldWatch: Parameters<JobQueue['send']> | undefined;
    const doomed = kit.ownEngine({
      jobs: () =>
        ({
          ...queue(),
          send: async (...args: Parameters<JobQueue['send']>) => {
            if (args[0].name === 'extraction-participant') return 'run-here';
            if (args[0].name !== 'extraction-watch') return queue().send(...args);
            heldWatch = args;
            return 'held';
          },
        }) as JobQueue,
      lease: { seconds: 5, renewSeconds: 0.5 },
      fetch: (input, init) => (++calls >= 3 ? new Promise(() => {}) : fetch(input, init)),
    });
    const started = await kit.startOn(doomed, {
      name: 'Killed holder',
      dataTypes: ['activity_steps_timeseries', 'heartrate_intraday_1sec'],
      day: '2026-11-01',
      participantIds: [participant.id],
    });
    const jobId = started.jobs[0]?.id ?? '';
    void doomed.processJob(jobId, false);
    await eventually(async () => calls >= 3, 30_000);
    doomed.halt();
    const diedAt = Date.now();

    const stalled = await eventually(async () => {
      const [job] = await kit.jobsOf(started.runId);
      return job?.status === 'stalled' ? job : undefined;
    }, 20_000);
    expect(stalled).toMatchObject({ error: EXTRACTION_STALLED_REASON });
    expect(stalled.progress).toBeLessThan(100);
    // The watch, now: it finds the lease lapsed and hands the job on.
    if (!heldWatch) throw new Error('the run queued no watch');
    const [definition, data, options] = heldWatch;
    await queue().send(definition, data, { ...options, startAfter: 0 });

    const run = await kit.finished(started.runId, 60_000);
    const tookMs = Date.now() - diedAt;
    expect(run.status).toBe('completed');
    // pg-boss alone would hand the job on only after its expiry (30 minutes here).
    expect(tookMs).toBeLessThan(30_000);
    expect(tookMs).toBeLessThan(kit.testApp.config.extraction.jobExpireSeconds * 1000);
    const [job] = await kit.jobsOf(started.runId);
    expect(job).toMatchObject({ status: 'completed', progress: 100, error: null });
    const [row] = await kit.app.platform.db
      .select()
      .from(extractionJobs)
      .where(eq(extractionJobs.id, jobId));
    // The dead worker's generation, then the one that finished the job.
    expect(row?.leaseGeneration).toBe(2);
    const rows = parse(
      (await kit.readObject(`extractions/${started.runId}/heartrate_intraday_1sec.csv`)).toString(),
      { columns: true },
    ) as { timestamp_utc: string }[];
    const samples = civilDayTotals(account, '2026-11-01').heartRateSamples;
    const unique = new Set(rows.map((r) => r.timestamp_utc)).size;
    reportFault(context, {
      fault: 'worker killed holding a job',
      outcome: run.status,
      rowsExpected: samples,
      rowsLost: samples - unique,
      duplicates: rows.length - unique,
    });
    expect(rows).toHaveLength(samples);
    expect(unique).toBe(rows.length);
  }, 90_000);
});

describe('a participant whose task fails for good', () => {
  it('leaves no raw page outside the manifest, and a run whose every job failed is failed', async (context) => {
    const participant = await kit.connected('faults.failed@gmail.test');
    let calls = 0;
    // One task at a time: the third request is the heart rate's second page.
    const engine = kit.ownEngine({
      finalAttempt: true,
      retry: { limit: 0, delaySeconds: 1 },
      // Google refuses the third request for good (a 400 is never retried).
      fetch: (input, init) =>
        ++calls === 3
          ? Promise.resolve(
              Response.json(
                { error: { code: 400, status: 'INVALID_ARGUMENT', message: 'bad' } },
                { status: 400 },
              ),
            )
          : fetch(input, init),
    });
    const started = await kit.startOn(engine, {
      name: 'Fails for good',
      dataTypes: ['activity_steps_timeseries', 'heartrate_intraday_1sec'],
      day: '2026-11-01',
      participantIds: [participant.id],
    });
    await engine.processJob(started.jobs[0]?.id ?? '', true);
    const run = await kit.runOf(started.runId);
    expect(run?.status).toBe('failed');
    const [job] = await kit.jobsOf(started.runId);
    expect(job?.status).toBe('failed');
    const prefix = `extractions/${started.runId}/`;
    const manifest = JSON.parse((await kit.readObject(`${prefix}manifest.json`)).toString()) as {
      files: { key: string }[];
      participants: { tasks: { dataType: string; status: string }[] }[];
    };
    expect(manifest.participants[0]?.tasks.map((t) => [t.dataType, t.status])).toEqual([
      ['activity_steps_timeseries', 'completed'],
      ['heartrate_intraday_1sec', 'failed'],
    ]);
    const inBucket = (
      await kit.app.platform.objectStore.listObjects(kit.bucket(), { prefix })
    ).objects
      .map((o) => o.key)
      .filter((k) => k !== `${prefix}manifest.json`);
    expect(inBucket.sort()).toEqual(manifest.files.map((f) => f.key).sort());
    expect(inBucket.some((k) => k.includes('/heartrate_intraday_1sec/'))).toBe(false);
    // The completed type is delivered.
    const steps = parse(
      (await kit.readObject(`${prefix}activity_steps_timeseries.csv`)).toString(),
      {
        columns: true,
      },
    ) as Record<string, string>[];
    expect(steps).toHaveLength(7);
    const unique = new Set(steps.map((row) => row.date)).size;
    reportFault(context, {
      fault: 'provider refuses a call for good (400)',
      outcome: `${run?.status}: ${job?.error ?? ''}`.slice(0, 80),
      rowsExpected: 7,
      rowsLost: 7 - unique,
      duplicates: steps.length - unique,
    });
  }, 60_000);
});
