import { EXTRACTION_SERVER_MESSAGES } from '@research/contracts';
import { civilDayTotals } from '@research/sandbox';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { extractionTasks, wearableConnections } from '../../db/schema/index.js';
import { useExtractionKit } from '../../test/extraction-kit.js';
import { logCapture } from '../../test/test-app.js';
import type { ExtractionEngineDeps } from './engine.js';
import { createDbQuota } from './quota.js';

/**
 * The engine's parts seen through whole runs against the sandbox: what a task sends is what the
 * manifest says it sent, a token that dies between pages is refreshed once, a run whose every task
 * fails is a failed run, and the fast heart-rate reader's fallbacks are logged once a run.
 */

/** Every log line of this file's app (the run's end is logged once, through the app's logger). */
const { lines: logLines, stream: logStream } = logCapture();

const kit = useExtractionKit({ env: { LOG_LEVEL: 'info' }, logStream });

/** An engine of its own, one call at a time, each job's attempt its last; it logs to the app's log. */
const engineWith = (options: Pick<ExtractionEngineDeps, 'fetch' | 'clientOptions'> = {}) =>
  kit.ownEngine({ finalAttempt: true, log: kit.app.log, ...options });

/** Starts a one-participant run on `engine` and works its job to the end (a last attempt). */
async function runOn(
  engine: ReturnType<typeof engineWith>,
  participantId: string,
  name: string,
  dataTypes: string[],
  day = '2026-11-02',
) {
  const started = await kit.startOn(engine, {
    name,
    dataTypes,
    day,
    mode: 'range',
    participantIds: [participantId],
  });
  await engine.processJob(started.jobs[0]?.id ?? '', true);
  const run = await kit.runOf(started.runId);
  const tasks = await kit.app.platform.db
    .select()
    .from(extractionTasks)
    .where(eq(extractionTasks.runId, started.runId))
    .orderBy(extractionTasks.seq);
  return { runId: started.runId, run, tasks };
}

interface ManifestRequest {
  method: string;
  url: string;
  body: unknown;
}

async function manifestRequests(runId: string): Promise<ManifestRequest[]> {
  const manifest = JSON.parse(
    (await kit.readObject(`extractions/${runId}/manifest.json`)).toString(),
  ) as { participants: { tasks: { requests: ManifestRequest[] }[] }[] };
  return manifest.participants.flatMap((p) =>
    p.tasks.flatMap((t) => t.requests.map(({ method, url, body }) => ({ method, url, body }))),
  );
}

const heartRateSamples = (account: string, day: string) =>
  civilDayTotals(account, day).heartRateSamples;

describe('the manifest’s requests', () => {
  it('are exactly the requests the provider received, page tokens and bodies included', async () => {
    const participant = await kit.connected('engine.manifest@gmail.test');
    const received: ManifestRequest[] = [];
    const engine = engineWith({
      fetch: async (input, init) => {
        received.push({
          method: init?.method ?? 'GET',
          url: String(input),
          body: typeof init?.body === 'string' ? JSON.parse(init.body) : null,
        });
        return fetch(input, init);
      },
    });
    const { runId, run } = await runOn(engine, participant.id, 'Exact requests', [
      'heartrate_intraday_1sec',
      'activity_calories_intraday',
      'activity_steps_timeseries',
    ]);
    expect(run?.status).toBe('completed');
    const listed = await manifestRequests(runId);
    expect(listed).toEqual(received);
    // The raw heart rate of a day spans pages: every page after the first names its token.
    const heartRate = listed.filter((r) => r.url.includes('/dataTypes/heart-rate/dataPoints?'));
    expect(heartRate.length).toBeGreaterThan(1);
    const tokens = heartRate.map((r) => new URL(r.url).searchParams.get('pageToken'));
    expect(tokens[0]).toBeNull();
    expect(tokens.slice(1).every((token) => typeof token === 'string' && token !== '')).toBe(true);
    // And a POST keeps its body.
    expect(listed.find((r) => r.url.includes(':rollUp'))?.body).toMatchObject({
      windowSize: '60s',
    });
  }, 60_000);
});

