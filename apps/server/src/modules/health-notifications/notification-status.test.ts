import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NotificationStatus } from '@research/contracts';
import { type Sandbox, startSandbox } from '@research/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  healthNotificationRefusals,
  healthNotifications,
  healthNotificationWork,
  wearableConnections,
} from '../../db/schema/index.js';
import {
  createSubscribersClient,
  loadServiceAccountKey,
} from '../../platform/google-health/subscribers.js';
import { bearer, someAddress } from '../../test/auth-helpers.js';
import { eventually, type TestAppOptions, useTestApp } from '../../test/test-app.js';
import {
  type KeysetServer,
  newSigningKey,
  startKeysetServer,
  tinkSign,
} from '../../test/tink-kit.js';
import { accountWith, studyWithParticipants } from '../../test/wearables-kit.js';
import { startWebhookEndpoint, type TestWebhookEndpoint } from '../../test/webhook-endpoint.js';
import { subscribedDataTypes } from './subscriber-status.js';

const SECRET = `Bearer ${randomBytes(24).toString('hex')}`;
const STATUS_URL = '/api/admin/health-notifications';
const googleKey = newSigningKey(0x1a2b3c4d);

type App = ReturnType<typeof useTestApp>['app'];

async function statusAs(app: App, token: string | null) {
  return app.inject({
    method: 'GET',
    url: STATUS_URL,
    remoteAddress: someAddress(),
    ...(token ? { headers: bearer(token) } : {}),
  });
}

async function masterStatus(app: App): Promise<NotificationStatus> {
  const master = await accountWith(app, 'master');
  const res = await statusAs(app, master.token);
  expect(res.statusCode).toBe(200);
  return (res.json() as { notifications: NotificationStatus }).notifications;
}

type Options = TestAppOptions & { env: Record<string, string> };

/**
 * Google's subscribers API played by a sandbox of the test's own, its service account's key in a
 * file: as an operator configures a server (the test app's sandbox is its OpenID issuer, which
 * leaves the service account unset). Registered before the app's own beforeAll.
 */
function googleOnOwnSandbox(options: Options) {
  let sandbox: Sandbox | undefined;
  let dir = '';
  beforeAll(async () => {
    sandbox = await startSandbox({ httpPort: 0, smtpPort: 0 });
    dir = await mkdtemp(path.join(tmpdir(), 'notification-status-'));
    const key = await fetch(`${sandbox.httpUrl}/__admin/health/service-account.json`);
    const file = path.join(dir, 'service-account.json');
    await writeFile(file, await key.text());
    options.env.GOOGLE_HEALTH_SERVICE_ACCOUNT_FILE ??= file;
    options.env.GOOGLE_HEALTH_PROJECT_NUMBER ??= '424242424242';
    options.env.GOOGLE_HEALTH_API_URL = sandbox.httpUrl;
  });
  afterAll(async () => {
    await sandbox?.close();
    await rm(dir, { recursive: true, force: true });
  });
}

/** A steps notification of 5 October 2026 for the account. */
function notification(healthUserId: string) {
  return {
    data: {
      clientProvidedSubscriptionName: randomBytes(8).toString('hex'),
      healthUserId,
      operation: 'UPSERT',
      dataType: 'steps',
      intervals: [
        {
          civilIso8601TimeInterval: {
            startTime: '2026-10-05T10:29:00',
            endTime: '2026-10-05T10:34:00',
          },
        },
      ],
    },
  };
}

