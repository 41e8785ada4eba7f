import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, apiRequest } from './api-client';

// A real HTTP server on a free port: each test scripts its replies, and the server counts the
// attempts it actually received, so retries are observed on the wire, not through a mock.
type Reply = (req: IncomingMessage, res: ServerResponse, attempt: number) => void;

let server: Server;
let baseUrl: string;
let reply: Reply;
let attempts = 0;
let received: { method?: string; headers: IncomingMessage['headers']; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      attempts += 1;
      received.push({ method: req.method, headers: req.headers, body });
      // No keep-alive: a socket reused across tests could fail as a 'network error' and add a
      // retry the test did not script.
      res.setHeader('Connection', 'close');
      reply(req, res, attempts);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  attempts = 0;
  received = [];
  // Drop sockets a timed-out test left hanging.
  server.closeAllConnections();
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function json(res: ServerResponse, status: number, body: unknown, statusText?: string): void {
  const headers = { 'Content-Type': 'application/json; charset=utf-8' };
  if (statusText === undefined) res.writeHead(status, headers);
  else res.writeHead(status, statusText, headers);
  res.end(JSON.stringify(body));
}

// Small delays keep the suite fast while the doubling stays measurable.
const fast = { retryDelayMs: 20, timeoutMs: 2_000 };

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the request to fail');
}