describe('an access token that dies between pages', () => {
  it('is refreshed once and the page asked again: the task completes on its first attempt', async () => {
    const account = 'engine.expiring@gmail.test';
    const participant = await kit.connected(account);
    const statuses: number[] = [];
    const clock = kit.sandbox.health.clock;
    const offset = clock.offsetMs;
    const engine = engineWith({
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        statuses.push(response.status);
        // After the first page, two hours pass at Google: every access token issued so far dies
        // there, while the server's own record still says it is good for an hour.
        if (statuses.length === 1) clock.advance(2 * 3_600_000);
        return response;
      },
    });
    try {
      const { run, tasks } = await runOn(engine, participant.id, 'Token dies', [
        'heartrate_intraday_1sec',
      ]);
      expect(statuses.filter((s) => s === 401)).toHaveLength(1);
      expect(tasks[0]).toMatchObject({ status: 'completed', attempts: 1, error: null });
      expect(tasks[0]?.rows).toBe(heartRateSamples(account, '2026-11-02'));
      expect(run?.status).toBe('completed');
    } finally {
      clock.offsetMs = offset;
    }
  }, 60_000);
});

describe('a grant Google revoked (invalid_grant)', () => {
  for (const [name, tokenExpired] of [
    ['while the stored access token still looks valid', false],
    ['with the stored access token expired', true],
  ] as const) {
    it(`${name}: the job fails on its first attempt, with no retry queued`, async () => {
      const account = `engine.revoked.${tokenExpired ? 'expired' : 'fresh'}@gmail.test`;
      const participant = await kit.connected(account);
      kit.sandbox.health.revoke(account);
      if (tokenExpired) {
        await kit.app.platform.db
          .update(wearableConnections)
          .set({ accessExpiresAt: new Date(Date.now() - 1000) })
          .where(eq(wearableConnections.participantId, participant.id));
      }
      // Three calls in flight, as the app runs them; not the job's last attempt.
      const engine = kit.ownEngine({ callsPerParticipant: 3, finalAttempt: false });
      const started = await kit.startOn(engine, {
        name: 'Revoked',
        dataTypes: ['activity_steps_timeseries', 'heartrate_timeseries', 'sleep_log', 'profile'],
        day: '2026-11-02',
        mode: 'range',
        participantIds: [participant.id],
      });
      // A throw here is what queues pg-boss's retry (with back-off): a dead grant must not.
      await expect(engine.processJob(started.jobs[0]?.id ?? '', false)).resolves.toBeUndefined();
      const [job] = await engine.listJobs(kit.world.study.id, { runId: started.runId });
      expect(job).toMatchObject({
        status: 'failed',
        error: EXTRACTION_SERVER_MESSAGES.needsReauthorization,
      });
      const [connection] = await kit.app.platform.db
        .select({ status: wearableConnections.status })
        .from(wearableConnections)
        .where(eq(wearableConnections.participantId, participant.id));
      expect(connection?.status).toBe('needs_reauthorization');
    }, 60_000);
  }
});

describe('a dead grant while the other calls wait for the quota', () => {
  it('fails the job at once: the waiting calls are dropped, not waited out to the next minute', async () => {
    const account = 'engine.revoked.waiting@gmail.test';
    const participant = await kit.connected(account);
    kit.sandbox.health.revoke(account);
    // One call a minute, and the clock held at the start of a minute: the first call goes out
    // (and meets the dead grant), the other two lanes wait a whole minute for their slot.
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    const quota = createDbQuota(
      kit.app.platform.db,
      { perUserPerMinute: 1, perProjectPerMinute: 1_000 },
      { now: () => minute },
    );
    const engine = kit.ownEngine({ callsPerParticipant: 3, finalAttempt: false, quota });
    const started = await kit.startOn(engine, {
      name: 'Revoked, quota full',
      dataTypes: ['activity_steps_timeseries', 'heartrate_timeseries', 'sleep_log'],
      day: '2026-11-03',
      mode: 'range',
      participantIds: [participant.id],
    });
    const began = Date.now();
    const ended = await Promise.race([
      engine.processJob(started.jobs[0]?.id ?? '', false).then(() => 'ended'),
      new Promise((resolve) => setTimeout(() => resolve('still running'), 10_000)),
    ]);
    expect(ended).toBe('ended');
    expect(Date.now() - began).toBeLessThan(10_000);
    const [job] = await engine.listJobs(kit.world.study.id, { runId: started.runId });
    expect(job).toMatchObject({
      status: 'failed',
      error: EXTRACTION_SERVER_MESSAGES.needsReauthorization,
    });
  }, 90_000);
});

