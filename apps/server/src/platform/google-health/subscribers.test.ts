import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Sandbox, startSandbox } from '@research/sandbox';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookEndpoint, type TestWebhookEndpoint } from '../../test/webhook-endpoint.js';
import {
  createSubscribersClient,
  loadServiceAccountKey,
  type ServiceAccountKey,
  SubscriberApiError,
  type SubscriberConfig,
} from './subscribers.js';

const SECRET = 'Bearer test-webhook-secret-0123456789';

let sandbox: Sandbox;
let endpoint: TestWebhookEndpoint;
let key: ServiceAccountKey;

beforeAll(async () => {
  sandbox = await startSandbox({ httpPort: 0, smtpPort: 0 });
  endpoint = await startWebhookEndpoint(SECRET);
  key = await loadServiceAccountKey({
    kind: 'url',
    url: `${sandbox.httpUrl}/__admin/health/service-account.json`,
  });
});
afterEach(() => {
  sandbox.health.resetControls();
});
afterAll(async () => {
  await endpoint.close();
  await sandbox.close();
});

const clientFor = (projectNumber = sandbox.health.webhooks.project.number) =>
  createSubscribersClient({ apiUrl: sandbox.health.urls.apiBaseUrl, projectNumber, key });

/** The message of the SubscriberApiError a call fails with. */
async function failure(promise: Promise<unknown>): Promise<SubscriberApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SubscriberApiError);
  return error as SubscriberApiError;
}

describe('the subscribers client on the sandbox', () => {
  it('creates, lists, patches and deletes a subscriber with the service account', async () => {
    expect(key.token_uri).toBe(`${sandbox.issuer}/token`);
    const client = clientFor();
    const created = await client.create('client-crud', {
      endpointUri: endpoint.url,
      secret: SECRET,
      subscriberConfigs: [{ dataTypes: ['steps', 'sleep'], subscriptionCreatePolicy: 'AUTOMATIC' }],
    });
    const name = `projects/${sandbox.health.webhooks.project.number}/subscribers/client-crud`;
    expect(created).toMatchObject({
      name,
      id: 'client-crud',
      endpointUri: endpoint.url,
      secretSet: true,
      state: 'ACTIVE',
      subscriberConfigs: [{ dataTypes: ['steps', 'sleep'], subscriptionCreatePolicy: 'AUTOMATIC' }],
    });
    // The handshake: once with the secret, once without.
    expect(endpoint.received.slice(-2)).toEqual([SECRET, null]);

    expect((await client.list()).map((s) => s.name)).toContain(name);
    expect(await client.get('client-crud')).toEqual(created);
    expect(await client.get('no-such-one')).toBeNull();

    const patched = await client.patch('client-crud', {
      subscriberConfigs: [{ dataTypes: ['heart-rate'], subscriptionCreatePolicy: 'AUTOMATIC' }],
    });
    expect(patched.subscriberConfigs).toEqual([
      { dataTypes: ['heart-rate'], subscriptionCreatePolicy: 'AUTOMATIC' },
    ]);
    expect((await client.get('client-crud'))?.subscriberConfigs[0]?.dataTypes).toEqual([
      'heart-rate',
    ]);

    await client.delete('client-crud');
    expect(await client.get('client-crud')).toBeNull();
    expect((await failure(client.delete('client-crud'))).kind).toBe('not_found');
  });

  it('says the handshake failed when the endpoint does not answer 201 with the secret and 401 without', async () => {
    const wrong = await startWebhookEndpoint(SECRET, 'wrong');
    try {
      const error = await failure(
        clientFor().create('client-wrong', {
          endpointUri: wrong.url,
          secret: SECRET,
          subscriberConfigs: [{ dataTypes: ['steps'], subscriptionCreatePolicy: 'AUTOMATIC' }],
        }),
      );
      expect(error.kind).toBe('verification_failed');
      expect(error.message).toContain(`Google could not verify the endpoint ${wrong.url}`);
      expect(error.message).toContain(
        'with 201 when the Authorization header is the configured secret',
      );
      expect(error.message).toContain('with 401 without it');
      expect(await clientFor().get('client-wrong')).toBeNull();
    } finally {
      await wrong.close();
    }
  });

  it('points at the IAM role and the project number when Google refuses the caller', async () => {
    sandbox.health.setControls({ serviceAccountHasRole: false });
    const noRole = await failure(clientFor().list());
    expect(noRole.kind).toBe('permission_denied');
    expect(noRole.message).toContain('The caller does not have permission');
    expect(noRole.message).toContain(`${key.client_email} holds a Google Health API IAM role`);
    expect(noRole.message).toContain("is the project's number, not its id");
    sandbox.health.resetControls();

    const byId = await failure(clientFor('sandbox-health-project').list());
    expect(byId.kind).toBe('permission_denied');
    expect(byId.message).toContain('GOOGLE_HEALTH_PROJECT_NUMBER (sandbox-health-project)');
  });

  it('says which key file is unusable', async () => {
    const file = path.join(tmpdir(), `not-a-key-${process.pid}.json`);
    await writeFile(file, '{"type":"authorized_user"}');
    const wrong = await failure(loadServiceAccountKey({ kind: 'file', path: file }));
    expect(wrong.message).toBe(
      `${file} is not a service-account key file (JSON with type "service_account", client_email, private_key and token_uri).`,
    );
    const missing = await failure(loadServiceAccountKey({ kind: 'file', path: `${file}.gone` }));
    expect(missing.message).toContain(
      `Could not read the service-account key file at ${file}.gone`,
    );
  });
});

