import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../index.js';
import { serviceAccountToken, subscribersApi } from '../test/service-account-flow.js';
import { type Receiver, startReceiver } from '../test/webhook-receiver.js';

let sandbox: Sandbox;
let token: string;
let receiver: Receiver;
const SECRET = 'Bearer 6f0c3e2a-subscriber-test';
let project: string;

beforeAll(async () => {
  sandbox = await startSandbox({ httpPort: 0, smtpPort: 0 });
  token = await serviceAccountToken(sandbox);
  receiver = await startReceiver(SECRET);
  project = sandbox.health.webhooks.project.number;
});

afterEach(async () => {
  sandbox.health.resetControls();
  receiver.verifyWith('check');
  receiver.delayMs = 0;
  const listed = await call('GET', `/v4/projects/${project}/subscribers`);
  for (const s of (listed.json.subscribers ?? []) as { name: string }[]) {
    await call('DELETE', `/v4/${s.name}`);
  }
  receiver.verifications.length = 0;
});

afterAll(async () => {
  await receiver.close();
  await sandbox.close();
});

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) =>
  subscribersApi(sandbox, token, method, path, body);

const createBody = (overrides: Record<string, unknown> = {}) => ({
  endpointUri: receiver.url,
  subscriberConfigs: [
    { dataTypes: ['steps', 'heart-rate', 'sleep'], subscriptionCreatePolicy: 'AUTOMATIC' },
  ],
  endpointAuthorization: { secret: SECRET },
  ...overrides,
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('create', () => {
  it('verifies the endpoint twice and answers a finished Operation with the ACTIVE subscriber', async () => {
    const created = await call(
      'POST',
      `/v4/projects/${project}/subscribers?subscriberId=research-hook`,
      createBody(),
    );
    expect(created.status).toBe(200);
    expect(created.json).toEqual({
      name: expect.stringMatching(/^operations\/[0-9a-f-]{36}$/),
      done: true,
      response: {
        '@type': 'type.googleapis.com/google.devicesandservices.health.v4.Subscriber',
        name: `projects/${project}/subscribers/research-hook`,
        endpointUri: receiver.url,
        subscriberConfigs: [
          { dataTypes: ['steps', 'heart-rate', 'sleep'], subscriptionCreatePolicy: 'AUTOMATIC' },
        ],
        endpointAuthorization: { secretSet: true },
        state: 'ACTIVE',
        createTime: expect.stringMatching(/Z$/),
        updateTime: expect.stringMatching(/Z$/),
      },
    });
    expect(JSON.stringify(created.json)).not.toContain(SECRET);

    const [withSecret, without] = receiver.verifications;
    expect(receiver.verifications).toHaveLength(2);
    expect(withSecret?.json).toEqual({ type: 'verification' });
    expect(withSecret?.headers.authorization).toBe(SECRET);
    expect(withSecret?.headers['content-type']).toBe('application/json');
    expect(withSecret?.headers['user-agent']).toBe('Google-Health-API-Webhooks-Verifier');
    expect(without?.json).toEqual({ type: 'verification' });
    expect(without?.headers.authorization).toBeUndefined();
  });

  it('lists subscribers with the secret only as set, in pages', async () => {
    for (const id of ['hook-one', 'hook-two', 'hook-three']) {
      const r = await call(
        'POST',
        `/v4/projects/${project}/subscribers?subscriberId=${id}`,
        createBody(),
      );
      expect(r.status).toBe(200);
    }
    const first = await call('GET', `/v4/projects/${project}/subscribers?pageSize=2`);
    expect(first.status).toBe(200);
    const page1 = first.json.subscribers as Record<string, unknown>[];
    expect(page1.map((s) => s.name)).toEqual([
      `projects/${project}/subscribers/hook-one`,
      `projects/${project}/subscribers/hook-three`,
    ]);
    expect(page1[0]?.endpointAuthorization).toEqual({ secretSet: true });
    expect(first.json.totalSize).toBe(3);
    const second = await call(
      'GET',
      `/v4/projects/${project}/subscribers?pageSize=2&pageToken=${first.json.nextPageToken}`,
    );
    expect((second.json.subscribers as { name: string }[]).map((s) => s.name)).toEqual([
      `projects/${project}/subscribers/hook-two`,
    ]);
    expect(second.json.nextPageToken).toBeUndefined();
    expect(JSON.stringify([first.json, second.json])).not.toContain(SECRET);
  });

  it('generates an id when none is given and refuses a taken or malformed one', async () => {
    const generated = await call('POST', `/v4/projects/${project}/subscribers`, createBody());
    expect((generated.json.response as { name: string }).name).toMatch(
      new RegExp(`^projects/${project}/subscribers/[0-9a-f-]{36}$`),
    );
    await call('POST', `/v4/projects/${project}/subscribers?subscriberId=taken-id`, createBody());
    const again = await call(
      'POST',
      `/v4/projects/${project}/subscribers?subscriberId=taken-id`,
      createBody(),
    );
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ error: { status: 'ALREADY_EXISTS' } });
    for (const bad of ['abc', 'Upper-case', '9starts-with-digit', 'ends-with-hyphen-']) {
      const r = await call(
        'POST',
        `/v4/projects/${project}/subscribers?subscriberId=${bad}`,
        createBody(),
      );
      expect(r.status, bad).toBe(400);
      expect(r.json).toMatchObject({ error: { status: 'INVALID_ARGUMENT' } });
    }
  });

  it('refuses unknown fields, types that do not notify, a plain-http remote URI, no secret', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [createBody({ colour: 'blue' }), /Unknown name "colour"/],
      [
        createBody({
          subscriberConfigs: [
            { dataTypes: ['oxygen-saturation'], subscriptionCreatePolicy: 'AUTOMATIC' },
          ],
        }),
        /does not support notifications/,
      ],
      [
        createBody({
          subscriberConfigs: [{ dataTypes: ['heartRate'], subscriptionCreatePolicy: 'AUTOMATIC' }],
        }),
        /Invalid data type: heartRate/,
      ],
      [createBody({ subscriberConfigs: [{ dataTypes: ['steps'] }] }), /subscription_create_policy/],
      [createBody({ endpointUri: 'http://hooks.example.org/google' }), /HTTPS/],
      [createBody({ endpointAuthorization: {} }), /secret is required/],
    ];
    for (const [body, message] of cases) {
      const r = await call(
        'POST',
        `/v4/projects/${project}/subscribers?subscriberId=bad-body`,
        body,
      );
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect((r.json.error as { message: string }).message).toMatch(message);
    }
    expect(receiver.verifications).toHaveLength(0);
  });
});

