import { randomBytes } from 'node:crypto';
import {
  ADHERENCE_MESSAGES,
  type AdherenceResponse,
  bucketNameForStudy,
  HEART_RATE_CHART_MAX_POINTS,
  type HeartRateDayResponse,
  type ParticipantChartsResponse,
} from '@research/contracts';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  datasetPartitions,
  participants,
  studies,
  wearableConnections,
} from '../../db/schema/index.js';
import { sandboxAccount } from '../../test/dataset-kit.js';
import { memberStatus, STUDY_ROLES, studyRoleMatrix } from '../../test/study-role-matrix.js';
import { useTestApp } from '../../test/test-app.js';
import { createDataset } from '../dataset/index.js';

/**
 * The heat map, the charts and a day of heart rate, read from a dataset written by the dataset
 * module itself (pages from the sandbox's Google Health): each ledger state as a cell, the days
 * before enrolment in the participant's zone, the wear rule, reasons, and who may ask.
 */
describe('adherence', () => {
  const t = useTestApp();
  const ZONE = 'America/New_York';
  const TRIGGER = { kind: 'sweep' } as const;
  let send: Awaited<ReturnType<typeof studyRoleMatrix>>['send'];
  let studyId: string;
  let day: Awaited<ReturnType<typeof sandboxAccount>>;
  const ids = { a: '', b: '', c: '' };

  const dataset = () =>
    createDataset({
      db: t.app.platform.db,
      objectStore: t.app.platform.objectStore,
      bucketOf: bucketNameForStudy,
    });
  const write = async (participantId: string, type: Parameters<typeof day>[0], date: string) =>
    dataset().writePartition({
      studyId,
      participantId,
      type,
      date,
      timeZone: ZONE,
      rawPages: await day(type, date),
      trigger: TRIGGER,
    });
  const mark = (
    participantId: string,
    types: Parameters<typeof day>[0][],
    date: string,
    state: 'failed' | 'scope_missing' | 'revoked' | 'deleted_at_source',
    reason: string,
  ) =>
    dataset().markPartitions(
      { studyId, participantId, types, dates: [date], timeZone: ZONE },
      state,
      reason,
    );
  const participant = async (enrolledAt: string, firstName: string) => {
    const id = `P${randomBytes(8).toString('hex')}`;
    await t.app.platform.db.insert(participants).values({
      id,
      studyId,
      email: `${id.toLowerCase()}@example.org`,
      firstName,
      enrolledAt: new Date(enrolledAt),
    });
    return id;
  };
  const heatMap = async (query = 'from=2026-03-03&to=2026-03-10') => {
    const res = await send('owner', 'GET', `/api/studies/${studyId}/adherence?${query}`);
    expect(res.statusCode).toBe(200);
    return res.json() as AdherenceResponse;
  };

  beforeAll(async () => {
    ({ send, studyId } = await studyRoleMatrix(t.app, 'invited'));
    day = await sandboxAccount(
      t.sandbox as NonNullable<typeof t.sandbox>,
      t.config,
      'adherence.one@gmail.test',
    );
    // A: enrolled 22:00 on Mar 5 in New York (Mar 6 in UTC): Mar 5 is their first day.
    ids.a = await participant('2026-03-06T03:00:00Z', 'Ada');
    // B: enrolled 23:30 on Mar 7 in New York, the night before the clocks went forward.
    ids.b = await participant('2026-03-08T04:30:00Z', 'Ben');
    // C: enrolled long before, never collected.
    ids.c = await participant('2026-01-01T12:00:00Z', 'Cy');

    await write(ids.a, 'heartrate_intraday_1sec', '2026-03-05');
    await write(ids.a, 'activity_summary', '2026-03-05');
    await write(ids.a, 'sleep_log', '2026-03-05');
    await mark(ids.a, ['heartrate_intraday_1sec'], '2026-03-06', 'failed', 'Google answered 503');
    await write(ids.a, 'activity_summary', '2026-03-07');
    await mark(ids.a, ['sleep_log'], '2026-03-07', 'revoked', 'Access withdrawn');
    await mark(
      ids.a,
      ['activity_calories_timeseries', 'activity_distance_timeseries'],
      '2026-03-09',
      'scope_missing',
      'Scope not granted',
    );
    await mark(
      ids.a,
      ['activity_calories_timeseries'],
      '2026-03-09',
      'failed',
      'Google answered 500',
    );
    await write(ids.b, 'heartrate_intraday_1sec', '2026-03-08');
    await mark(ids.b, ['heartrate_intraday_1sec'], '2026-03-09', 'deleted_at_source', 'Deleted');
  }, 120_000);

  it('maps each participant-day of the ledger to a cell, in the participant’s zone', async () => {
    const body = await heatMap();
    expect(body.days).toEqual([
      '2026-03-03',
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
      '2026-03-08',
      '2026-03-09',
      '2026-03-10',
    ]);
    const byId = new Map(body.participants.map((p) => [p.id, p]));
    expect(body.participants.map((p) => p.id)).toEqual([...Object.values(ids)].sort());
    const a = byId.get(ids.a);
    expect(a?.states).toEqual([
      'not_enrolled',
      'not_enrolled',
      'complete',
      'failed',
      // No heart rate: the activity summary's data tells more than the revoked sleep.
      'complete',
      'not_collected',
      // Only failed and scope_missing rows: the scope declined says more.
      'scope_missing',
      'not_collected',
    ]);
    expect(a?.reasons).toEqual({ '3': 'Google answered 503', '6': 'Scope not granted' });
    expect(a?.wearMinutes[2]).toBeGreaterThan(0);
    expect(a?.wearMinutes[4]).toBeNull();
    expect(a?.steps[2]).toBeGreaterThan(0);
    expect(a?.steps[4]).toBeGreaterThan(0);
    const b = byId.get(ids.b);
    // Mar 7 is B's enrolment day in New York (Mar 8 in UTC); Mar 8 is 23 hours long there.
    expect(b?.states.slice(3)).toEqual([
      'not_enrolled',
      'not_collected',
      'complete',
      'deleted_at_source',
      'not_collected',
    ]);
    expect(b?.wearMinutes[5]).toBeLessThanOrEqual(23 * 60);
    expect(b?.reasons).toEqual({ '6': 'Deleted' });
    expect(byId.get(ids.c)?.states.every((s) => s === 'not_collected')).toBe(true);
    expect(body.summary.enrolled).toBe(3);
  });

  it('counts valid days under the study’s wear rule over the days since enrolment', async () => {
    const wear = (await heatMap()).participants.find((p) => p.id === ids.a)?.wearMinutes[2] ?? 0;
    const setHours = (hours: number) =>
      t.app.platform.db
        .update(studies)
        .set({
          settings: sql`${studies.settings} || ${JSON.stringify({ validDayMinHours: hours })}::jsonb`,
        })
        .where(eq(studies.id, studyId));
    await setHours(Math.floor(wear / 60));
    let body = await heatMap();
    let a = body.participants.find((p) => p.id === ids.a);
    expect(body.rule.validDayMinHours).toBe(Math.floor(wear / 60));
    expect(a).toMatchObject({ validDays: 1, eligibleDays: 6 });
    await setHours(Math.floor(wear / 60) + 1);
    body = await heatMap();
    a = body.participants.find((p) => p.id === ids.a);
    expect(a).toMatchObject({ validDays: 0, eligibleDays: 6 });
    // B: 4 days from Mar 7; C: all 8.
    expect(body.participants.find((p) => p.id === ids.c)?.eligibleDays).toBe(8);
    await setHours(10);
  });

  it('flags connected participants without a recent sync, as the study stats count them', async () => {
    const db = t.app.platform.db;
    const now = Date.now();
    await db.insert(wearableConnections).values([
      {
        participantId: ids.a,
        studyId,
        healthUserId: 'h-a',
        status: 'active',
        connectedAt: new Date(now - 10 * 86_400_000),
      },
      {
        participantId: ids.b,
        studyId,
        healthUserId: 'h-b',
        status: 'active',
        connectedAt: new Date(now - 3_600_000),
      },
      {
        participantId: ids.c,
        studyId,
        healthUserId: 'h-c',
        status: 'needs_reauthorization',
        connectedAt: new Date(now - 30 * 86_400_000),
      },
    ]);
    // A's device synced three days ago with its battery at 84 %.
    await t.app.services.wearables.recordDeviceSync(
      ids.a,
      new Date(now - 3 * 86_400_000 - 60_000),
      [{ lastSyncTime: new Date(now - 3 * 86_400_000 - 60_000).toISOString(), batteryLevel: 84 }],
    );
    const body = await heatMap();
    const byId = new Map(body.participants.map((p) => [p.id, p]));
    expect(byId.get(ids.a)).toMatchObject({
      connection: 'connected',
      batteryLevel: 84,
      daysWithoutSync: 3,
      atRisk: true,
    });
    expect(byId.get(ids.b)).toMatchObject({
      connection: 'connected',
      daysWithoutSync: null,
      atRisk: false,
    });
    expect(byId.get(ids.c)).toMatchObject({ connection: 'needs_reauthorization', atRisk: false });
    expect(body.summary).toMatchObject({ enrolled: 3, connected: 2, atRisk: 1 });
    const stats = (await send('owner', 'GET', `/api/studies/${studyId}/stats`)).json().stats;
    expect(stats.atRisk).toBe(1);
  });

  it('answers a kept heat map only while nothing it shows has changed', async () => {
    const range = 'from=2026-03-20&to=2026-03-22';
    const first = await heatMap(range);
    expect(first.participants.find((p) => p.id === ids.b)?.states).toEqual([
      'not_collected',
      'not_collected',
      'not_collected',
    ]);
    // A day collected: its cell shows at once.
    await write(ids.b, 'heartrate_intraday_1sec', '2026-03-21');
    const collected = (await heatMap(range)).participants.find((p) => p.id === ids.b);
    expect(collected?.states[1]).not.toBe('not_collected');
    expect(collected?.wearMinutes[1]).toBeGreaterThan(0);
    // A participant renamed, a device that synced: the same.
    await t.app.platform.db
      .update(participants)
      .set({ firstName: 'Benjamin' })
      .where(eq(participants.id, ids.b));
    const synced = new Date();
    await t.app.services.wearables.recordDeviceSync(ids.b, synced, [
      { lastSyncTime: synced.toISOString(), batteryLevel: 40 },
    ]);
    const renamed = (await heatMap(range)).participants.find((p) => p.id === ids.b);
    expect(renamed).toMatchObject({ name: 'Benjamin', batteryLevel: 40, daysWithoutSync: 0 });
  });

  it('refuses a range longer than the maximum or ending before it starts', async () => {
    for (const query of ['from=2025-01-01&to=2026-03-01', 'from=2026-03-10&to=2026-03-09']) {
      const res = await send('owner', 'GET', `/api/studies/${studyId}/adherence?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'RANGE_TOO_LONG',
        message: ADHERENCE_MESSAGES.rangeTooLong,
      });
    }
    const res = await send('owner', 'GET', `/api/studies/${studyId}/adherence`);
    expect(res.json().days).toHaveLength(28);
  });

  it('charts a participant’s days with their figures and sleep by stage', async () => {
    const res = await send(
      'collaborator',
      'GET',
      `/api/participants/${ids.a}/charts?from=2026-03-04&to=2026-03-07`,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json() as ParticipantChartsResponse;
    expect(body.timeZone).toBe(ZONE);
    expect(body.days.map((d) => d.state)).toEqual([
      'not_enrolled',
      'complete',
      'failed',
      'complete',
    ]);
    const first = body.days[1];
    expect(first?.wearMinutes).toBeGreaterThan(0);
    expect(first?.steps).toBeGreaterThan(0);
    // Staged nights: the stages add up to the minutes asleep (awake apart).
    const stages = first?.sleepStages;
    expect(first?.sleepMinutes).toBeGreaterThan(0);
    expect(stages).not.toBeNull();
    expect(
      (stages?.deep ?? 0) + (stages?.light ?? 0) + (stages?.rem ?? 0) + (stages?.asleep ?? 0),
    ).toBe(first?.sleepMinutes);
    // A day written without a sleep partition has no stages.
    expect(body.days[3]?.sleepStages).toBeNull();
  });

  it('answers a day of one-second heart rate downsampled to the chart’s maximum, ends kept', async () => {
    const res = await send('owner', 'GET', `/api/participants/${ids.a}/heart-rate?date=2026-03-05`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as HeartRateDayResponse;
    const [row] = await t.app.platform.db
      .select({ rows: datasetPartitions.rowCount })
      .from(datasetPartitions)
      .where(
        sql`${datasetPartitions.participantId} = ${ids.a} and ${datasetPartitions.dataType} = 'heartrate_intraday_1sec' and ${datasetPartitions.date} = '2026-03-05'`,
      );
    expect(body.sampleCount).toBe(row?.rows);
    expect(body.sampleCount).toBeGreaterThan(HEART_RATE_CHART_MAX_POINTS);
    expect(body).toMatchObject({ date: '2026-03-05', timeZone: ZONE, downsampling: 'lttb' });
    expect(body.times).toHaveLength(HEART_RATE_CHART_MAX_POINTS);
    expect(body.bpm).toHaveLength(HEART_RATE_CHART_MAX_POINTS);
    const sorted = [...body.times].sort((x, y) => x - y);
    expect(body.times).toEqual(sorted);
    // The day's samples lie within the civil day in New York (EST, UTC−5).
    expect(body.times[0]).toBeGreaterThanOrEqual(Date.parse('2026-03-05T05:00:00Z'));
    expect(body.times.at(-1)).toBeLessThan(Date.parse('2026-03-06T05:00:00Z'));

    const none = await send(
      'owner',
      'GET',
      `/api/participants/${ids.a}/heart-rate?date=2026-03-10`,
    );
    expect(none.json()).toMatchObject({
      sampleCount: 0,
      downsampling: 'none',
      times: [],
      bpm: [],
      timeZone: ZONE,
    });
  });

  it('answers the three calls to members only', async () => {
    const participantPath = (role: (typeof STUDY_ROLES)[number]) =>
      role === 'approved non-member' ? 404 : memberStatus(200)(role);
    for (const role of STUDY_ROLES) {
      const heat = await send(role, 'GET', `/api/studies/${studyId}/adherence`);
      expect(heat.statusCode, `${role} heat map`).toBe(memberStatus(200)(role));
      const charts = await send(role, 'GET', `/api/participants/${ids.a}/charts`);
      expect(charts.statusCode, `${role} charts`).toBe(participantPath(role));
      const heart = await send(
        role,
        'GET',
        `/api/participants/${ids.a}/heart-rate?date=2026-03-05`,
      );
      expect(heart.statusCode, `${role} heart rate`).toBe(participantPath(role));
    }
    const unknown = await send('owner', 'GET', '/api/participants/P0000000000000000/charts');
    expect(unknown.statusCode).toBe(404);
  });
});