describe('answers the sandbox does not give', () => {
  // Google has answered create with a bare Subscriber, named the flag `authorizationTokenSet`,
  // answered delete with an Operation and may answer an Operation not yet done: a stub API plays
  // those (tokens still come from the sandbox).
  it('reads a bare Subscriber, authorizationTokenSet, a delete Operation and a pending one', async () => {
    const configs: SubscriberConfig[] = [
      { dataTypes: ['steps'], subscriptionCreatePolicy: 'AUTOMATIC' },
    ];
    const subscriber = {
      name: 'projects/424242424242/subscribers/bare-one',
      endpointUri: 'https://research.example.org/webhooks/google-health',
      subscriberConfigs: configs,
      endpointAuthorization: { authorizationTokenSet: true },
      state: 'ACTIVE',
    };
    const seen: string[] = [];
    const stub = createServer((request, response) => {
      seen.push(`${request.method} ${request.url} ${request.headers.authorization?.slice(0, 12)}`);
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        const answers: Record<string, unknown> = {
          POST: subscriber,
          DELETE: { name: 'operations/del-1', done: true },
          // A patch still running, which then fails its verification.
          PATCH: { name: 'operations/patch-1', done: false },
          GET: {
            name: 'operations/patch-1',
            done: true,
            error: { code: 9, message: 'Endpoint verification failed.' },
          },
        };
        response.end(JSON.stringify(answers[request.method ?? '']));
      });
    });
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    try {
      const client = createSubscribersClient({
        apiUrl: `http://127.0.0.1:${(stub.address() as AddressInfo).port}`,
        projectNumber: '424242424242',
        key,
      });
      const created = await client.create('bare-one', {
        endpointUri: subscriber.endpointUri,
        secret: SECRET,
        subscriberConfigs: configs,
      });
      expect(created).toMatchObject({ id: 'bare-one', secretSet: true, createTime: null });
      await client.delete('bare-one');
      const patch = await failure(client.patch('bare-one', { secret: SECRET }));
      expect(patch.kind).toBe('verification_failed');
      expect(patch.message).toContain('("Endpoint verification failed.")');
      expect(seen).toEqual([
        'POST /v4/projects/424242424242/subscribers?subscriberId=bare-one Bearer ya29.',
        'DELETE /v4/projects/424242424242/subscribers/bare-one Bearer ya29.',
        'PATCH /v4/projects/424242424242/subscribers/bare-one?updateMask=endpointAuthorization Bearer ya29.',
        'GET /v4/operations/patch-1 Bearer ya29.',
      ]);
    } finally {
      await new Promise((resolve) => stub.close(resolve));
    }
  });
});