describe('a run whose every task fails', () => {
  /** Google answers 500 to everything, and the client does not retry. */
  const failing = () =>
    engineWith({
      clientOptions: { retry: { maxAttempts: 1 } },
      fetch: async () => new Response('{"error":{"status":"INTERNAL"}}', { status: 500 }),
    });

  it('ends failed, its job failed with the tasks’ reason', async () => {
    const participant = await kit.connected('engine.failing@gmail.test');
    const { runId, run, tasks } = await runOn(failing(), participant.id, 'All tasks fail', [
      'activity_steps_timeseries',
      'sleep_log',
    ]);
    expect(tasks.map((t) => t.status)).toEqual(['failed', 'failed']);
    expect(run?.status).toBe('failed');
    const [job] = await kit.app.extraction.listJobs(kit.world.study.id, { runId });
    expect(job).toMatchObject({ status: 'failed', error: expect.stringContaining('2 part(s)') });
  }, 60_000);

  it('one participant’s job failing of two leaves the run completed', async () => {
    const failed = await kit.connected('engine.failing.two@gmail.test');
    const working = await kit.connected('engine.working@gmail.test');
    const engine = engineWith();
    const started = await kit.startOn(engine, {
      name: 'One of two fails',
      dataTypes: ['activity_steps_timeseries'],
      day: '2026-11-02',
      mode: 'range',
      participantIds: [failed.id, working.id],
    });
    const jobOf = (participantId: string) =>
      started.jobs.find((j) => j.participantId === participantId)?.id ?? '';
    await failing().processJob(jobOf(failed.id), true);
    await engine.processJob(jobOf(working.id), true);
    expect((await kit.runOf(started.runId))?.status).toBe('completed');
    const jobs = await engine.listJobs(kit.world.study.id, { runId: started.runId });
    expect(jobs.find((j) => j.participantId === failed.id)?.status).toBe('failed');
    expect(jobs.find((j) => j.participantId === working.id)?.status).toBe('completed');
  }, 60_000);
});

describe('the fast heart-rate reader', () => {
  /** The run's end line in the log, parsed. */
  const endLine = (runId: string) =>
    logLines
      .filter((line) => line.includes(runId) && line.includes('extraction run ended'))
      .map((line) => JSON.parse(line) as { level: number; pages: number; readAsJson: number });

  it('a run of the app logs once at its end that no page fell back to JSON', async () => {
    const participant = await kit.connected('engine.fast@gmail.test');
    const runId = await kit.startRun(
      participant.id,
      'Fast reader',
      ['heartrate_intraday_1sec'],
      '2026-11-01',
    );
    await kit.finished(runId);
    const lines = endLine(runId);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ readAsJson: 0, level: 30 });
    expect(lines[0]?.pages).toBeGreaterThan(1);
  }, 60_000);

  it('answers it cannot read are read as JSON, counted, and the count logged once at the run’s end', async () => {
    const account = 'engine.reformatted@gmail.test';
    const participant = await kit.connected(account);
    // Google changes its layout: each sample's members in another order. The byte reader
    // refuses that; JSON does not care.
    const engine = engineWith({
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (!String(input).includes('/dataTypes/heart-rate/') || !response.ok) return response;
        const page = (await response.json()) as {
          dataPoints?: { heartRate: { sampleTime: unknown; beatsPerMinute: string } }[];
        };
        for (const point of page.dataPoints ?? []) {
          const { sampleTime, beatsPerMinute } = point.heartRate;
          point.heartRate = { beatsPerMinute, sampleTime } as typeof point.heartRate;
        }
        return new Response(JSON.stringify(page), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    const { runId, run, tasks } = await runOn(engine, participant.id, 'Reformatted', [
      'heartrate_intraday_1sec',
    ]);
    expect(run?.status).toBe('completed');
    // Still every sample: the JSON path read them.
    expect(tasks[0]?.rows).toBe(heartRateSamples(account, '2026-11-02'));
    const pages = tasks[0]?.callsDone ?? 0;
    expect(pages).toBeGreaterThan(1);
    const lines = endLine(runId);
    expect(lines).toHaveLength(1);
    // A warning (pino's 40), with the count and nothing about the participant.
    expect(lines[0]).toMatchObject({ level: 40, pages, readAsJson: pages });
    expect(JSON.stringify(lines[0])).not.toContain(participant.id);
    expect(JSON.stringify(lines[0])).not.toContain(account);
    // The manifest says nothing of how a page was read.
    expect(JSON.stringify(await manifestRequests(runId))).not.toContain('readAsJson');
  }, 60_000);
});
