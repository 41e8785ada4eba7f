import type { Sandbox } from '@research/sandbox';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractionRuns } from '../../db/schema/index.js';
import { bearer, someAddress } from '../../test/auth-helpers.js';
import { compareRows, reportFault, runRows } from '../../test/fault-report.js';
import { createTestApp, eventually, type TestApp } from '../../test/test-app.js';
import {
  consentAt,
  participantSessionHeaders,
  studyWithParticipants,
} from '../../test/wearables-kit.js';

/**
 * Google answering 5xx and 429 during a run: the run still completes, with every row a clean
 * run delivers and none twice (the client retries with back-off and Retry-After; a call that
 * still fails is retried by the job).
 */

let testApp: TestApp;
let app: FastifyInstance;
let sandbox: Sandbox;
let world: Awaited<ReturnType<typeof studyWithParticipants>>;

beforeAll(async () => {
  testApp = await createTestApp();
  app = testApp.app;
  sandbox = testApp.sandbox as Sandbox;
  world = await studyWithParticipants(app);
}, 60_000);

afterAll(async () => {
  sandbox?.health.setControls({
    error500Rate: 0,
    error503Rate: 0,
    perUserPerMinute: 300,
    clockOffsetMs: 0,
  });
  await testApp?.close();
});

const call = (options: InjectOptions) => app.inject({ remoteAddress: someAddress(), ...options });

async function connected(account: string) {
  const participant = await world.addParticipant({ firstName: 'Pro', lastName: 'Vider' });
  const res = await call({
    method: 'GET',
    url: '/api/fitbit/auth-url',
    headers: await participantSessionHeaders(app, world.study.studyCode, participant),
    query: { participantId: participant.id, studyCode: world.study.studyCode },
  });
  expect(res.statusCode, res.body).toBe(200);
  const consent = await consentAt((res.json() as { authUrl: string }).authUrl, { account });
  const callback = await call({
    method: 'POST',
    url: '/api/fitbit/callback',
    payload: { code: consent.code, state: consent.state, participantId: participant.id },
  });
  expect(callback.statusCode, callback.body).toBe(200);
  return participant;
}

async function run(participantId: string, name: string, dataTypes: string[], endDate: string) {
  const res = await call({
    method: 'POST',
    url: '/api/data-extraction/extract-participant-data',
    headers: bearer(world.owner.token),
    payload: {
      participantIds: [participantId],
      extractionName: name,
      dataTypes,
      dateRange: { startDate: '2026-11-01', endDate, mode: 'range' },
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const { runId } = res.json() as { runId: string };
  const ended = await eventually(async () => {
    const [row] = await app.platform.db
      .select()
      .from(extractionRuns)
      .where(eq(extractionRuns.id, runId));
    return row && row.status !== 'running' ? row : undefined;
  }, 120_000);
  return { runId, status: ended.status };
}

const rowsOf = (runId: string) =>
  runRows(app.platform.objectStore, app.extraction.bucketOf(world.study.id), runId);

describe('Google answers with errors during a run', () => {
  it('500 and 503 on 40% of calls: completed, rows lost 0, duplicates 0', async (context) => {
    const participant = await connected('faults.flaky@gmail.test');
    const types = ['activity_steps_intraday', 'heartrate_timeseries', 'sleep_log', 'profile'];
    const clean = await run(participant.id, 'Clean', types, '2026-11-03');
    sandbox.health.setControls({ error500Rate: 0.2, error503Rate: 0.2 });
    try {
      const flaky = await run(participant.id, 'Flaky', types, '2026-11-03');
      const rows = compareRows(await rowsOf(clean.runId), await rowsOf(flaky.runId));
      reportFault(context, { fault: 'provider 500/503 (40%)', outcome: flaky.status, ...rows });
      expect(flaky.status).toBe('completed');
      expect(rows).toMatchObject({ rowsLost: 0, duplicates: 0 });
      expect(rows.rowsExpected).toBeGreaterThan(0);
    } finally {
      sandbox.health.setControls({ error500Rate: 0, error503Rate: 0 });
    }
  }, 180_000);

  it('429 with Retry-After: completed, rows lost 0, duplicates 0', async (context) => {
    const participant = await connected('faults.limited@gmail.test');
    const types = ['activity_steps_timeseries', 'heartrate_timeseries'];
    // Two calls a minute for this user, and Google's minute ends 5 s from now.
    const offset = (55_000 - (Date.now() % 60_000) + 60_000) % 60_000;
    sandbox.health.setControls({ perUserPerMinute: 2, clockOffsetMs: offset });
    let limited: Awaited<ReturnType<typeof run>>;
    try {
      limited = await run(participant.id, 'Limited', types, '2026-11-02');
    } finally {
      sandbox.health.setControls({ perUserPerMinute: 300, clockOffsetMs: 0 });
    }
    // The clean run afterwards, with Google's limits as usual.
    const clean = await run(participant.id, 'Clean', types, '2026-11-02');
    const rows = compareRows(await rowsOf(clean.runId), await rowsOf(limited.runId));
    reportFault(context, { fault: 'provider 429', outcome: limited.status, ...rows });
    expect(limited.status).toBe('completed');
    expect(rows).toMatchObject({ rowsLost: 0, duplicates: 0 });
    expect(rows.rowsExpected).toBeGreaterThan(0);
  }, 180_000);
});