describe('verification handshake failures', () => {
  const failsWith = async (body: Record<string, unknown>, reason: RegExp) => {
    const r = await call(
      'POST',
      `/v4/projects/${project}/subscribers?subscriberId=will-fail`,
      body,
    );
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ error: { code: 400, status: 'FAILED_PRECONDITION' } });
    expect((r.json.error as { message: string }).message).toMatch(reason);
    const listed = await call('GET', `/v4/projects/${project}/subscribers`);
    expect(listed.json).toEqual({});
  };

  it('fails when the endpoint accepts requests without the secret', async () => {
    receiver.verifyWith(200);
    await failsWith(createBody(), /without the Authorization header got HTTP 200/);
  });

  it('fails when the endpoint refuses the right secret', async () => {
    await failsWith(
      createBody({ endpointAuthorization: { secret: 'Bearer not-what-it-expects' } }),
      /with the Authorization header got HTTP 401, expected 200 or 201/,
    );
  });

  it('fails when nothing listens or the endpoint does not answer in time', async () => {
    await failsWith(
      createBody({ endpointUri: `http://127.0.0.1:${await closedPort()}/hook` }),
      /no answer \(ECONNREFUSED\)/,
    );
    sandbox.health.setControls({ webhookTimeoutMs: 100 });
    receiver.delayMs = 500;
    await failsWith(createBody(), /no answer \(timeout\)/);
  });
});

