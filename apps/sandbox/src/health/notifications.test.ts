import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type DeliveryView,
  healthIdentity,
  type Sandbox,
  startSandbox,
  type TinkKeyset,
} from '../index.js';
import { api, connect, SLEEP } from '../test/health-flow.js';
import { serviceAccountToken, subscribersApi } from '../test/service-account-flow.js';
import { verifyTinkSignature } from '../test/tink-verify.js';
import { type Receiver, startReceiver } from '../test/webhook-receiver.js';

/**
 * The tracker syncing and the person revoking access, seen from a product's webhook endpoint:
 * what arrives, how it is signed, and how the sandbox retries when the endpoint fails.
 */

let sandbox: Sandbox;
let project: string;
const SECRET = 'Bearer notifications-test-secret';
/** 18:30 in New York on a Friday: the simulated people have walked all day. */
const NOW = Date.parse('2026-11-20T23:30:00Z');
const NOON = '2026-11-20T17:00:00Z';

beforeAll(async () => {
  sandbox = await startSandbox({ httpPort: 0, smtpPort: 0 });
  project = sandbox.health.webhooks.project.number;
});

beforeEach(() => {
  sandbox.health.resetControls();
  sandbox.health.setControls({ clockOffsetMs: NOW - Date.now() });
  sandbox.health.webhooks.clearDeliveries();
});

afterAll(async () => {
  await sandbox.close();
});

type Json = Record<string, unknown>;
interface Notification {
  version: string;
  clientProvidedSubscriptionName: string;
  healthUserId: string;
  operation: 'UPSERT' | 'DELETE';
  dataType: string;
  intervals: {
    physicalTimeInterval: { startTime: string; endTime: string };
    civilDateTimeInterval: { startDateTime: Json; endDateTime: Json };
    civilIso8601TimeInterval: { startTime: string; endTime: string };
  }[];
}
const data = (r: { json: Json }) => r.json.data as Notification;

/** A subscriber of its own per test, on its own receiver, removed afterwards. */
async function withSubscriber(
  dataTypes: string[],
  run: (hook: { receiver: Receiver; name: string }) => Promise<void>,
): Promise<void> {
  const receiver = await startReceiver(SECRET);
  const token = await serviceAccountToken(sandbox);
  const id = `hook-${Math.random().toString(36).slice(2, 10)}`;
  const created = await subscribersApi(
    sandbox,
    token,
    'POST',
    `/v4/projects/${project}/subscribers?subscriberId=${id}`,
    {
      endpointUri: receiver.url,
      subscriberConfigs: [{ dataTypes, subscriptionCreatePolicy: 'AUTOMATIC' }],
      endpointAuthorization: { secret: SECRET },
    },
  );
  expect(created.status).toBe(200);
  const name = `projects/${project}/subscribers/${id}`;
  try {
    await run({ receiver, name });
  } finally {
    await subscribersApi(sandbox, await serviceAccountToken(sandbox), 'DELETE', `/v4/${name}`);
    await receiver.close();
  }
}

const postSync = async (body: Json) => {
  const response = await fetch(`${sandbox.httpUrl}/__admin/health/sync`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Json };
};

const stepsBetween = (token: string, from: string, to: string) =>
  api(
    sandbox,
    token,
    `/v4/users/me/dataTypes/steps/dataPoints?pageSize=10000&filter=${encodeURIComponent(
      `steps.interval.start_time >= "${from}" AND steps.interval.start_time < "${to}"`,
    )}`,
  );

const stepPoints = (json: Json) =>
  (json.dataPoints ?? []) as { steps: { count: string; interval: { endTime: string } } }[];