describe('GET /api/admin/health-notifications with a subscriber registered', () => {
  let keyset: KeysetServer;
  let endpoint: TestWebhookEndpoint;
  const options: Options = { env: { GOOGLE_HEALTH_WEBHOOK_SECRET: SECRET } };
  googleOnOwnSandbox(options);
  // Before the app's own beforeAll: it is configured with these addresses.
  beforeAll(async () => {
    keyset = await startKeysetServer([googleKey]);
    endpoint = await startWebhookEndpoint(SECRET);
    options.env.GOOGLE_HEALTH_WEBHOOK_KEYSET_URL = keyset.url;
    options.env.PUBLIC_URL = endpoint.baseUrl;
  });
  afterAll(async () => {
    await keyset.close();
    await endpoint.close();
  });
  const t = useTestApp(options);

  // Registered on the sandbox as `health-subscriber create` does, before anyone asks.
  beforeAll(async () => {
    const { webhooks, apiUrl } = t.config.googleHealth;
    if (!webhooks.serviceAccount || !webhooks.projectNumber) throw new Error('no sandbox account');
    const client = createSubscribersClient({
      apiUrl,
      projectNumber: webhooks.projectNumber,
      key: await loadServiceAccountKey(webhooks.serviceAccount),
    });
    await client.create('research-platform', {
      endpointUri: webhooks.endpointUrl,
      secret: SECRET,
      subscriberConfigs: [
        { dataTypes: subscribedDataTypes(), subscriptionCreatePolicy: 'AUTOMATIC' },
      ],
    });
  });

  it('answers the master only: 401 signed out, 403 to a researcher, 200 to the master', async () => {
    expect((await statusAs(t.app, null)).statusCode).toBe(401);
    const researcher = await accountWith(t.app, 'approved');
    const refused = await statusAs(t.app, researcher.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ success: false, code: 'MASTER_ONLY' });
    const master = await accountWith(t.app, 'master');
    expect((await statusAs(t.app, master.token)).statusCode).toBe(200);
  });

  it('shows the subscriber as Google reports it, pointing at this server', async () => {
    const status = await masterStatus(t.app);
    expect(status.subscriber).toEqual({
      status: 'registered',
      name: 'projects/424242424242/subscribers/research-platform',
      state: 'ACTIVE',
      endpointUri: endpoint.url,
      isThisEndpoint: true,
      secretSet: true,
      configs: [{ subscriptionCreatePolicy: 'AUTOMATIC', dataTypes: subscribedDataTypes() }],
      missingDataTypes: [],
    });
    expect(status.endpointUrl).toBe(endpoint.url);
    expect(status.secretConfigured).toBe(true);
  });

  it('counts what arrived, what waits and what was refused', async () => {
    const before = await masterStatus(t.app);
    expect(before.received).toEqual({ lastAt: null, lastDataType: null, last24Hours: 0 });
    expect(before.refusals).toEqual([]);

    // One account connected in one study; two signed notifications about it.
    const world = await studyWithParticipants(t.app);
    const participant = await world.addParticipant();
    const healthUserId = String(BigInt(`0x${randomBytes(6).toString('hex')}`));
    const [connection] = await t.app.platform.db
      .insert(wearableConnections)
      .values({ participantId: participant.id, studyId: world.study.id, healthUserId })
      .returning();
    for (let i = 0; i < 2; i++) {
      const body = JSON.stringify(notification(healthUserId));
      const res = await t.app.inject({
        method: 'POST',
        url: '/webhooks/google-health',
        remoteAddress: someAddress(),
        headers: {
          'content-type': 'application/json',
          authorization: SECRET,
          'google-health-api-signature': tinkSign(googleKey, body),
        },
        payload: body,
      });
      expect(res.statusCode).toBe(204);
    }
    // Three refused: two with a wrong secret, one unsigned.
    for (const authorization of ['Bearer wrong', 'Bearer also-wrong', SECRET]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/webhooks/google-health',
        remoteAddress: someAddress(),
        headers: { 'content-type': 'application/json', authorization },
        payload: JSON.stringify(notification(healthUserId)),
      });
      expect(res.statusCode).toBe(401);
    }
    await t.app.healthNotifications.flushRefusals();
    // Refusals of six days ago count in the week, older ones not at all.
    const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
    await t.app.platform.db.insert(healthNotificationRefusals).values([
      { day: daysAgo(6), reason: 'wrong_authorization', count: 5 },
      { day: daysAgo(7), reason: 'invalid_payload', count: 9 },
    ]);

    // Both notifications resolve to one work row (same connection, type and day), which the
    // collection then ends (the day is before enrolment: nothing to fetch). The wait reads the
    // counts themselves: the row can finish between the status and a separate read of it.
    const status = await eventually(async () => {
      const current = await masterStatus(t.app);
      const { unresolved, pending, processing } = current.backlog;
      return unresolved + pending + processing === 0 ? current : undefined;
    });
    expect(status.received.last24Hours).toBe(2);
    expect(status.received.lastDataType).toBe('steps');
    expect(status.received.lastAt).not.toBeNull();
    expect(status.backlog).toMatchObject({ unresolved: 0, pending: 0, processing: 0 });
    const [work] = await t.app.platform.db.select().from(healthNotificationWork);
    expect(work).toMatchObject({ connectionId: connection?.id, state: 'done' });
    expect(status.refusals.map(({ lastAt: _, ...row }) => row)).toEqual([
      { reason: 'wrong_authorization', today: 2, last7Days: 7 },
      { reason: 'missing_signature', today: 1, last7Days: 1 },
    ]);

    // A notification stored but not resolved yet (about nobody here), a row waiting and a row
    // being fetched (no job is queued for either: the counts stay).
    const receivedAt = new Date('2026-01-02T03:04:05.000Z');
    await t.app.platform.db.insert(healthNotifications).values({
      bodySha256: randomBytes(32).toString('hex'),
      healthUserId: '1',
      operation: 'UPSERT',
      dataType: 'sleep',
      receivedAt,
      payload: notification(healthUserId),
    });
    await t.app.platform.db.insert(healthNotificationWork).values({
      connectionId: connection?.id ?? '',
      studyId: world.study.id,
      dataType: 'sleep',
      day: '2026-10-04',
      state: 'processing',
    });
    const pendingAt = new Date('2026-01-03T00:00:00.000Z');
    await t.app.platform.db.insert(healthNotificationWork).values({
      connectionId: connection?.id ?? '',
      studyId: world.study.id,
      dataType: 'steps',
      day: '2026-10-03',
      updatedAt: pendingAt,
    });
    const later = await masterStatus(t.app);
    expect(later.backlog.oldestPendingAt).toBe(pendingAt.toISOString());
    expect(later.backlog.processing).toBe(1);
    expect(later.backlog.pending).toBe(1);
    // The minute's drain may have resolved it meanwhile; until then it is counted.
    if (later.backlog.unresolved === 1) {
      expect(later.backlog.oldestUnresolvedAt).toBe(receivedAt.toISOString());
    }
    // Received long ago: not among the last 24 hours, nor the last received.
    expect(later.received.last24Hours).toBe(2);
    expect(later.received.lastDataType).toBe('steps');
  });
});

