import { createHash } from 'node:crypto';
import {
  AUTH_HARDENING_MESSAGES,
  DATA_TYPES,
  EXTRACTION_SERVER_MESSAGES,
  GOOGLE_HEALTH_READ_SCOPES,
} from '@research/contracts';
import { civilDayTotals, healthIdentity, utcOffsetAt } from '@research/sandbox';
import { parse } from 'csv-parse/sync';
import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  auditEvents,
  extractionJobs,
  extractionRuns,
  extractionTasks,
  wearableConnections,
} from '../../db/schema/index.js';
import { bearer, someAddress } from '../../test/auth-helpers.js';
import { type JobView, useExtractionKit } from '../../test/extraction-kit.js';
import { eventually } from '../../test/test-app.js';
import { accountWith } from '../../test/wearables-kit.js';

const kit = useExtractionKit();

const call = (options: InjectOptions) =>
  kit.app.inject({ remoteAddress: someAddress(), ...options });

async function start(token: string, payload: Record<string, unknown>) {
  return call({
    method: 'POST',
    url: '/api/data-extraction/extract-participant-data',
    headers: bearer(token),
    payload,
  });
}

/** Starts a run as the holder of `token` (200) and waits for its end: its id, run and jobs. */
async function runToEnd(token: string, payload: Record<string, unknown>) {
  const res = await start(token, payload);
  expect(res.statusCode, res.body).toBe(200);
  const { runId } = res.json() as { runId: string };
  const run = await finished(runId);
  return { runId, run, jobs: await kit.jobsOf(runId) };
}

const ownerRun = (payload: Record<string, unknown>) => runToEnd(kit.world.owner.token, payload);

