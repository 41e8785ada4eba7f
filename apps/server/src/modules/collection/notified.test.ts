import type { AddressInfo } from 'node:net';
import { COLLECTION_REASONS, type ParticipantRow } from '@research/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEvents,
  healthNotifications,
  healthNotificationWork,
  participants,
  wearableConnections,
} from '../../db/schema/index.js';
import {
  createSubscribersClient,
  loadServiceAccountKey,
} from '../../platform/google-health/subscribers.js';
import { bearer } from '../../test/auth-helpers.js';
import { useExtractionKit } from '../../test/extraction-kit.js';
import { startTcpProxy, type TcpProxy } from '../../test/tcp-proxy.js';
import { eventually } from '../../test/test-app.js';
import { accountWith } from '../../test/wearables-kit.js';
import { civilDateIn, createDataset, type LedgerRow } from '../dataset/index.js';
import { addDays } from '../extraction/index.js';

/**
 * Change notifications end to end: the sandbox's tracker syncs, the sandbox (as Google) signs
 * and POSTs notifications to the app listening on loopback, and the days arrive in the ledger
 * without a sweep or a run. The endpoint sits behind a TCP proxy, so a test can take it down.
 */

const SECRET = 'Bearer notified-test-secret-0123456789abcdef';
const DAY_MS = 86_400_000;

const kit = useExtractionKit({ env: { GOOGLE_HEALTH_WEBHOOK_SECRET: SECRET } });
let proxy: TcpProxy;

beforeAll(async () => {
  await kit.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = kit.app.server.address() as AddressInfo;
  proxy = await startTcpProxy({ host: '127.0.0.1', port });
  const { sandbox } = kit;
  const key = await loadServiceAccountKey({
    kind: 'url',
    url: `${sandbox.httpUrl}/__admin/health/service-account.json`,
  });
  await createSubscribersClient({
    apiUrl: sandbox.health.urls.apiBaseUrl,
    projectNumber: sandbox.health.webhooks.project.number,
    key,
  }).create('notified-test', {
    endpointUri: `http://127.0.0.1:${proxy.port}/webhooks/google-health`,
    secret: SECRET,
    subscriberConfigs: [
      { dataTypes: ['steps', 'sleep', 'heart-rate'], subscriptionCreatePolicy: 'AUTOMATIC' },
    ],
  });
}, 60_000);
afterAll(() => proxy?.close());

const dataset = () =>
  createDataset({
    db: kit.app.platform.db,
    objectStore: kit.app.platform.objectStore,
    bucketOf: kit.app.extraction.bucketOf,
  });
const ledger = (participantId: string) =>
  dataset().readLedger({ studyId: kit.world.study.id, participantId });

async function connectionOf(participantId: string) {
  const [row] = await kit.app.platform.db
    .select()
    .from(wearableConnections)
    .where(eq(wearableConnections.participantId, participantId));
  return row as typeof wearableConnections.$inferSelect;
}

/** A participant connected with `account`, enrolled 10 days ago, whose device last synced 10 days ago. */
async function connectedLongAgo(account: string) {
  const participant = await kit.connected(account);
  await kit.app.platform.db
    .update(participants)
    .set({ enrolledAt: new Date(Date.now() - 10 * DAY_MS) })
    .where(eq(participants.id, participant.id));
  // The sandbox shows data up to now unless told otherwise: back to ten days ago, silently.
  kit.sandbox.health.sync(account, Date.now() - 10 * DAY_MS);
  return participant;
}

const workOf = async (participantId: string) =>
  kit.app.platform.db
    .select()
    .from(healthNotificationWork)
    .where(eq(healthNotificationWork.connectionId, (await connectionOf(participantId)).id));

/** Waits until every notification sent is delivered and resolved, and all its work done. */
async function settled(participantId: string) {
  await kit.sandbox.health.webhooks.settled(30_000);
  return eventually(async () => {
    const unresolved = await kit.app.platform.db
      .select({ id: healthNotifications.id })
      .from(healthNotifications)
      .where(isNull(healthNotifications.resolvedAt));
    const work = await workOf(participantId);
    return unresolved.length === 0 && work.length > 0 && work.every((row) => row.state === 'done')
      ? work
      : undefined;
    // Wide: with Google failing a fifth of the calls, retries back off for most of a minute.
  }, 150_000);
}

const stepsDays = (rows: LedgerRow[]) =>
  rows.filter((row) => row.dataType === 'activity_steps_timeseries');

