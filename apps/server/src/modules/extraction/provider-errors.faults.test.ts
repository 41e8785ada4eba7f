import { afterAll, describe, expect, it } from 'vitest';
import { useExtractionKit } from '../../test/extraction-kit.js';
import { compareRows, reportFault, runRows } from '../../test/fault-report.js';

/**
 * Google answering 5xx and 429 during a run: the run still completes, with every row a clean
 * run delivers and none twice (the client retries with back-off and Retry-After; a call that
 * still fails is retried by the job).
 */

const kit = useExtractionKit();

afterAll(() => {
  kit.sandbox.health.setControls({
    error500Rate: 0,
    error503Rate: 0,
    perUserPerMinute: 300,
    clockOffsetMs: 0,
  });
});

async function run(participantId: string, name: string, dataTypes: string[], endDate: string) {
  const runId = await kit.startRun(participantId, name, dataTypes, endDate);
  return { runId, status: (await kit.finished(runId, 120_000)).status };
}

const rowsOf = (runId: string) =>
  runRows(kit.app.platform.objectStore, kit.app.extraction.bucketOf(kit.world.study.id), runId);

describe('Google answers with errors during a run', () => {
  it('500 and 503 on 40% of calls: completed, rows lost 0, duplicates 0', async (context) => {
    const participant = await kit.connected('faults.flaky@gmail.test');
    const types = ['activity_steps_intraday', 'heartrate_timeseries', 'sleep_log', 'profile'];
    const clean = await run(participant.id, 'Clean', types, '2026-11-03');
    kit.sandbox.health.setControls({ error500Rate: 0.2, error503Rate: 0.2 });
    try {
      const flaky = await run(participant.id, 'Flaky', types, '2026-11-03');
      const rows = compareRows(await rowsOf(clean.runId), await rowsOf(flaky.runId));
      reportFault(context, { fault: 'provider 500/503 (40%)', outcome: flaky.status, ...rows });
      expect(flaky.status).toBe('completed');
      expect(rows).toMatchObject({ rowsLost: 0, duplicates: 0 });
      expect(rows.rowsExpected).toBeGreaterThan(0);
    } finally {
      kit.sandbox.health.setControls({ error500Rate: 0, error503Rate: 0 });
    }
  }, 180_000);

  it('429 with Retry-After: completed, rows lost 0, duplicates 0', async (context) => {
    const participant = await kit.connected('faults.limited@gmail.test');
    const types = ['activity_steps_timeseries', 'heartrate_timeseries'];
    // Two calls a minute for this user, and Google's minute ends 5 s from now.
    const offset = (55_000 - (Date.now() % 60_000) + 60_000) % 60_000;
    kit.sandbox.health.setControls({ perUserPerMinute: 2, clockOffsetMs: offset });
    let limited: Awaited<ReturnType<typeof run>>;
    try {
      limited = await run(participant.id, 'Limited', types, '2026-11-02');
    } finally {
      kit.sandbox.health.setControls({ perUserPerMinute: 300, clockOffsetMs: 0 });
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