describe('apiRequest', () => {
  it('returns the parsed JSON of a 200 reply and sends the JSON defaults', async () => {
    reply = (_req, res) => json(res, 200, { success: true, items: [1, 2] });
    const data = await apiRequest<{ success: boolean; items: number[] }>(`${baseUrl}/api/items`, {
      method: 'POST',
      body: { name: 'Sleep study' },
      ...fast,
    });
    expect(data).toEqual({ success: true, items: [1, 2] });
    expect(attempts).toBe(1);
    const [request] = received;
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers.accept).toBe('application/json');
    expect(request?.body).toBe('{"name":"Sleep study"}');
    expect(request?.headers.authorization).toBeUndefined();
  });

  it('returns the text of a non-JSON reply', async () => {
    reply = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('ok');
    };
    await expect(apiRequest<string>(`${baseUrl}/healthz`, fast)).resolves.toBe('ok');
  });

  it('throws the body message, status and code of a JSON error reply', async () => {
    reply = (_req, res) =>
      json(res, 400, {
        success: false,
        message: 'Study name is required',
        code: 'VALIDATION_ERROR',
      });
    const error = await failure(apiRequest(`${baseUrl}/api/x`, fast));
    expect(error.message).toBe('Study name is required');
    expect(error.status).toBe(400);
    expect(error.code).toBe('VALIDATION_ERROR');
  });

  it('carries the per-field messages of a validation error', async () => {
    reply = (_req, res) =>
      json(res, 400, {
        success: false,
        message: 'Invalid email format (email)',
        code: 'VALIDATION_ERROR',
        details: { fields: [{ field: 'email', message: 'Invalid email format' }, { nonsense: 1 }] },
      });
    const error = await failure(apiRequest(`${baseUrl}/api/x`, fast));
    expect(error.fields).toEqual([{ field: 'email', message: 'Invalid email format' }]);
  });

  it("carries the error's other details, e.g. the attempts used on a code", async () => {
    reply = (_req, res) =>
      json(res, 400, {
        success: false,
        message: 'Invalid verification code',
        code: 'INVALID_CODE',
        details: { attemptsUsed: 2, maxAttempts: 3 },
      });
    const error = await failure(apiRequest(`${baseUrl}/api/x`, fast));
    expect(error.details).toEqual({ attemptsUsed: 2, maxAttempts: 3 });
  });

  it('sends a create only once when asked, even after a 5xx', async () => {
    reply = (_req, res) => json(res, 503, { error: 'busy' });
    const error = await failure(
      apiRequest(`${baseUrl}/api/x`, { ...fast, method: 'POST', body: {}, retryAttempts: 1 }),
    );
    expect(error.status).toBe(503);
    expect(attempts).toBe(1);
  });

  it('takes the message from the error field when there is no message field', async () => {
    reply = (_req, res) => json(res, 400, { success: false, error: 'Invalid study code' });
    const error = await failure(apiRequest(`${baseUrl}/api/x`, fast));
    expect(error.message).toBe('Invalid study code');
    expect(error.status).toBe(400);
    expect(error.code).toBeUndefined();
  });

  it("falls back to 'HTTP {status}: {statusText}' when the body carries no message", async () => {
    reply = (_req, res) => json(res, 404, { success: false }, 'Not Found');
    const error = await failure(apiRequest(`${baseUrl}/api/x`, fast));
    expect(error.message).toBe('HTTP 404: Not Found');
    expect(error.status).toBe(404);
  });

  it('retries a 500 and returns the following 200', async () => {
    reply = (_req, res, attempt) =>
      attempt === 1 ? json(res, 500, { error: 'boom' }) : json(res, 200, { success: true });
    await expect(apiRequest(`${baseUrl}/api/x`, fast)).resolves.toEqual({ success: true });
    expect(attempts).toBe(2);
  });

  it('gives up after three attempts of 503, waiting twice as long before each retry', async () => {
    const times: number[] = [];
    reply = (_req, res) => {
      times.push(performance.now());
      json(res, 503, { success: false }, 'Service Unavailable');
    };
    const error = await failure(apiRequest(`${baseUrl}/api/x`, { ...fast, retryDelayMs: 50 }));
    expect(error.message).toBe('HTTP 503: Service Unavailable');
    expect(error.status).toBe(503);
    expect(attempts).toBe(3);
    const [t1 = 0, t2 = 0, t3 = 0] = times;
    // Delays of 50 then 100 ms; timers may fire a little early, never much.
    expect(t2 - t1).toBeGreaterThanOrEqual(45);
    expect(t3 - t2).toBeGreaterThanOrEqual(95);
  });

  it('does not retry a 4xx reply', async () => {
    reply = (_req, res) => json(res, 409, { success: false, message: 'Already joined' });
    const error = await failure(apiRequest(`${baseUrl}/api/x`, fast));
    expect(error.status).toBe(409);
    expect(attempts).toBe(1);
  });

  it("fails a slow reply with 'Request timeout'", async () => {
    reply = (_req, res) => {
      setTimeout(() => {
        if (!res.destroyed) json(res, 200, { success: true });
      }, 1_000);
    };
    const error = await failure(apiRequest(`${baseUrl}/api/slow`, { ...fast, timeoutMs: 100 }));
    expect(error.message).toBe('Request timeout');
    expect(error.status).toBe(0);
    expect(attempts).toBe(1);
  });

  it("retries a refused connection, then fails with 'Network connection failed'", async () => {
    // A port that was free a moment ago and has nobody listening now.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const started = performance.now();
    const error = await failure(apiRequest(`http://127.0.0.1:${port}/api/x`, fast));
    expect(error.message).toBe('Network connection failed');
    expect(error.status).toBe(0);
    // Two backoff waits (20 + 40 ms) prove the three attempts happened.
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
  });

  it('sends the Bearer token given in the options', async () => {
    reply = (_req, res) => json(res, 200, { success: true });
    await apiRequest(`${baseUrl}/api/auth/profile`, { ...fast, token: 'tok-123' });
    expect(received[0]?.headers.authorization).toBe('Bearer tok-123');
  });

  it('sends the token stored in sessionStorage when none is given', async () => {
    reply = (_req, res) => json(res, 200, { success: true });
    const store = new Map([['auth_token', 'stored-456']]);
    const previous = Object.getOwnPropertyDescriptor(globalThis, 'sessionStorage');
    Object.defineProperty(globalThis, 'sessionStorage', {
      configurable: true,
      value: { getItem: (key: string) => store.get(key) ?? null },
    });
    try {
      await apiRequest(`${baseUrl}/api/auth/profile`, fast);
      await apiRequest(`${baseUrl}/api/auth/verify-study-code`, { ...fast, token: null });
    } finally {
      if (previous) Object.defineProperty(globalThis, 'sessionStorage', previous);
      else Reflect.deleteProperty(globalThis, 'sessionStorage');
    }
    expect(received[0]?.headers.authorization).toBe('Bearer stored-456');
    // token: null opts out, for the public participant calls.
    expect(received[1]?.headers.authorization).toBeUndefined();
  });

  it('stops at once, without retries, when the caller aborts', async () => {
    reply = () => {
      // Never answers.
    };
    const controller = new AbortController();
    const pending = apiRequest(`${baseUrl}/api/x`, { ...fast, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(attempts).toBe(1);
  });
});