describe('patch and delete', () => {
  it('replaces configs without verifying, and re-verifies a new secret or endpoint', async () => {
    const name = `projects/${project}/subscribers/patch-me`;
    await call('POST', `/v4/projects/${project}/subscribers?subscriberId=patch-me`, createBody());
    receiver.verifications.length = 0;

    const configs = await call('PATCH', `/v4/${name}?updateMask=subscriberConfigs`, {
      subscriberConfigs: [{ dataTypes: ['weight'], subscriptionCreatePolicy: 'AUTOMATIC' }],
    });
    expect(configs.status).toBe(200);
    expect(configs.json).toMatchObject({
      done: true,
      response: {
        name,
        subscriberConfigs: [{ dataTypes: ['weight'], subscriptionCreatePolicy: 'AUTOMATIC' }],
        state: 'ACTIVE',
      },
    });
    expect(receiver.verifications).toHaveLength(0);

    // A new secret the endpoint does not know yet: refused, and the subscriber keeps the old one.
    const refused = await call('PATCH', `/v4/${name}?updateMask=endpoint_authorization`, {
      endpointAuthorization: { secret: 'Bearer rotated' },
    });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ error: { status: 'FAILED_PRECONDITION' } });
    expect(receiver.verifications[0]?.headers.authorization).toBe('Bearer rotated');

    const other = await startReceiver('Bearer rotated', '/other');
    try {
      receiver.verifications.length = 0;
      const moved = await call(
        'PATCH',
        `/v4/${name}?updateMask=endpointUri,endpointAuthorization`,
        {
          endpointUri: other.url,
          endpointAuthorization: { secret: 'Bearer rotated' },
        },
      );
      expect(moved.status).toBe(200);
      expect((moved.json.response as { endpointUri: string }).endpointUri).toBe(other.url);
      expect(other.verifications.map((v) => v.answered)).toEqual([201, 401]);
    } finally {
      await other.close();
    }
    const badMask = await call('PATCH', `/v4/${name}?updateMask=state`, { state: 'INACTIVE' });
    expect(badMask.status).toBe(400);
  });

  it('reads a body-less DELETE that names a JSON type, and answers bad JSON in Google’s envelope', async () => {
    await call('POST', `/v4/projects/${project}/subscribers?subscriberId=json-type`, createBody());
    const url = `${sandbox.health.urls.apiBaseUrl}/v4/projects/${project}/subscribers/json-type`;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const deleted = await fetch(url, { method: 'DELETE', headers });
    expect([deleted.status, await deleted.json()]).toEqual([200, {}]);
    const bad = await fetch(
      `${sandbox.health.urls.apiBaseUrl}/v4/projects/${project}/subscribers`,
      {
        method: 'POST',
        headers,
        body: '{"endpointUri": ',
      },
    );
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
  });

  it('deletes with {} (force or not) and answers 404 for an unknown subscriber', async () => {
    await call('POST', `/v4/projects/${project}/subscribers?subscriberId=delete-me`, createBody());
    const deleted = await call(
      'DELETE',
      `/v4/projects/${project}/subscribers/delete-me?force=true`,
    );
    expect(deleted).toEqual({ status: 200, json: {} });
    const again = await call('DELETE', `/v4/projects/${project}/subscribers/delete-me`);
    expect(again.status).toBe(404);
    expect(again.json).toMatchObject({ error: { status: 'NOT_FOUND' } });
    const patchMissing = await call(
      'PATCH',
      `/v4/projects/${project}/subscribers/delete-me?updateMask=subscriberConfigs`,
      { subscriberConfigs: [] },
    );
    expect(patchMissing.status).toBe(404);
  });
});

describe('project number, not project id', () => {
  it('403 on create and list, 400 on patch and delete', async () => {
    const id = sandbox.health.webhooks.project.id;
    for (const r of [
      await call('POST', `/v4/projects/${id}/subscribers?subscriberId=by-id`, createBody()),
      await call('GET', `/v4/projects/${id}/subscribers`),
    ]) {
      expect(r.status).toBe(403);
      expect(r.json).toMatchObject({
        error: { status: 'PERMISSION_DENIED', message: 'The caller does not have permission' },
      });
    }
    for (const r of [
      await call('PATCH', `/v4/projects/${id}/subscribers/by-id?updateMask=subscriberConfigs`, {
        subscriberConfigs: [],
      }),
      await call('DELETE', `/v4/projects/${id}/subscribers/by-id`),
    ]) {
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({
        error: { status: 'INVALID_ARGUMENT', message: 'Invalid project number in resource name' },
      });
    }
    // Another project's number: the service account holds no role there.
    const elsewhere = await call('GET', '/v4/projects/111111111111/subscribers');
    expect(elsewhere.status).toBe(403);
    expect(receiver.verifications).toHaveLength(0);
  });
});