describe('sync horizon', () => {
  it('hides data after the last sync from list, reconcile, the roll-ups and pairedDevices until the next', async () => {
    const email = 'priya.patel@gmail.test';
    const person = await connect(sandbox, email);
    const before = await stepsBetween(
      person.access_token,
      '2026-11-20T05:00:00Z',
      '2026-11-21T05:00:00Z',
    );
    expect(
      stepPoints(before.json).some((p) => Date.parse(p.steps.interval.endTime) > Date.parse(NOON)),
    ).toBe(true);

    const rewound = await postSync({ email, until: NOON });
    expect(rewound.status).toBe(200);
    expect(rewound.json).toMatchObject({
      email,
      healthUserId: healthIdentity(email).healthUserId,
      syncedUntil: NOON,
      notifications: 0,
    });

    const listed = stepPoints(
      (await stepsBetween(person.access_token, '2026-11-20T05:00:00Z', '2026-11-21T05:00:00Z'))
        .json,
    );
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((p) => Date.parse(p.steps.interval.endTime) <= Date.parse(NOON))).toBe(
      true,
    );
    const stepsToNoon = listed.reduce((sum, p) => sum + Number(p.steps.count), 0);

    const day = {
      start: { date: { year: 2026, month: 11, day: 20 } },
      end: { date: { year: 2026, month: 11, day: 21 } },
    };
    const rolled = await api(
      sandbox,
      person.access_token,
      '/v4/users/me/dataTypes/steps/dataPoints:dailyRollUp',
      { range: day },
    );
    const [bucket] = rolled.json.rollupDataPoints as { steps: { countSum: string } }[];
    expect(Number(bucket?.steps.countSum)).toBe(stepsToNoon);

    const hourly = await api(
      sandbox,
      person.access_token,
      '/v4/users/me/dataTypes/steps/dataPoints:rollUp',
      {
        range: { startTime: '2026-11-20T05:00:00Z', endTime: '2026-11-21T05:00:00Z' },
        windowSize: '3600s',
      },
    );
    const buckets = hourly.json.rollupDataPoints as {
      endTime: string;
      steps: { countSum: string };
    }[];
    expect(buckets.every((b) => Date.parse(b.endTime) <= Date.parse(NOON))).toBe(true);
    expect(buckets.reduce((sum, b) => sum + Number(b.steps.countSum), 0)).toBe(stepsToNoon);
    const reconciled = await api(
      sandbox,
      person.access_token,
      `/v4/users/me/dataTypes/heart-rate/dataPoints:reconcile?pageSize=10000&filter=${encodeURIComponent(
        'heart_rate.sample_time.physical_time >= "2026-11-20T16:00:00Z"',
      )}`,
    );
    const samples = reconciled.json.dataPoints as {
      heartRate: { sampleTime: { physicalTime: string } };
    }[];
    expect(samples.length).toBeGreaterThan(0);
    expect(
      samples.every((p) => Date.parse(p.heartRate.sampleTime.physicalTime) <= Date.parse(NOON)),
    ).toBe(true);

    const devices = await api(sandbox, person.access_token, '/v4/users/me/pairedDevices');
    expect((devices.json.pairedDevices as { lastSyncTime: string }[])[0]?.lastSyncTime).toBe(NOON);

    // Live again: everything up to now is back.
    const live = await postSync({ email, live: true });
    expect(live.json).toMatchObject({ syncedUntil: null, previous: NOON });
    const after = await stepsBetween(
      person.access_token,
      '2026-11-20T05:00:00Z',
      '2026-11-21T05:00:00Z',
    );
    expect(stepPoints(after.json).length).toBe(stepPoints(before.json).length);
  });

  it('refuses a sync without an e-mail or with a malformed instant', async () => {
    expect((await postSync({ until: NOON })).status).toBe(400);
    expect((await postSync({ email: 'x@example.test', until: 'noon' })).json).toEqual({
      error: 'until must be an RFC 3339 instant',
    });
    expect((await postSync({ email: 'x@example.test', until: NOON, live: true })).status).toBe(400);
  });
});

