import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSmsSender, SmsDeliveryError } from './sms.js';

const ACCOUNT_SID = 'AC0123456789abcdef0123456789abcdef';
const AUTH_TOKEN = 'test-auth-token';
const FROM = '+15550000000';

interface Request {
  method: string | undefined;
  path: string | undefined;
  authorization: string | undefined;
  contentType: string | undefined;
  form: URLSearchParams;
}

let server: Server;
let baseUrl: string;
let requests: Request[];
/** What the fake Twilio does after checking the request; set per test. */
let behaviour: 'twilio' | 'server-error' | 'throttle' | 'hang' = 'twilio';

function reply(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Answers like Twilio's Messages resource, including its error JSON. */
async function handle(req: IncomingMessage, res: ServerResponse) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
  requests.push({
    method: req.method,
    path: req.url,
    authorization: req.headers.authorization,
    contentType: req.headers['content-type'],
    form,
  });

  if (behaviour === 'hang') return;
  if (behaviour === 'server-error') {
    return reply(res, 500, { code: 20500, message: 'Internal Server Error', status: 500 });
  }
  if (behaviour === 'throttle') {
    return reply(res, 429, { code: 20429, message: 'Too Many Requests', status: 429 });
  }
  if (req.method !== 'POST' || req.url !== `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`) {
    return reply(res, 404, {
      code: 20404,
      message: 'The requested resource was not found',
      status: 404,
    });
  }
  const expected = `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`;
  if (req.headers.authorization !== expected) {
    return reply(res, 401, { code: 20003, message: 'Authenticate', status: 401 });
  }
  const to = form.get('To') ?? '';
  if (!/^\+[1-9]\d{6,14}$/.test(to)) {
    return reply(res, 400, {
      code: 21211,
      message: `The 'To' number ${to} is not a valid phone number.`,
      more_info: 'https://www.twilio.com/docs/errors/21211',
      status: 400,
    });
  }
  reply(res, 201, {
    sid: `SM${'0'.repeat(31)}${requests.length}`,
    status: 'queued',
    to,
    from: form.get('From'),
    body: form.get('Body'),
  });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  requests = [];
  behaviour = 'twilio';
});

const sender = (overrides: { authToken?: string; baseUrl?: string; timeoutMs?: number } = {}) =>
  createSmsSender({
    baseUrl,
    accountSid: ACCOUNT_SID,
    authToken: AUTH_TOKEN,
    from: FROM,
    ...overrides,
  });

async function catchError(promise: Promise<unknown>): Promise<SmsDeliveryError> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(SmsDeliveryError);
  return error as SmsDeliveryError;
}

describe('createSmsSender', () => {
  it('posts a form to the Messages resource with Basic auth and returns the sid', async () => {
    const body = 'Your verification code is 123456 & valid 10 min.';
    const result = await sender({ baseUrl: `${baseUrl}/` }).send({ to: '+15551234567', body });
    expect(result.sid).toMatch(/^SM\d{32}$/);
    expect(requests).toHaveLength(1);
    const [request] = requests as [Request];
    expect(request.method).toBe('POST');
    expect(request.path).toBe(`/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`);
    expect(request.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(request.authorization).toBe(
      `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`,
    );
    expect(Object.fromEntries(request.form)).toEqual({
      To: '+15551234567',
      From: FROM,
      Body: body,
    });
  });

  it('treats bad credentials (401, code 20003) as permanent', async () => {
    const error = await catchError(
      sender({ authToken: 'wrong' }).send({ to: '+15551234567', body: 'hi' }),
    );
    expect(error.transient).toBe(false);
    expect(error.status).toBe(401);
    expect(error.twilioCode).toBe(20003);
  });

  it('treats an invalid number (400, code 21211) as permanent', async () => {
    const error = await catchError(sender().send({ to: '12', body: 'hi' }));
    expect(error.transient).toBe(false);
    expect(error.status).toBe(400);
    expect(error.twilioCode).toBe(21211);
    expect(error.twilioMessage).toBe("The 'To' number 12 is not a valid phone number.");
    expect(error.message).toBe('SMS delivery failed: HTTP 400, Twilio error 21211');
  });

  it('treats a Twilio server error (500) as transient', async () => {
    behaviour = 'server-error';
    const error = await catchError(sender().send({ to: '+15551234567', body: 'hi' }));
    expect(error.transient).toBe(true);
    expect(error.status).toBe(500);
    expect(error.twilioCode).toBe(20500);
  });

  it('treats throttling (429) as transient', async () => {
    behaviour = 'throttle';
    const error = await catchError(sender().send({ to: '+15551234567', body: 'hi' }));
    expect(error.transient).toBe(true);
    expect(error.status).toBe(429);
  });

  it('treats an unreachable endpoint as transient', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const error = await catchError(
      sender({ baseUrl: `http://127.0.0.1:${port}` }).send({ to: '+15551234567', body: 'hi' }),
    );
    expect(error.transient).toBe(true);
    expect(error.status).toBeUndefined();
  });

  it('gives up after the timeout and reports it as transient', async () => {
    behaviour = 'hang';
    const started = Date.now();
    const error = await catchError(
      sender({ timeoutMs: 300 }).send({ to: '+15551234567', body: 'hi' }),
    );
    expect(error.transient).toBe(true);
    expect(error.message).toContain('no answer within 300 ms');
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
