import type { DataType } from '@research/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { extractionJobs, extractionRuns } from '../../db/schema/index.js';
import { bearer, someAddress } from '../../test/auth-helpers.js';
import { useExtractionKit } from '../../test/extraction-kit.js';
import { eventually } from '../../test/test-app.js';

/**
 * Calibration of the run estimate (estimate.ts), not a test: off unless CALIBRATE_ESTIMATE=1.
 * Runs a few selections through the app's queue against the sandbox and prints, for each, the
 * estimate and what happened (each job's calls and time, the run's time from start to files):
 *
 *   CALIBRATE_ESTIMATE=1 npx vitest run src/modules/extraction/estimate-calibration.test.ts
 */
describe.runIf(process.env.CALIBRATE_ESTIMATE === '1')('run estimate calibration', () => {
  const kit = useExtractionKit();

  it('prints estimate and measured time per selection', async () => {
    const people = [];
    for (let i = 0; i < 3; i++) people.push(await kit.connected(`calibrate.${i}@gmail.test`));
    const cases: [string, number, DataType[], string, string][] = [
      ['1 participant, profile, 1 day', 1, ['profile'], '2026-11-05', '2026-11-05'],
      [
        '2 participants, 3 daily types, 3 days',
        2,
        ['activity_steps_timeseries', 'heartrate_timeseries', 'sleep_log'],
        '2026-11-01',
        '2026-11-03',
      ],
      [
        '1 participant, steps per minute, 30 days',
        1,
        ['activity_steps_intraday'],
        '2026-10-01',
        '2026-10-30',
      ],
      [
        '3 participants, 3 per-minute types, 14 days',
        3,
        ['heartrate_intraday_1min', 'activity_steps_intraday', 'activity_calories_intraday'],
        '2026-10-01',
        '2026-10-14',
      ],
      [
        '1 participant, 2 summaries, 30 days',
        1,
        ['activity_summary', 'heartrate_summary'],
        '2026-10-01',
        '2026-10-30',
      ],
    ];
    for (const [name, n, dataTypes, startDate, endDate] of cases) {
      const selection = {
        participantIds: people.slice(0, n).map((p) => p.id),
        dataTypes,
        dateRange: { startDate, endDate, mode: 'range' as const },
      };
      const estimate = await kit.app.inject({
        method: 'POST',
        url: `/api/studies/${kit.world.study.id}/extraction-estimate`,
        remoteAddress: someAddress(),
        headers: bearer(kit.world.owner.token),
        payload: selection,
      });
      const began = Date.now();
      const res = await kit.app.inject({
        method: 'POST',
        url: '/api/data-extraction/extract-participant-data',
        remoteAddress: someAddress(),
        headers: bearer(kit.world.owner.token),
        payload: { ...selection, extractionName: name },
      });
      expect(res.statusCode, res.body).toBe(200);
      const { runId } = res.json() as { runId: string };
      await eventually(async () => {
        const [run] = await kit.app.platform.db
          .select()
          .from(extractionRuns)
          .where(eq(extractionRuns.id, runId));
        return run && run.status !== 'running' ? run : undefined;
      }, 300_000);
      const wall = Date.now() - began;
      const jobs = await kit.app.platform.db
        .select()
        .from(extractionJobs)
        .where(eq(extractionJobs.runId, runId));
      const perJob = jobs.map(
        (j) =>
          `${j.callsDone} calls in ${(j.completedAt?.getTime() ?? 0) - (j.startedAt?.getTime() ?? 0)} ms`,
      );
      console.log(`${name}: estimate ${estimate.body}; run ${wall} ms; jobs: ${perJob.join(', ')}`);
    }
  }, 600_000);
});