describe('GET /api/admin/health-notifications without a subscriber', () => {
  const options: Options = { env: {} };
  googleOnOwnSandbox(options);
  const t = useTestApp(options);

  it('says none is registered', async () => {
    const status = await masterStatus(t.app);
    expect(status.subscriber).toEqual({ status: 'not_registered', others: [] });
  });
});

describe('GET /api/admin/health-notifications when Google refuses the service account', () => {
  const options: Options = { env: { GOOGLE_HEALTH_PROJECT_NUMBER: '123456789' } };
  googleOnOwnSandbox(options);
  const t = useTestApp(options);

  it('says why, and still shows the counts', async () => {
    const status = await masterStatus(t.app);
    expect(status.subscriber).toMatchObject({
      status: 'lookup_failed',
      reason: 'permission_denied',
    });
    if (status.subscriber.status === 'lookup_failed') {
      expect(status.subscriber.detail).toContain('GOOGLE_HEALTH_PROJECT_NUMBER (123456789)');
    }
    expect(status.backlog.unresolved).toBe(0);
  });
});

describe('GET /api/admin/health-notifications with no service account configured', () => {
  // Neither the key file nor the project number, nor the webhook secret.
  const t = useTestApp();

  it('names the missing settings, and that every notification is refused without a secret', async () => {
    const status = await masterStatus(t.app);
    expect(status.subscriber).toEqual({
      status: 'not_configured',
      missing: ['GOOGLE_HEALTH_SERVICE_ACCOUNT_FILE', 'GOOGLE_HEALTH_PROJECT_NUMBER'],
    });
    expect(status.secretConfigured).toBe(false);
  });
});