describe('notifications after a sync', () => {
  it('POSTs signed UPSERT notifications for the intervals that appeared, with the secret', async () => {
    await withSubscriber(
      ['steps', 'heart-rate', 'sleep', 'daily-resting-heart-rate'],
      async ({ receiver, name }) => {
        const email = 'sam.chen@gmail.test';
        const person = await connect(sandbox, email);
        sandbox.health.sync(email, Date.parse(NOON));
        const result = sandbox.health.sync(email);
        // Sleep ended this morning and today's resting heart rate began at midnight: both before noon.
        expect(result.notifications).toBe(2);
        const settled = await sandbox.health.webhooks.settled();
        expect(
          settled.filter((d) => d.subscriber === name).map((d) => [d.dataType, d.state]),
        ).toEqual([
          ['steps', 'delivered'],
          ['heart-rate', 'delivered'],
        ]);

        const keyset = (await (
          await fetch(sandbox.health.urls.webhookKeysetUrl)
        ).json()) as TinkKeyset;
        for (const received of receiver.notifications) {
          expect(received.headers.authorization).toBe(SECRET);
          expect(received.headers['content-type']).toBe('application/json');
          const signature = String(received.headers['google-health-api-signature']);
          expect(verifyTinkSignature(keyset, signature, received.body)).toEqual({
            keyId: keyset.primaryKeyId,
            valid: true,
          });
          const n = data(received);
          expect(Object.keys(received.json)).toEqual(['data']);
          expect(n).toMatchObject({
            version: '1',
            healthUserId: healthIdentity(email).healthUserId,
            operation: 'UPSERT',
          });
          expect(n.clientProvidedSubscriptionName).toMatch(
            /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
          );
          expect(n.intervals.length).toBeGreaterThan(0);
          for (const interval of n.intervals) {
            const start = Date.parse(interval.physicalTimeInterval.startTime);
            const end = Date.parse(interval.physicalTimeInterval.endTime);
            expect(start).toBeGreaterThanOrEqual(Date.parse(NOON) - 60_000);
            expect(end).toBeLessThanOrEqual(NOW + 60_000);
            expect(end).toBeGreaterThan(start);
            // New York in November: five hours behind, in both civil forms.
            const local = new Date(start - 5 * 3_600_000).toISOString().slice(0, 19);
            expect(interval.civilIso8601TimeInterval.startTime).toBe(local);
            expect(interval.civilDateTimeInterval.startDateTime).toMatchObject({
              date: { year: 2026, month: 11, day: 20 },
            });
          }
        }
        // The steps intervals point at real data: reading them back finds points.
        const steps = receiver.notifications.map(data).find((n) => n.dataType === 'steps');
        const first = steps?.intervals[0]?.physicalTimeInterval;
        expect(first).toBeDefined();
        const readBack = await stepsBetween(
          person.access_token,
          first?.startTime ?? '',
          first?.endTime ?? '',
        );
        expect(stepPoints(readBack.json).length).toBeGreaterThan(0);
      },
    );
  });

  it('announces last night’s sleep and today’s resting heart rate after a morning sync', async () => {
    await withSubscriber(['sleep', 'daily-resting-heart-rate', 'steps'], async ({ receiver }) => {
      const email = 'jordan.okafor@gmail.test';
      const person = await connect(sandbox, email);
      sandbox.health.sync(email, Date.parse('2026-11-19T23:00:00Z'));
      sandbox.health.sync(email, Date.parse('2026-11-20T16:00:00Z'));
      await sandbox.health.webhooks.settled();
      const byType = new Map(receiver.notifications.map((r) => [data(r).dataType, data(r)]));
      expect([...byType.keys()].sort()).toEqual(['daily-resting-heart-rate', 'sleep', 'steps']);
      const rhr = byType.get('daily-resting-heart-rate');
      expect(rhr?.intervals).toEqual([
        {
          physicalTimeInterval: {
            startTime: '2026-11-20T05:00:00Z',
            endTime: '2026-11-21T05:00:00Z',
          },
          civilDateTimeInterval: {
            startDateTime: { date: { year: 2026, month: 11, day: 20 }, time: {} },
            endDateTime: { date: { year: 2026, month: 11, day: 21 }, time: {} },
          },
          civilIso8601TimeInterval: {
            startTime: '2026-11-20T00:00:00',
            endTime: '2026-11-21T00:00:00',
          },
        },
      ]);
      const sleep = await api(
        sandbox,
        person.access_token,
        `/v4/users/me/dataTypes/sleep/dataPoints?filter=${encodeURIComponent('sleep.interval.end_time >= "2026-11-20T05:00:00Z"')}`,
      );
      const [night] = sleep.json.dataPoints as {
        sleep: { interval: { startTime: string; endTime: string } };
      }[];
      expect(byType.get('sleep')?.intervals.map((i) => i.physicalTimeInterval)).toEqual([
        { startTime: night?.sleep.interval.startTime, endTime: night?.sleep.interval.endTime },
      ]);
    });
  });

  it('notifies only types covered by a granted scope and by the subscriber’s config', async () => {
    await withSubscriber(['steps', 'sleep'], async ({ receiver }) => {
      const email = 'sleep.only@example.test';
      await connect(sandbox, email, { scopes: [SLEEP] });
      sandbox.health.sync(email, Date.parse('2026-11-19T23:00:00Z'));
      expect(sandbox.health.sync(email).notifications).toBe(1);
      // Nobody consented for this account: no notification at all.
      sandbox.health.sync('stranger@example.test', Date.parse('2026-11-19T23:00:00Z'));
      expect(sandbox.health.sync('stranger@example.test').notifications).toBe(0);
      await sandbox.health.webhooks.settled();
      expect(receiver.notifications.map((r) => data(r).dataType)).toEqual(['sleep']);
    });
  });
});