describe('a device sync announced by change notifications', () => {
  it('puts the days it synced in the ledger, fetched for the notification, with no sweep or run', async () => {
    const account = 'notified.sync@gmail.test';
    const participant = await connectedLongAgo(account);
    const sent = kit.sandbox.health.sync(account, Date.now() - DAY_MS);
    expect(sent.notifications).toBeGreaterThan(0);
    await settled(participant.id);

    const rows = await ledger(participant.id);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.trigger?.kind, `${row.dataType} ${row.date}`).toBe('notification');
      expect(['complete', 'partial', 'empty']).toContain(row.state);
    }
    // Each notified Google type reached every research type that reads it.
    const types = new Set(rows.map((row) => row.dataType));
    for (const type of [
      'activity_summary',
      'activity_steps_timeseries',
      'activity_steps_intraday',
      'sleep_log',
      'heartrate_intraday_1sec',
    ]) {
      expect(types, type).toContain(type);
    }
    const timeZone = rows[0]?.timeZone ?? 'UTC';
    const yesterday = civilDateIn(timeZone, new Date(Date.now() - DAY_MS));
    const older = stepsDays(rows).filter((row) => row.date < addDays(yesterday, -1));
    expect(older.length).toBeGreaterThan(0);
    for (const row of older) expect(row.state, row.date).toBe('complete');

    // The same day fetched again by a sweep gives the same partition, byte for byte.
    const day = older[0] as LedgerRow;
    await kit.app.collection.collectDays({
      participantId: participant.id,
      types: ['activity_steps_timeseries'],
      dates: [day.date],
      trigger: { kind: 'sweep' },
    });
    const again = (await ledger(participant.id)).find(
      (row) => row.dataType === day.dataType && row.date === day.date,
    );
    expect(again?.version).toBe(day.version);
    expect(again?.rowsFile?.sha256).toBe(day.rowsFile?.sha256);
  }, 120_000);

  it('fetches what one sync announced once: each page of each notified day is one request', async () => {
    const account = 'notified.once@gmail.test';
    const participant = await connectedLongAgo(account);
    const { healthUserId } = await connectionOf(participant.id);
    const before = kit.sandbox.health.usage()[healthUserId]?.requests ?? 0;
    // One day: the sync announces a dozen Google types, nine of which the daily summary reads.
    kit.sandbox.health.sync(account, Date.now() - 9 * DAY_MS);
    await settled(participant.id);
    const rows = await ledger(participant.id);
    expect(rows.length).toBeGreaterThan(0);
    const pages = rows.reduce((sum, row) => sum + row.rawFiles.length, 0);
    // The pages kept, plus the session's settings and paired devices: nothing fetched twice.
    const requests = (kit.sandbox.health.usage()[healthUserId]?.requests ?? 0) - before;
    expect(requests).toBe(pages + 2);
  }, 120_000);

  it('takes a duplicate or an older notification arriving late as "fetch again": the ledger keeps the newest data', async () => {
    const account = 'notified.reorder@gmail.test';
    const participant = await connectedLongAgo(account);
    const { healthUserId } = kit.sandbox.health.sync(account, Date.now() - 3 * DAY_MS);
    await settled(participant.id);
    const firstSteps = kit.sandbox.health.webhooks
      .deliveries({ state: 'delivered' })
      .find((d) => d.dataType === 'steps' && d.healthUserId === healthUserId);
    expect(firstSteps).toBeDefined();
    kit.sandbox.health.sync(account, Date.now() - DAY_MS);
    await settled(participant.id);
    const newer = stepsDays(await ledger(participant.id));

    // The first sync's notification again, after the second's: a duplicate, out of order.
    const res = await fetch(
      `${kit.sandbox.httpUrl}/__admin/health/deliveries/${firstSteps?.id}/duplicate`,
      { method: 'POST' },
    );
    expect(res.status).toBe(200);
    await settled(participant.id);
    const after = stepsDays(await ledger(participant.id));
    expect(after.map((r) => [r.date, r.state, r.rowCount, r.rowsFile?.sha256])).toEqual(
      newer.map((r) => [r.date, r.state, r.rowCount, r.rowsFile?.sha256]),
    );
    // One row per partition: nothing was written twice.
    const keys = after.map((r) => `${r.dataType}/${r.date}`);
    expect(new Set(keys).size).toBe(keys.length);
  }, 120_000);

  it('while the endpoint is down, Google keeps the notifications; when it is back, the backlog fills the ledger', async () => {
    const account = 'notified.outage@gmail.test';
    const participant = await connectedLongAgo(account);
    await proxy.cut();
    try {
      kit.sandbox.health.sync(account, Date.now() - DAY_MS);
      // The sandbox retries on Google's schedule (compressed): wait for a failed attempt.
      await eventually(async () => {
        const pending = kit.sandbox.health.webhooks
          .deliveries({ state: 'pending' })
          .filter((d) => d.attempts.length > 0);
        return pending.length > 0 ? pending : undefined;
      });
      expect(await ledger(participant.id)).toEqual([]);
    } finally {
      await proxy.restore();
    }
    await settled(participant.id);
    const rows = stepsDays(await ledger(participant.id));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.trigger?.kind === 'notification')).toBe(true);
  }, 120_000);

  it('with Google answering 500 or 503 to a fifth of the calls, still fills the ledger: no day failed, none twice', async () => {
    const account = 'notified.flaky@gmail.test';
    const participant = await connectedLongAgo(account);
    kit.sandbox.health.setControls({ error500Rate: 0.1, error503Rate: 0.1 });
    try {
      kit.sandbox.health.sync(account, Date.now() - DAY_MS);
      await settled(participant.id);
    } finally {
      kit.sandbox.health.resetControls();
    }
    const rows = await ledger(participant.id);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((row) => row.state === 'failed')).toEqual([]);
    const keys = rows.map((r) => `${r.dataType}/${r.date}`);
    expect(new Set(keys).size).toBe(keys.length);
    // The same days fetched cleanly give the same partitions.
    const steps = stepsDays(rows).filter((row) => row.state === 'complete');
    await kit.app.collection.collectDays({
      participantId: participant.id,
      types: ['activity_steps_timeseries'],
      dates: steps.map((row) => row.date),
      trigger: { kind: 'sweep' },
    });
    const clean = stepsDays(await ledger(participant.id)).filter((row) => row.state === 'complete');
    expect(clean.map((r) => [r.date, r.version])).toEqual(steps.map((r) => [r.date, r.version]));
  }, 200_000);

  it('marks the days Google reports deleted deleted_at_source, keeps the files by default, and audits it', async () => {
    const account = 'notified.revoke@gmail.test';
    const participant = await connectedLongAgo(account);
    kit.sandbox.health.sync(account, Date.now() - DAY_MS);
    await settled(participant.id);
    const before = await ledger(participant.id);
    expect(before.length).toBeGreaterThan(0);

    // Revoking at Google announces every covered type as deleted over all its data.
    kit.sandbox.health.revoke(account);
    await settled(participant.id);
    const after = await ledger(participant.id);
    const notified = after.filter((row) =>
      ['activity_steps_timeseries', 'sleep_log', 'heartrate_intraday_1sec'].includes(row.dataType),
    );
    expect(notified.length).toBeGreaterThan(0);
    for (const row of notified) {
      expect(row.state).toBe('deleted_at_source');
      expect(row.reason).toBe(COLLECTION_REASONS.deletedAtSource);
      // The study keeps its copy: the files are still listed.
      const was = before.find((b) => b.dataType === row.dataType && b.date === row.date);
      expect(row.rowsFile).toEqual(was?.rowsFile);
    }
    const audit = await kit.app.platform.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, 'dataset.deleted_at_source'),
          eq(auditEvents.targetId, participant.id),
        ),
      );
    expect(audit.length).toBeGreaterThan(0);
  }, 120_000);

  it('removes the files of days Google reports deleted when the study says so, keeping the rows, and audits it', async () => {
    const account = 'notified.remove@gmail.test';
    const participant = await connectedLongAgo(account);
    kit.sandbox.health.sync(account, Date.now() - DAY_MS);
    await settled(participant.id);
    const before = stepsDays(await ledger(participant.id));
    expect(before.some((row) => row.rowsFile)).toBe(true);

    await setRemoval(true);
    try {
      kit.sandbox.health.revoke(account);
      await settled(participant.id);
    } finally {
      await setRemoval(false);
    }
    const after = stepsDays(await ledger(participant.id));
    expect(after.map((row) => row.date)).toEqual(before.map((row) => row.date));
    for (const row of after) {
      expect(row.state).toBe('deleted_at_source');
      expect(row.reason).toBe(COLLECTION_REASONS.removedAtSource);
      expect(row.rowsFile).toBeNull();
      expect(row.rawFiles).toEqual([]);
    }
    // Nothing of the participant's steps partitions is left in the bucket.
    const bucket = kit.app.extraction.bucketOf(kit.world.study.id);
    const left: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await kit.app.platform.objectStore.listObjects(bucket, {
        prefix: `dataset/type=activity_steps_timeseries/participant=${participant.id}/`,
        cursor,
      });
      left.push(...page.objects.map((object) => object.key));
      cursor = page.nextCursor;
    } while (cursor);
    expect(left).toEqual([]);
    const audit = await kit.app.platform.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, 'dataset.removed_at_source'),
          eq(auditEvents.targetId, participant.id),
        ),
      );
    expect(audit.length).toBeGreaterThan(0);
  }, 120_000);

  it("shows the Participants tab the device's last sync and the latest day's figures, to members only", async () => {
    const account = 'notified.tab@gmail.test';
    const participant = await connectedLongAgo(account);
    const listed = async (token: string) => {
      const res = await kit.app.inject({
        method: 'GET',
        url: `/api/studies/${kit.world.study.id}/participants`,
        headers: bearer(token),
        query: { search: participant.id },
      });
      return res;
    };
    const rowOf = async (token: string) => {
      const res = await listed(token);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { participants: ParticipantRow[] }).participants[0] as ParticipantRow;
    };
    const before = await rowOf(kit.world.owner.token);
    expect(before.lastDeviceSyncAt).toBeNull();
    expect(before.latestDay).toBeNull();

    const sent = kit.sandbox.health.sync(account, Date.now() - 2 * 3_600_000);
    await settled(participant.id);
    const rows = await ledger(participant.id);
    const withData = rows.filter(
      (r) => r.rowCount > 0 && ['complete', 'partial'].includes(r.state),
    );
    const latest = withData.reduce((date, r) => (r.date > date ? r.date : date), '');
    const summary = withData.find((r) => r.date === latest && r.dataType === 'activity_summary');
    const sleep = withData.find((r) => r.date === latest && r.dataType === 'sleep_log');
    const heartRate = withData.find(
      (r) => r.date === latest && r.dataType === 'heartrate_intraday_1sec',
    );
    const restingRate = ['heartrate_summary', 'heartrate_timeseries']
      .map((type) => withData.find((r) => r.date === latest && r.dataType === type))
      .find((r) => r?.restingHeartRateBpm != null);

    for (const token of [kit.world.owner.token, kit.world.collaborator.token]) {
      const after = await rowOf(token);
      expect(after.lastDeviceSyncAt).toBe(new Date(sent.syncedUntil as string).toISOString());
      expect(after.latestDay?.date).toBe(latest);
      // The device has not synced past its last day: its figures may still grow.
      expect(after.latestDay?.partial).toBe(true);
      expect(after.latestDay?.steps).toBe(summary?.steps ?? null);
      expect(after.latestDay?.sleepMinutes).toBe(sleep?.sleepMinutes ?? null);
      // Minutes worn from the day's own heart-rate samples, in the participant's civil day.
      expect(after.latestDay?.wearMinutes).toBe(heartRate?.wearMinutes ?? null);
      expect(after.latestDay?.wearMinutes).toBeGreaterThan(0);
      expect(after.latestDay?.restingHeartRateBpm).toBe(restingRate?.restingHeartRateBpm ?? null);
    }

    // An older answer (a session opened before this sync) does not move it back.
    const older = new Date(Date.parse(sent.syncedUntil as string) - DAY_MS);
    expect(await kit.app.services.wearables.recordDeviceSync(participant.id, older)).toBe(false);
    expect((await rowOf(kit.world.owner.token)).lastDeviceSyncAt).toBe(
      new Date(sent.syncedUntil as string).toISOString(),
    );

    // A researcher outside the study sees nothing of it.
    const outsider = await accountWith(kit.app, 'approved');
    const res = await listed(outsider.token);
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain(participant.id);
  }, 120_000);
});

/** The study's setting for data deleted at the source, as its owner would set it. */
async function setRemoval(remove: boolean) {
  const res = await kit.app.inject({
    method: 'PUT',
    url: `/api/studies/${kit.world.study.id}`,
    headers: bearer(kit.world.owner.token),
    payload: { settings: { removeDataDeletedAtSource: remove } },
  });
  expect(res.statusCode, res.body).toBe(200);
}
