import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../index.js';
import { api, connect } from '../test/health-flow.js';
import { CLIENT_ID, CLIENT_SECRET, postToken } from '../test/oidc-flow.js';
import { serviceAccountToken, subscribersApi } from '../test/service-account-flow.js';
import { startReceiver } from '../test/webhook-receiver.js';

const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-health-'));

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('health grants with a data directory', () => {
  it('keep tokens, Testing-mode expiry and revocations across a restart', async () => {
    const first = await startSandbox({
      httpPort: 0,
      smtpPort: 0,
      dataDir,
      google: { testingMode: true },
    });
    const kept = await connect(first, 'kept.person@example.test');
    const gone = await connect(first, 'gone.person@example.test');
    first.health.revoke('gone.person@example.test');
    await first.close();

    const second = await startSandbox({ httpPort: 0, smtpPort: 0, dataDir });
    try {
      expect((await api(second, kept.access_token, '/v4/users/me/identity')).status).toBe(200);
      expect((await api(second, gone.access_token, '/v4/users/me/identity')).status).toBe(401);
      const refresh = (token: string | undefined) =>
        postToken(second.health.urls.tokenUrl, {
          grant_type: 'refresh_token',
          refresh_token: token ?? '',
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
        });
      expect((await refresh(gone.refresh_token)).json.error).toBe('invalid_grant');
      const renewed = await refresh(kept.refresh_token);
      expect(renewed.status).toBe(200);
      // The 7-day limit was fixed at consent, so it still counts down after the restart.
      expect(renewed.json.refresh_token_expires_in).toBeLessThanOrEqual(604799);
      expect(second.health.connections('gone.person@example.test')[0]?.revokedAt).toBeTruthy();
    } finally {
      await second.close();
    }
  });
});

describe('webhooks with a data directory', () => {
  it('keep the service-account key, subscribers, signing keys and sync horizons across a restart', async () => {
    const webhookDir = join(dataDir, 'webhooks');
    const receiver = await startReceiver('Bearer kept-secret');
    const first = await startSandbox({ httpPort: 0, smtpPort: 0, dataDir: webhookDir });
    const key = first.health.webhooks.serviceAccountKey();
    first.health.webhooks.rotateKey();
    const keyset = first.health.webhooks.keyset();
    const project = first.health.webhooks.project.number;
    const created = await subscribersApi(
      first,
      await serviceAccountToken(first),
      'POST',
      `/v4/projects/${project}/subscribers?subscriberId=kept-hook`,
      {
        endpointUri: receiver.url,
        subscriberConfigs: [{ dataTypes: ['heart-rate'], subscriptionCreatePolicy: 'AUTOMATIC' }],
        endpointAuthorization: { secret: 'Bearer kept-secret' },
      },
    );
    expect(created.status).toBe(200);
    const horizon = Date.now() - 3 * 3_600_000;
    first.health.sync('kept.person@example.test', horizon);
    await first.close();

    const second = await startSandbox({ httpPort: 0, smtpPort: 0, dataDir: webhookDir });
    try {
      expect(second.health.webhooks.serviceAccountKey().private_key).toBe(key.private_key);
      expect(second.health.webhooks.keyset()).toEqual(keyset);
      const listed = await subscribersApi(
        second,
        await serviceAccountToken(second),
        'GET',
        `/v4/projects/${project}/subscribers`,
      );
      expect(listed.json.subscribers).toEqual([
        expect.objectContaining({ name: `projects/${project}/subscribers/kept-hook` }),
      ]);
      // The horizon held: the next sync notifies what appeared since it, to the kept subscriber.
      await connect(second, 'kept.person@example.test');
      const result = second.health.sync('kept.person@example.test');
      expect(result.previous).toBe(new Date(horizon).toISOString().replace('.000Z', 'Z'));
      expect(result.notifications).toBe(1);
      await second.health.webhooks.settled();
      expect(receiver.notifications.map((r) => r.headers.authorization)).toEqual([
        'Bearer kept-secret',
      ]);
    } finally {
      await second.close();
      await receiver.close();
    }
  });
});