describe('delivery', () => {
  const stepsOnce = (email: string) => {
    sandbox.health.sync(email, NOW - 2 * 3_600_000);
    return sandbox.health.sync(email);
  };

  it('retries a failing endpoint with growing delays until it answers 204', async () => {
    await withSubscriber(['steps'], async ({ receiver, name }) => {
      // A minute of Google's schedule is 20 ms here.
      sandbox.health.setControls({ webhookTimeScale: 3_000 });
      const email = 'alex.rivera@gmail.test';
      await connect(sandbox, email);
      receiver.answerWith(500, 503, 500, 204);
      expect(stepsOnce(email).notifications).toBe(1);
      const [delivery] = (await sandbox.health.webhooks.settled()).filter(
        (d) => d.subscriber === name,
      );
      expect(delivery?.state).toBe('delivered');
      expect(delivery?.attempts.map((a) => a.status)).toEqual([500, 503, 500, 204]);
      const times = (delivery?.attempts ?? []).map((a) => Date.parse(a.at));
      const gaps = times.slice(1).map((t, i) => t - (times[i] ?? 0));
      // 1, 2 and 4 minutes of Google time: 20, 40 and 80 ms.
      expect(gaps[0]).toBeGreaterThanOrEqual(18);
      expect(gaps[1]).toBeGreaterThanOrEqual(36);
      expect(gaps[2]).toBeGreaterThanOrEqual(72);
      expect(gaps[2]).toBeGreaterThan(gaps[0] ?? 0);
      // Every attempt carried the same bytes.
      expect(new Set(receiver.notifications.map((r) => r.body.toString())).size).toBe(1);
    });
  });

  it('keeps a backlog while the endpoint is down and delivers it in order when it recovers', async () => {
    await withSubscriber(['steps'], async ({ receiver, name }) => {
      sandbox.health.setControls({ webhookTimeScale: 3_000 });
      const email = 'alex.rivera@gmail.test';
      await connect(sandbox, email);
      receiver.answerWith(503);
      stepsOnce(email);
      stepsOnce(email);
      const pending = () =>
        sandbox.health.webhooks.deliveries({ subscriber: name, state: 'pending' });
      await expect
        .poll(() => pending().every((d) => d.attempts.length >= 2), { timeout: 5_000 })
        .toBe(true);
      expect(pending()).toHaveLength(2);
      expect(pending()[0]?.nextAttemptAt).toBeDefined();
      receiver.answerWith(204);
      const done = (await sandbox.health.webhooks.settled()).filter((d) => d.subscriber === name);
      expect(done.map((d) => d.state)).toEqual(['delivered', 'delivered']);
      const accepted = receiver.notifications
        .filter((r) => r.answered === 204)
        .map((r) => r.body.toString());
      expect(accepted).toEqual(done.map((d) => d.body));
    });
  });

  it('drops a notification the endpoint has not accepted within 7 days of Google time', async () => {
    await withSubscriber(['steps'], async ({ receiver, name }) => {
      // A week passes in about 60 ms.
      sandbox.health.setControls({ webhookTimeScale: 10_000_000 });
      const email = 'alex.rivera@gmail.test';
      await connect(sandbox, email);
      receiver.answerWith(500);
      stepsOnce(email);
      const [dropped] = (await sandbox.health.webhooks.settled()).filter(
        (d) => d.subscriber === name,
      );
      expect(dropped?.state).toBe('dropped');
      expect(dropped?.droppedBecause).toBe('not accepted within 7 days');
      expect(dropped?.attempts.length).toBeGreaterThan(3);
      expect(dropped?.attempts.every((a) => a.status === 500)).toBe(true);
    });
  });

  it('signs with the new key after a rotation, the old key still listed', async () => {
    await withSubscriber(['steps'], async ({ receiver }) => {
      const email = 'alex.rivera@gmail.test';
      await connect(sandbox, email);
      const before = sandbox.health.webhooks.keyset().primaryKeyId;
      const rotated = await fetch(`${sandbox.httpUrl}/__admin/health/webhook-keyset/rotate`, {
        method: 'POST',
      });
      const keyset = (await rotated.json()) as { primaryKeyId: number; key: { keyId: number }[] };
      expect(keyset.primaryKeyId).not.toBe(before);
      expect(keyset.key.map((k) => k.keyId)).toContain(before);
      stepsOnce(email);
      await sandbox.health.webhooks.settled();
      const [received] = receiver.notifications;
      const published = (await (
        await fetch(sandbox.health.urls.webhookKeysetUrl)
      ).json()) as TinkKeyset;
      expect(
        verifyTinkSignature(
          published,
          String(received?.headers['google-health-api-signature']),
          received?.body ?? Buffer.alloc(0),
        ),
      ).toEqual({ keyId: keyset.primaryKeyId, valid: true });
    });
  });

  it('sends a duplicate on demand and lists deliveries over the admin route', async () => {
    await withSubscriber(['steps'], async ({ receiver, name }) => {
      const email = 'alex.rivera@gmail.test';
      await connect(sandbox, email);
      stepsOnce(email);
      await sandbox.health.webhooks.settled();
      const listed = await fetch(
        `${sandbox.httpUrl}/__admin/health/deliveries?subscriber=${encodeURIComponent(name)}`,
      );
      const { deliveries } = (await listed.json()) as { deliveries: DeliveryView[] };
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]).toMatchObject({
        subscriber: name,
        endpointUri: receiver.url,
        dataType: 'steps',
        operation: 'UPSERT',
        state: 'delivered',
        attempts: [{ status: 204 }],
      });
      const copy = await fetch(
        `${sandbox.httpUrl}/__admin/health/deliveries/${deliveries[0]?.id}/duplicate`,
        { method: 'POST' },
      );
      expect(copy.status).toBe(200);
      await sandbox.health.webhooks.settled();
      expect(receiver.notifications).toHaveLength(2);
      expect(
        receiver.notifications[1]?.body.equals(receiver.notifications[0]?.body ?? Buffer.alloc(0)),
      ).toBe(true);
    });
  });

  it('drops what is pending when the subscriber is deleted', async () => {
    const email = 'alex.rivera@gmail.test';
    let subscriber = '';
    await withSubscriber(['steps'], async ({ receiver, name }) => {
      subscriber = name;
      await connect(sandbox, email);
      receiver.answerWith(500);
      stepsOnce(email);
      await expect.poll(() => receiver.notifications.length).toBeGreaterThan(0);
    });
    const [gone] = await sandbox.health.webhooks
      .settled()
      .then((all) => all.filter((d) => d.subscriber === subscriber));
    expect(gone).toMatchObject({ state: 'dropped', droppedBecause: 'subscriber deleted' });
  });
});

describe('revocation', () => {
  it('sends DELETE for every subscribed type the revoked grants covered', async () => {
    await withSubscriber(['steps', 'sleep', 'weight'], async ({ receiver }) => {
      const email = 'revoking.person@example.test';
      await connect(sandbox, email);
      const response = await fetch(`${sandbox.httpUrl}/__admin/health/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      });
      expect(await response.json()).toEqual({ revoked: 1, notifications: 3 });
      await sandbox.health.webhooks.settled();
      const notes = receiver.notifications.map(data);
      expect(notes.map((n) => [n.dataType, n.operation])).toEqual([
        ['steps', 'DELETE'],
        ['sleep', 'DELETE'],
        ['weight', 'DELETE'],
      ]);
      expect(notes[0]?.healthUserId).toBe(healthIdentity(email).healthUserId);
      expect(notes[0]?.intervals[0]?.physicalTimeInterval.startTime).toBe('2024-01-01T00:00:00Z');
      // Revoking again changes nothing and announces nothing.
      expect(sandbox.health.revoke(email)).toBe(0);
    });
  });
});
