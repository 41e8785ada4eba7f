import { createHash } from 'node:crypto';
import type { Sandbox } from '@research/sandbox';
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { extractionRuns } from '../db/schema/index.js';
import { createExtractionEngine, type ExtractionEngineDeps } from '../modules/extraction/engine.js';
import { bearer, someAddress } from './auth-helpers.js';
import { createTestApp, eventually, type TestApp, type TestAppOptions } from './test-app.js';
import { consentAt, participantSessionHeaders, studyWithParticipants } from './wearables-kit.js';

type World = Awaited<ReturnType<typeof studyWithParticipants>>;

/** A participant's extraction job as the study's job list shows it. */
export interface JobView {
  id: string;
  runId: string;
  participantId: string;
  status: string;
  progress: number;
  callsDone: number;
  callsPlanned: number;
  error: string | null;
  skippedDataTypes: string[];
}

/**
 * What the extraction fault tests share: a participant connected through the real OAuth path, a
 * run started over HTTP, its end awaited, and the run's objects read back from the bucket.
 */
export function extractionKit(on: { readonly app: FastifyInstance; readonly world: World }) {
  // Read at call time: `on` may be a handle whose app starts in a beforeAll after this runs.
  const app = () => on.app;
  const world = () => on.world;
  const call = (options: InjectOptions) =>
    app().inject({ remoteAddress: someAddress(), ...options });
  const bucket = () => app().extraction.bucketOf(world().study.id);

  /**
   * A participant of the study, connected through the direct path with `account`;
   * `beforeConnect` runs once they exist (a consent-required study: they sign first).
   */
  async function connected(
    account: string,
    scopes?: readonly string[],
    beforeConnect?: (participant: { id: string; email: string }) => Promise<unknown>,
  ) {
    const participant = await world().addParticipant({
      firstName: 'Sam',
      lastName: account.slice(0, 6),
    });
    await beforeConnect?.(participant);
    const res = await call({
      method: 'GET',
      url: '/api/fitbit/auth-url',
      // A first connection needs the session the enrolment issues after verification.
      headers: await participantSessionHeaders(app(), world().study.studyCode, participant),
      query: { participantId: participant.id, studyCode: world().study.studyCode },
    });
    expect(res.statusCode, res.body).toBe(200);
    const consent = await consentAt((res.json() as { authUrl: string }).authUrl, {
      account,
      ...(scopes ? { scopes } : {}),
    });
    const callback = await call({
      method: 'POST',
      url: '/api/fitbit/callback',
      payload: { code: consent.code, state: consent.state, participantId: participant.id },
    });
    expect(callback.statusCode, callback.body).toBe(200);
    return participant;
  }

  /** Starts a run of one participant from 2026-11-01 to `endDate`; answers its id. */
  async function startRun(
    participantId: string,
    name: string,
    dataTypes: string[],
    endDate = '2026-11-07',
  ) {
    const res = await call({
      method: 'POST',
      url: '/api/data-extraction/extract-participant-data',
      headers: bearer(world().owner.token),
      payload: {
        participantIds: [participantId],
        extractionName: name,
        dataTypes,
        dateRange: { startDate: '2026-11-01', endDate, mode: 'range' },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { runId: string }).runId;
  }

  /** The study's extraction jobs as the owner sees them (200): all, or the run's when given. */
  async function jobsOf(runId?: string) {
    const res = await call({
      method: 'GET',
      url: `/api/studies/${world().study.id}/extraction-jobs`,
      headers: bearer(world().owner.token),
    });
    expect(res.statusCode, res.body).toBe(200);
    const { jobs } = res.json() as { jobs: JobView[] };
    return runId === undefined ? jobs : jobs.filter((j) => j.runId === runId);
  }

  const runOf = async (runId: string) =>
    (await app().platform.db.select().from(extractionRuns).where(eq(extractionRuns.id, runId)))[0];

  /** The run once it has ended (a read that fails, e.g. while the database is away, waits). */
  const finished = (runId: string, timeoutMs = 90_000) =>
    eventually(async () => {
      const run = await runOf(runId).catch(() => undefined);
      return run && run.status !== 'running' ? run : undefined;
    }, timeoutMs);

  async function readObject(key: string): Promise<Buffer> {
    const { body } = await app().platform.objectStore.getObject(bucket(), key);
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks);
  }

  /** Every object of the run: key below the run's folder → SHA-256 and write time. */
  async function objectsOf(runId: string) {
    const prefix = `extractions/${runId}/`;
    const page = await app().platform.objectStore.listObjects(bucket(), { prefix });
    const out = new Map<string, { sha256: string; at: number }>();
    for (const object of page.objects) {
      out.set(object.key.slice(prefix.length), {
        sha256: createHash('sha256')
          .update(await readObject(object.key))
          .digest('hex'),
        at: object.lastModified.getTime(),
      });
    }
    return out;
  }

  const csvRows = async (runId: string, type: string) =>
    parse((await readObject(`extractions/${runId}/${type}.csv`)).toString(), {
      columns: true,
    }) as Record<string, string>[];

  return {
    call,
    bucket,
    connected,
    startRun,
    jobsOf,
    runOf,
    finished,
    readObject,
    objectsOf,
    csvRows,
  };
}

/**
 * The app, its sandbox, a study with participants and the kit over them, for a whole test file
 * (or describe block): started in a beforeAll, closed in an afterAll. The handle reads through
 * to what the beforeAll started, so it can be taken at the top of the file.
 */
export function useExtractionKit(options: TestAppOptions = {}) {
  let testApp: TestApp | undefined;
  let world: World | undefined;
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the extraction kit is used before its beforeAll');
    return value;
  };
  const on = {
    get testApp() {
      return started(testApp);
    },
    get app() {
      return started(testApp).app;
    },
    get sandbox() {
      return started(testApp).sandbox as Sandbox;
    },
    get world() {
      return started(world);
    },
  };
  beforeAll(async () => {
    testApp = await createTestApp(options);
    world = await studyWithParticipants(testApp.app);
  }, 60_000);
  afterAll(() => testApp?.close());

  /**
   * An engine of the test's own over the app's parts. One call at a time unless
   * `callsPerParticipant` says more, so requests go out in the order the manifest lists them;
   * nothing is queued unless `jobs` is given: its work happens where the test calls processJob.
   */
  function ownEngine({
    callsPerParticipant = 1,
    finalAttempt = false,
    ...deps
  }: Partial<ExtractionEngineDeps> & {
    callsPerParticipant?: number;
    finalAttempt?: boolean;
  } = {}) {
    const { config, app } = on.testApp;
    return createExtractionEngine({
      db: app.platform.db,
      config: { ...config, extraction: { ...config.extraction, callsPerParticipant } },
      objectStore: app.platform.objectStore,
      wearables: app.services.wearables,
      jobs: () => ({ send: async () => 'not-queued', isFinalAttempt: () => finalAttempt }) as never,
      retry: { limit: 1, delaySeconds: 1 },
      ...deps,
    });
  }

  /** Starts a run on `engine` of the owner's, over one day, of these participants. */
  const startOn = (
    engine: ReturnType<typeof ownEngine>,
    run: {
      name: string;
      dataTypes: string[];
      day: string;
      participantIds: string[];
      mode?: 'single' | 'range';
    },
  ) =>
    engine.start({
      studyId: on.world.study.id,
      actorId: on.world.owner.user.id,
      name: run.name,
      dataTypes: run.dataTypes as Parameters<typeof engine.start>[0]['dataTypes'],
      dateRange: { startDate: run.day, endDate: run.day, mode: run.mode ?? 'single' },
      participantIds: run.participantIds,
    });

  return Object.assign(on, extractionKit(on), { ownEngine, startOn });
}