/** One job's detail page as the holder of `token` sees it (200). */
async function jobDetail(token: string, jobId: string | undefined) {
  const res = await call({
    method: 'GET',
    url: `/api/studies/${kit.world.study.id}/extraction-jobs/${jobId}`,
    headers: bearer(token),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

/** Waits until the run's jobs are done and its files are written. */
async function finished(runId: string) {
  return eventually(async () => {
    const [run] = await kit.app.platform.db
      .select()
      .from(extractionRuns)
      .where(eq(extractionRuns.id, runId));
    return run && run.status !== 'running' ? run : undefined;
  }, 60_000);
}

const bucket = () => kit.app.extraction.bucketOf(kit.world.study.id);

async function readObject(key: string): Promise<Buffer> {
  const { body } = await kit.app.platform.objectStore.getObject(bucket(), key);
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** A raw heart-rate sample as the provider answers when asked for everything. */
interface WholeSample {
  dataSource: { device?: { displayName?: string }; platform?: string };
  heartRate: {
    sampleTime: {
      physicalTime: string;
      utcOffset: string;
      civilTime: {
        date: { year: number; month: number; day: number };
        time: { hours?: number; minutes?: number; seconds?: number };
      };
    };
    beatsPerMinute: string;
  };
}

async function csv(runId: string, dataType: string): Promise<Record<string, string>[]> {
  const text = (await readObject(`extractions/${runId}/${dataType}.csv`)).toString('utf8');
  return parse(text, { columns: true }) as Record<string, string>[];
}

describe('an extraction run against the sandbox', () => {
  const account = 'extract.one@gmail.test';
  let participant: { id: string; email: string };
  let runId: string;

  beforeAll(async () => {
    participant = await kit.connected(account);
    const res = await start(kit.world.owner.token, {
      participantIds: [participant.id],
      extractionName: 'Week with DST and travel',
      dataTypes: [
        'profile',
        'activity_steps_timeseries',
        'activity_steps_intraday',
        'heartrate_timeseries',
        'sleep_log',
      ],
      dateRange: { startDate: '2026-10-31', endDate: '2026-11-10', mode: 'range' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { runId: string; callsPlanned: number; jobs: JobView[] };
    runId = body.runId;
    // profile 3 + steps daily 1 + steps minutes 2 (11 days / 6) + resting HR 1 + HR daily 1 + sleep 1.
    expect(body.callsPlanned).toBe(9);
    expect(body.jobs).toHaveLength(1);
    await finished(runId);
  }, 90_000);

  it('completes the job with its calls counted and progress at 100 %', async () => {
    const [job] = await kit.jobsOf(runId);
    expect(job).toMatchObject({ status: 'completed', progress: 100, error: null });
    // The calls the plan above lists, one page each (a completed job reports its planned count
    // as done, so the count is checked against the plan, not against callsPlanned).
    expect(job?.callsDone).toBe(9);
  });

  it('writes daily steps equal to the sandbox’s civil-day totals, DST day included', async () => {
    const rows = await csv(runId, 'activity_steps_timeseries');
    expect(rows.map((r) => r.date)).toEqual([
      '2026-10-31',
      '2026-11-01',
      '2026-11-02',
      '2026-11-03',
      '2026-11-04',
      '2026-11-05',
      '2026-11-06',
      '2026-11-07',
      '2026-11-08',
      '2026-11-09',
      '2026-11-10',
    ]);
    for (const row of rows) {
      expect(Number(row.steps_count), row.date).toBe(civilDayTotals(account, row.date ?? '').steps);
      expect(row.participant_id).toBe(participant.id);
    }
  });

  it('writes minute steps with each point’s own offset and civil time (DST and time-zone change)', async () => {
    const rows = await csv(runId, 'activity_steps_intraday');
    const byDay = new Map<string, { steps: number; offsets: Set<string> }>();
    for (const row of rows) {
      const offset = Number(row.utc_offset_seconds);
      const local = new Date(Date.parse(row.timestamp_utc ?? '') + offset * 1000)
        .toISOString()
        .slice(0, 19);
      expect(row.civil_time).toBe(local);
      const day = (row.civil_time ?? '').slice(0, 10);
      const entry = byDay.get(day) ?? { steps: 0, offsets: new Set<string>() };
      entry.steps += Number(row.steps_count);
      entry.offsets.add(row.utc_offset_seconds ?? '');
      byDay.set(day, entry);
    }
    expect([...byDay.keys()].sort()[0]).toBe('2026-10-31');
    expect(byDay.get('2026-11-01')?.steps).toBe(civilDayTotals(account, '2026-11-01').steps);
    expect(byDay.get('2026-11-10')?.steps).toBe(civilDayTotals(account, '2026-11-10').steps);
    // Each point keeps its own offset: New York summer time, then winter time after the fall
    // back on 11-01, then Berlin after the flight on 11-10.
    for (const row of rows) {
      expect(Number(row.utc_offset_seconds), row.timestamp_utc).toBe(
        utcOffsetAt(Date.parse(row.timestamp_utc ?? '')),
      );
    }
    const all = new Set(rows.map((r) => r.utc_offset_seconds));
    expect([...all].sort()).toEqual(['-14400', '-18000', '3600']);
    expect([...(byDay.get('2026-11-10')?.offsets ?? [])].sort()).toEqual(['-18000', '3600']);
    const times = rows.map((r) => r.timestamp_utc ?? '');
    expect(times).toEqual([...times].sort());
  });

  it('writes profile, resting heart rate and sleep as the sandbox reports them', async () => {
    const [profile] = await csv(runId, 'profile');
    expect(profile).toMatchObject({
      participant_id: participant.id,
      health_user_id: healthIdentity(account).healthUserId,
      age_years: '41',
      time_zone: expect.any(String),
    });
    const heart = await csv(runId, 'heartrate_timeseries');
    const nov1 = heart.find((r) => r.date === '2026-11-01');
    expect(Number(nov1?.resting_heart_rate_bpm)).toBe(
      civilDayTotals(account, '2026-11-01').restingHeartRate,
    );
    const sleep = await csv(runId, 'sleep_log');
    const night = sleep.find((r) => r.date_of_sleep === '2026-11-01');
    const expected = civilDayTotals(account, '2026-11-01').sleep;
    expect(night).toMatchObject({
      start_time_utc: expected.startTime,
      end_time_utc: expected.endTime,
      minutes_in_sleep_period: String(expected.minutesInSleepPeriod),
    });
  });

  it('lists every file in the manifest with its SHA-256, and writes a data dictionary', async () => {
    const manifest = JSON.parse(
      (await readObject(`extractions/${runId}/manifest.json`)).toString(),
    ) as {
      provider: string;
      apiVersion: string;
      rowCounts: Record<string, number>;
      participants: {
        grantedScopes: string[];
        tasks: { requests: { url: string; fetchedAt: string }[] }[];
      }[];
      files: { key: string; sha256: string; bytes: number }[];
    };
    expect(manifest).toMatchObject({ provider: 'google-health', apiVersion: 'v4' });
    expect(manifest.rowCounts.activity_steps_timeseries).toBe(11);
    expect(manifest.participants[0]?.grantedScopes).toEqual(
      expect.arrayContaining([...GOOGLE_HEALTH_READ_SCOPES]),
    );
    const requests = manifest.participants[0]?.tasks.flatMap((t) => t.requests) ?? [];
    expect(requests).toHaveLength(9);
    expect(
      requests.some((r) => r.url.includes('/v4/users/me/dataTypes/steps/dataPoints:dailyRollUp')),
    ).toBe(true);
    // The minute steps were asked for as a partial response; the manifest keeps the exact request.
    const minuteSteps = requests.find((r) => r.url.includes('/dataTypes/steps/dataPoints?'));
    expect(new URL(minuteSteps?.url ?? 'http://x').searchParams.get('fields')).toBe(
      'dataPoints(dataSource(device/displayName,platform),steps(interval(startTime,startUtcOffset,civilStartTime),count)),nextPageToken',
    );
    // Only the wearables: no phone, no manual entry.
    expect(new URL(minuteSteps?.url ?? 'http://x').searchParams.get('dataSourceFamily')).toBe(
      'users/me/dataSourceFamilies/google-wearables',
    );
    expect(manifest.files.length).toBe(5 + 1 + 9);
    for (const file of manifest.files) {
      const data = await readObject(file.key);
      expect(createHash('sha256').update(data).digest('hex'), file.key).toBe(file.sha256);
      expect(data.length).toBe(file.bytes);
    }
    // Nothing else is left in the run's folder (the per-task parts are gone once joined).
    const listed = await kit.app.platform.objectStore.listObjects(bucket(), {
      prefix: `extractions/${runId}/`,
    });
    expect(listed.objects.map((o) => o.key).sort()).toEqual(
      [...manifest.files.map((f) => f.key), `extractions/${runId}/manifest.json`].sort(),
    );
    const dictionary = parse(
      (await readObject(`extractions/${runId}/data_dictionary.csv`)).toString(),
      {
        columns: true,
      },
    ) as Record<string, string>[];
    expect(
      dictionary.find(
        (d) => d.file === 'activity_steps_intraday.csv' && d.column === 'utc_offset_seconds',
      ),
    ).toBeDefined();
  });

  it('records the run in the audit log as data access', async () => {
    const events = await kit.app.platform.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, 'extraction.started'),
          eq(auditEvents.targetId, kit.world.study.id),
        ),
      );
    const event = events.find((e) => (e.details as { runId?: string }).runId === runId);
    expect(event?.actorId).toBe(kit.world.owner.user.id);
    expect(event?.details).toMatchObject({
      kind: 'data_access',
      participantIds: [participant.id],
      dateRange: { startDate: '2026-10-31', endDate: '2026-11-10' },
    });
  });

  it('re-running every task writes the same objects and rows, never duplicates', async () => {
    const before = new Map<string, string>();
    const keys = [
      'activity_steps_timeseries.csv',
      'activity_steps_intraday.csv',
      'sleep_log.csv',
      'heartrate_timeseries.csv',
    ];
    for (const key of keys) {
      before.set(
        key,
        createHash('sha256')
          .update(await readObject(`extractions/${runId}/${key}`))
          .digest('hex'),
      );
    }
    const [job] = await kit.app.platform.db
      .select()
      .from(extractionJobs)
      .where(eq(extractionJobs.runId, runId));
    const tasksBefore = await kit.app.platform.db
      .select()
      .from(extractionTasks)
      .where(eq(extractionTasks.runId, runId));
    // As if the worker died after the calls but before recording them: everything runs again.
    await kit.app.platform.db
      .update(extractionTasks)
      .set({ status: 'pending' })
      .where(eq(extractionTasks.runId, runId));
    await kit.app.platform.db
      .update(extractionJobs)
      .set({ status: 'running' })
      .where(eq(extractionJobs.runId, runId));
    await kit.app.platform.db
      .update(extractionRuns)
      .set({ status: 'running' })
      .where(eq(extractionRuns.id, runId));
    await kit.app.extraction.processJob(job?.id ?? '', true);
    await finished(runId);
    for (const key of keys) {
      const after = createHash('sha256')
        .update(await readObject(`extractions/${runId}/${key}`))
        .digest('hex');
      expect(after, key).toBe(before.get(key));
    }
    const tasksAfter = await kit.app.platform.db
      .select()
      .from(extractionTasks)
      .where(eq(extractionTasks.runId, runId));
    expect(tasksAfter).toHaveLength(tasksBefore.length);
    expect(tasksAfter.flatMap((t) => t.outputKeys).sort()).toEqual(
      tasksBefore.flatMap((t) => t.outputKeys).sort(),
    );
    expect(tasksAfter.every((t) => t.attempts === 2)).toBe(true);
    const listed = await kit.app.platform.objectStore.listObjects(bucket(), {
      prefix: `extractions/${runId}/raw/`,
    });
    expect(listed.objects).toHaveLength(9);
  }, 60_000);

  it('finalising tasks whose parts are gone (an older server ran them) tidies the raw pages to the same files', async () => {
    const keys = ['activity_steps_intraday.csv', 'sleep_log.csv', 'heartrate_timeseries.csv'];
    const hashOf = async (key: string) =>
      createHash('sha256')
        .update(await readObject(`extractions/${runId}/${key}`))
        .digest('hex');
    const before = await Promise.all(keys.map(hashOf));
    expect(
      (await readObject(`extractions/${runId}/heartrate_timeseries.csv`)).toString().split('\n')
        .length,
    ).toBeGreaterThan(2);
    // The run's parts were deleted when it completed; finalising again can only use raw pages.
    await kit.app.platform.db
      .update(extractionRuns)
      .set({ status: 'running' })
      .where(eq(extractionRuns.id, runId));
    await kit.app.extraction.finalize(runId);
    expect(await Promise.all(keys.map(hashOf))).toEqual(before);
  }, 60_000);
});

describe('all 12 types', () => {
  it('fetch and tidy for one day: every task completes with rows, calls as planned', async () => {
    const account = 'extract.all@gmail.test';
    const participant = await kit.connected(account);
    const { runId, jobs } = await ownerRun({
      participantId: participant.id,
      extractionName: 'All types',
      dataTypes: [...DATA_TYPES],
      dateRange: { startDate: '2026-11-10', endDate: '2026-11-10', mode: 'single' },
    });
    const detail = await jobDetail(kit.world.owner.token, jobs[0]?.id);
    const body = detail.json() as {
      job: JobView;
      tasks: {
        dataType: string;
        status: string;
        rows: number;
        callsDone: number;
        error: string | null;
      }[];
    };
    expect(body.job.status, JSON.stringify(body.tasks.filter((t) => t.error))).toBe('completed');
    const totals = civilDayTotals(account, '2026-11-10');
    // The plan's minimum for one day is 29 calls (raw heart rate estimated at 3 pages). Counted
    // independently: profile 3, activity summary 9, three time series 1 each, minute steps,
    // minute calories, minute heart rate and sleep 1 each, a settings call (the time zone) for
    // each of the two minute roll-ups, heart-rate summary 3 and time series 2, and the raw heart
    // rate of the day in pages of 10,000.
    expect(body.job.callsDone).toBe(26 + Math.ceil(totals.heartRateSamples / 10_000));
    expect(body.job.callsDone).toBeLessThanOrEqual(Math.ceil(29 * 1.1));
    const rows = Object.fromEntries(body.tasks.map((t) => [t.dataType, t.rows]));
    expect(rows).toMatchObject({
      profile: 1,
      activity_summary: 1,
      activity_steps_timeseries: 7,
      activity_calories_timeseries: 7,
      activity_distance_timeseries: 7,
      heartrate_summary: 1,
      heartrate_timeseries: 7,
      heartrate_intraday_1sec: totals.heartRateSamples,
      heartrate_intraday_1min: 1440,
      activity_calories_intraday: 1440,
      sleep_log: 1,
    });
    expect(rows.activity_steps_intraday).toBeGreaterThan(0);
    const [summary] = await csv(runId, 'activity_summary');
    expect(summary).toMatchObject({
      date: '2026-11-10',
      steps_count: String(totals.steps),
      distance_mm: String(totals.distanceMm),
      floors_count: String(totals.floors),
    });
    expect(Number(summary?.total_calories_kcal)).toBeCloseTo(totals.totalKcal, 1);
    const [hrSummary] = await csv(runId, 'heartrate_summary');
    expect(Number(hrSummary?.resting_heart_rate_bpm)).toBe(totals.restingHeartRate);
    const calories = await csv(runId, 'activity_calories_timeseries');
    expect(Number(calories.find((r) => r.date === '2026-11-10')?.total_calories_kcal)).toBeCloseTo(
      totals.totalKcal,
      1,
    );
    // Raw heart rate is fetched as a partial response (no civil time; the device named); its rows
    // are exactly the provider's whole answer for the day, civil time included, on the day of
    // the flight to Berlin (the offset changes mid-day).
    const token = await kit.app.services.wearables.accessToken(participant.id);
    const whole: string[][] = [];
    let pageToken: string | undefined;
    do {
      const params = new URLSearchParams({
        filter: `heart_rate.sample_time.civil_time >= "2026-11-10" AND heart_rate.sample_time.civil_time < "2026-11-11"`,
        pageSize: '10000',
        ...(pageToken ? { pageToken } : {}),
      });
      const page = (await (
        await fetch(
          `${kit.sandbox.health.urls.apiBaseUrl}/v4/users/me/dataTypes/heart-rate/dataPoints?${params}`,
          { headers: { authorization: `Bearer ${token}` } },
        )
      ).json()) as { dataPoints?: WholeSample[]; nextPageToken?: string };
      for (const { dataSource, heartRate } of page.dataPoints ?? []) {
        const { date, time } = heartRate.sampleTime.civilTime;
        const two = (n = 0) => String(n).padStart(2, '0');
        whole.push([
          participant.id,
          heartRate.sampleTime.physicalTime,
          heartRate.sampleTime.utcOffset.replace(/s$/, ''),
          `${date.year}-${two(date.month)}-${two(date.day)}T${two(time.hours)}:${two(time.minutes)}:${two(time.seconds)}`,
          heartRate.beatsPerMinute,
          dataSource.device?.displayName ?? dataSource.platform ?? '',
        ]);
      }
      pageToken = page.nextPageToken;
    } while (pageToken);
    const samples = await csv(runId, 'heartrate_intraday_1sec');
    expect(new Set(whole.map((row) => row[2])).size).toBe(2);
    expect(samples.map((r) => Object.values(r))).toEqual(whole.reverse());
  }, 90_000);
});

describe('per-participant outcomes', () => {
  it('skips a type whose scope was not granted and reports why; the rest completes', async () => {
    const activityOnly = GOOGLE_HEALTH_READ_SCOPES.filter((s) =>
      s.includes('activity_and_fitness'),
    );
    const participant = await kit.connected('extract.partial@gmail.test', activityOnly);
    const { runId, jobs } = await runToEnd(kit.world.collaborator.token, {
      participantId: participant.id,
      extractionName: 'Partial grant',
      dataTypes: ['activity_steps_timeseries', 'sleep_log'],
      dateRange: { startDate: '2026-11-05', endDate: '2026-11-05', mode: 'single' },
    });
    const detail = await jobDetail(kit.world.collaborator.token, jobs[0]?.id);
    const body = detail.json() as {
      job: JobView;
      tasks: { dataType: string; status: string; skipReason: string | null; rows: number }[];
      runFiles: string[];
    };
    expect(body.job.status).toBe('completed');
    // Completed with a gap: the list and the detail both name the type the grant lacked.
    expect(body.job.skippedDataTypes).toEqual(['sleep_log']);
    expect(jobs[0]?.skippedDataTypes).toEqual(['sleep_log']);
    expect(body.tasks).toEqual([
      expect.objectContaining({
        dataType: 'activity_steps_timeseries',
        status: 'completed',
        rows: 7,
      }),
      expect.objectContaining({
        dataType: 'sleep_log',
        status: 'skipped',
        skipReason: 'Scope not granted: Sleep',
      }),
    ]);
    expect(body.runFiles).toContain(`extractions/${runId}/manifest.json`);
    // Single date: the time series is the 7 days ending on it.
    const rows = await csv(runId, 'activity_steps_timeseries');
    expect(rows.map((r) => r.date)).toEqual([
      '2026-10-30',
      '2026-10-31',
      '2026-11-01',
      '2026-11-02',
      '2026-11-03',
      '2026-11-04',
      '2026-11-05',
    ]);
    expect(await csv(runId, 'sleep_log')).toEqual([]);
  }, 60_000);

  it('a dead grant fails only that participant, marks it for reauthorization and mails them', async () => {
    const dead = await kit.connected('extract.dead@gmail.test');
    const alive = await kit.connected('extract.alive@gmail.test');
    kit.sandbox.health.revoke('extract.dead@gmail.test');
    // The stored access token has expired, so the engine must refresh: Google says invalid_grant.
    await kit.app.platform.db
      .update(wearableConnections)
      .set({ accessExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(wearableConnections.participantId, dead.id));
    const { runId, jobs } = await ownerRun({
      participantIds: [dead.id, alive.id],
      extractionName: 'One dead grant',
      dataTypes: ['activity_steps_timeseries'],
      dateRange: { startDate: '2026-11-05', endDate: '2026-11-06', mode: 'range' },
    });
    expect(jobs.find((j) => j.participantId === dead.id)).toMatchObject({
      status: 'failed',
      error: EXTRACTION_SERVER_MESSAGES.needsReauthorization,
    });
    expect(jobs.find((j) => j.participantId === alive.id)).toMatchObject({
      status: 'completed',
      progress: 100,
    });
    const [connection] = await kit.app.platform.db
      .select()
      .from(wearableConnections)
      .where(eq(wearableConnections.participantId, dead.id));
    expect(connection?.status).toBe('needs_reauthorization');
    await kit.sandbox.waitForMessage({ to: dead.email }, 10_000);
    const rows = await csv(runId, 'activity_steps_timeseries');
    expect(new Set(rows.map((r) => r.participant_id))).toEqual(new Set([alive.id]));
  }, 60_000);

  it('a grant revoked at Google while its access token still looks valid fails the job at once', async () => {
    const revoked = await kit.connected('extract.revoked@gmail.test');
    kit.sandbox.health.revoke('extract.revoked@gmail.test');
    const began = Date.now();
    const res = await start(kit.world.owner.token, {
      participantIds: [revoked.id],
      extractionName: 'Revoked at Google',
      dataTypes: ['activity_steps_timeseries', 'heartrate_timeseries', 'sleep_log'],
      dateRange: { startDate: '2026-11-05', endDate: '2026-11-06', mode: 'range' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { runId } = res.json() as { runId: string };
    const run = await finished(runId);
    expect(run.status).toBe('failed');
    const [job] = await kit.jobsOf(runId);
    expect(job).toMatchObject({
      status: 'failed',
      error: EXTRACTION_SERVER_MESSAGES.needsReauthorization,
    });
    // The 401 leads to one refresh, which Google answers with invalid_grant: no retry helps.
    expect(Date.now() - began).toBeLessThan(10_000);
  }, 60_000);

  it('rides out 503s from the provider (retry with back-off) and still writes every row', async () => {
    const participant = await kit.connected('extract.flaky@gmail.test');
    kit.sandbox.health.setControls({ error503Rate: 0.5 });
    try {
      const {
        runId,
        jobs: [job],
      } = await ownerRun({
        participantId: participant.id,
        extractionName: 'Flaky provider',
        dataTypes: ['activity_steps_timeseries', 'heartrate_timeseries'],
        dateRange: { startDate: '2026-11-01', endDate: '2026-11-03', mode: 'range' },
      });
      expect(job?.status).toBe('completed');
      const rows = await csv(runId, 'activity_steps_timeseries');
      expect(rows.map((r) => Number(r.steps_count))).toEqual(
        ['2026-11-01', '2026-11-02', '2026-11-03'].map(
          (d) => civilDayTotals('extract.flaky@gmail.test', d).steps,
        ),
      );
    } finally {
      kit.sandbox.health.setControls({ error503Rate: 0 });
    }
  }, 60_000);
});

describe('Google’s own 429', () => {
  it('waits as Retry-After says and completes, without losing a call', async () => {
    const account = 'extract.limited@gmail.test';
    const participant = await kit.connected(account);
    // Google allows this user 2 calls a minute here, and its minute ends 5 s from now.
    const offset = (55_000 - (Date.now() % 60_000) + 60_000) % 60_000;
    kit.sandbox.health.setControls({ perUserPerMinute: 2, clockOffsetMs: offset });
    try {
      const started = Date.now();
      const {
        runId,
        jobs: [job],
      } = await ownerRun({
        participantId: participant.id,
        extractionName: 'Rate limited',
        dataTypes: ['activity_steps_timeseries', 'heartrate_timeseries'],
        dateRange: { startDate: '2026-11-01', endDate: '2026-11-02', mode: 'range' },
      });
      expect(job).toMatchObject({ status: 'completed', callsDone: 3 });
      // The third call had to wait for Google's next minute.
      expect(Date.now() - started).toBeGreaterThan(3_500);
      const rows = await csv(runId, 'heartrate_timeseries');
      expect(rows.map((r) => Number(r.resting_heart_rate_bpm))).toEqual(
        ['2026-11-01', '2026-11-02'].map((d) => civilDayTotals(account, d).restingHeartRate),
      );
    } finally {
      kit.sandbox.health.setControls({ perUserPerMinute: 300, clockOffsetMs: 0 });
    }
  }, 90_000);
});

describe('who may extract', () => {
  it('owner and collaborator start runs; others are refused, and nothing is queued for them', async () => {
    const participant = await kit.connected('extract.roles@gmail.test');
    const payload = {
      participantId: participant.id,
      extractionName: 'Roles',
      dataTypes: ['profile'],
      dateRange: { startDate: '2026-11-05', endDate: '2026-11-05' },
    };
    const pending = await accountWith(kit.app, 'pending');
    const outsider = await accountWith(kit.app, 'approved');
    const cases: [string | null, number][] = [
      [null, 401],
      [pending.token, 403],
      [kit.world.master.token, 403],
      [outsider.token, 404],
      [kit.world.owner.token, 200],
      [kit.world.collaborator.token, 200],
    ];
    for (const [token, status] of cases) {
      for (const url of [
        '/api/data-extraction/extract-participant-data',
        '/api/fitbit/extract-data',
      ]) {
        const res = await call({
          method: 'POST',
          url,
          ...(token ? { headers: bearer(token) } : {}),
          payload,
        });
        expect(res.statusCode, `${url} ${status} ${res.body}`).toBe(status);
      }
      const list = await call({
        method: 'GET',
        url: `/api/studies/${kit.world.study.id}/extraction-jobs`,
        ...(token ? { headers: bearer(token) } : {}),
      });
      expect(list.statusCode).toBe(status === 404 ? 403 : status);
    }
    const runs = await kit.app.platform.db
      .select()
      .from(extractionRuns)
      .where(eq(extractionRuns.name, 'Roles'));
    expect(runs).toHaveLength(4);
  });

  it('validates the request with the product’s rules', async () => {
    const participant = await kit.connected('extract.valid@gmail.test');
    const base = {
      participantId: participant.id,
      extractionName: 'Valid',
      dataTypes: ['profile'],
      dateRange: { startDate: '2026-11-05', endDate: '2026-11-06' },
    };
    const bad = [
      { ...base, extractionName: '   ' },
      { ...base, dataTypes: [] },
      { ...base, dataTypes: ['steps'] },
      { ...base, dateRange: { startDate: '2026-11-06', endDate: '2026-11-05' } },
      { ...base, participantId: undefined },
    ];
    for (const payload of bad) {
      const res = await start(kit.world.owner.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    // Half a surrogate pair alone (JSON `"\ud800"`): a clear 400, and no run is stored.
    for (const extractionName of ['Run \ud800', '\udc00 run']) {
      const res = await start(kit.world.owner.token, { ...base, extractionName });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({
        success: false,
        code: 'VALIDATION_ERROR',
        message: AUTH_HARDENING_MESSAGES.loneSurrogate,
      });
      const runs = await kit.app.platform.db
        .select()
        .from(extractionRuns)
        .where(eq(extractionRuns.name, extractionName));
      expect(runs).toEqual([]);
    }
    const notConnected = await kit.world.addParticipant();
    const res = await start(kit.world.owner.token, { ...base, participantId: notConnected.id });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message: EXTRACTION_SERVER_MESSAGES.participantNotSelectable,
    });
  });
});

describe('the estimate before a start', () => {
  const estimate = (token: string | null, payload: Record<string, unknown>) =>
    call({
      method: 'POST',
      url: `/api/studies/${kit.world.study.id}/extraction-estimate`,
      ...(token ? { headers: bearer(token) } : {}),
      payload,
    });

  it('gives the calls a start plans and seconds for a small run, to members only', async () => {
    const participant = await kit.connected('extract.estimate@gmail.test');
    const selection = {
      participantIds: [participant.id],
      dataTypes: ['activity_steps_timeseries', 'heartrate_timeseries', 'sleep_log'],
      dateRange: { startDate: '2026-11-01', endDate: '2026-11-03', mode: 'range' },
    };
    const res = await estimate(kit.world.collaborator.token, selection);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { calls: number; seconds: { min: number; max: number } };
    // The old formula said 1 × 3 × 3 = 9 calls and 0.9–1.8 minutes.
    expect(body.calls).toBe(4);
    expect(body.seconds.max).toBeLessThan(10);
    const started = await start(kit.world.owner.token, {
      ...selection,
      extractionName: 'Estimated',
    });
    expect(started.json()).toMatchObject({ callsPlanned: body.calls });

    const outsider = await accountWith(kit.app, 'approved');
    expect((await estimate(null, selection)).statusCode).toBe(401);
    expect((await estimate(outsider.token, selection)).statusCode).toBe(403);
    const ofNoStudy = { ...selection, participantIds: ['P0000000000000abc'] };
    expect((await estimate(kit.world.owner.token, ofNoStudy)).statusCode).toBe(404);
    const backwards = {
      ...selection,
      dateRange: { startDate: '2026-11-03', endDate: '2026-11-01', mode: 'range' },
    };
    const refused = await estimate(kit.world.owner.token, backwards);
    expect(refused.statusCode).toBe(400);
    expect((refused.json() as { message: string }).message).toContain(
      EXTRACTION_SERVER_MESSAGES.endBeforeStart,
    );
  });
});

describe('a worker killed mid-run', () => {
  it('resumes at the unfinished task: finished tasks are not redone, no row is lost or doubled', async () => {
    const account = 'extract.killed@gmail.test';
    const participant = await kit.connected(account);
    let calls = 0;
    // A second worker whose process "dies" on its third request: it never answers again.
    // One task at a time, so the third request is the second page of the heart rate.
    const doomed = kit.ownEngine({
      fetch: (input, init) => (++calls >= 3 ? new Promise(() => {}) : fetch(input, init)),
    });
    const started = await kit.startOn(doomed, {
      name: 'Killed worker',
      dataTypes: ['activity_steps_timeseries', 'heartrate_intraday_1sec'],
      day: '2026-11-01',
      participantIds: [participant.id],
    });
    const jobId = started.jobs[0]?.id ?? '';
    void doomed.processJob(jobId, false);
    const tasksOf = () =>
      kit.app.platform.db
        .select()
        .from(extractionTasks)
        .where(eq(extractionTasks.jobId, jobId))
        .orderBy(extractionTasks.seq);
    await eventually(async () => {
      const [, heart] = await tasksOf();
      return heart?.status === 'running' && heart.callsDone === 1;
    });
    // Mid-run, the job shows its progress: daily steps (1 call) done, and the first of the
    // heart rate's 3 estimated pages.
    const [midway] = (await kit.jobsOf()).filter((j) => j.id === jobId);
    expect(midway).toMatchObject({
      status: 'running',
      callsDone: 2,
      callsPlanned: 4,
      progress: 50,
    });
    // The worker is dead: it renews its lease no more, and a minute later the lease has lapsed.
    doomed.halt();
    await kit.app.platform.db
      .update(extractionJobs)
      .set({ leaseExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(extractionJobs.id, jobId));
    // The queue hands the job to a live worker (here: this app's engine).
    await kit.app.extraction.processJob(jobId, false);
    await finished(started.runId);
    const [steps, heart] = await tasksOf();
    expect(steps).toMatchObject({ status: 'completed', attempts: 1 });
    expect(heart).toMatchObject({ status: 'completed', attempts: 2 });
    const rows = await csv(started.runId, 'heartrate_intraday_1sec');
    expect(rows).toHaveLength(civilDayTotals(account, '2026-11-01').heartRateSamples);
    expect(new Set(rows.map((r) => r.timestamp_utc)).size).toBe(rows.length);
    const [job] = (await kit.jobsOf()).filter((j) => j.id === jobId);
    expect(job).toMatchObject({ status: 'completed', progress: 100 });
    // Daily steps, and the day's samples in pages of 10,000; the dead worker's page is not kept.
    const pages = Math.ceil(civilDayTotals(account, '2026-11-01').heartRateSamples / 10_000);
    expect(heart?.callsDone).toBe(pages);
    expect(job?.callsDone).toBe(1 + pages);
  }, 60_000);
});

describe('a participant’s job', () => {
  /** An engine of its own whose calls take 40 ms, counting how many are in flight. */
  function countingEngine(callsPerParticipant: number) {
    let inFlight = 0;
    const seen = { most: 0 };
    const waiting: (() => void)[] = [];
    // Nothing is queued: this engine's work happens in processJob below.
    const engine = kit.ownEngine({
      callsPerParticipant,
      // A call waits (up to 2 s) until the allowed number are in flight, so how many the engine
      // runs side by side shows whatever the machine's speed.
      fetch: async (input, init) => {
        inFlight += 1;
        seen.most = Math.max(seen.most, inFlight);
        try {
          if (inFlight >= callsPerParticipant) {
            for (const release of waiting.splice(0)) release();
          } else {
            await new Promise<void>((release) => {
              waiting.push(release);
              setTimeout(release, 2_000);
            });
          }
          return await fetch(input, init);
        } finally {
          inFlight -= 1;
        }
      },
    });
    return { engine, seen };
  }

  it('works on several of the participant’s types at once, at most EXTRACTION_CALLS_PER_PARTICIPANT calls', async () => {
    const account = 'extract.lanes@gmail.test';
    const participant = await kit.connected(account);
    const { engine, seen } = countingEngine(3);
    const started = await kit.startOn(engine, {
      name: 'Side by side',
      dataTypes: [
        'activity_steps_timeseries',
        'activity_calories_timeseries',
        'activity_distance_timeseries',
        'heartrate_summary',
        'heartrate_timeseries',
      ],
      day: '2026-11-03',
      participantIds: [participant.id],
    });
    await engine.processJob(started.jobs[0]?.id ?? '', false);
    expect(seen.most).toBe(3);
    const rows = await csv(started.runId, 'activity_distance_timeseries');
    expect(rows.map((r) => Number(r.distance_mm))).toEqual(
      rows.map((r) => civilDayTotals(account, r.date ?? '').distanceMm),
    );
    expect(rows).toHaveLength(7);
  }, 60_000);

  it('the last one to end writes the run’s files before it ends, without a queued job', async () => {
    const participant = await kit.connected('extract.inline@gmail.test');
    const { engine } = countingEngine(1);
    const started = await kit.startOn(engine, {
      name: 'Finalised inline',
      dataTypes: ['activity_steps_timeseries'],
      day: '2026-11-03',
      participantIds: [participant.id],
    });
    await engine.processJob(started.jobs[0]?.id ?? '', false);
    const [run] = await kit.app.platform.db
      .select()
      .from(extractionRuns)
      .where(eq(extractionRuns.id, started.runId));
    expect(run?.status).toBe('completed');
    expect(run?.files).toContain(`extractions/${started.runId}/manifest.json`);
    expect(await csv(started.runId, 'activity_steps_timeseries')).toHaveLength(7);
  }, 60_000);
});
