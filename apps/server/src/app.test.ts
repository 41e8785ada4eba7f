import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { emailSchema } from '@research/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from './test/test-app.js';

describe('the HTTP app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      routes: (app) => {
        app.post(
          '/api/test/echo',
          { schema: { body: z.object({ email: emailSchema, age: z.number().int().min(18) }) } },
          async (request) => ({
            success: true,
            body: request.body,
          }),
        );
        app.get('/api/test/boom', async () => {
          throw new Error('secret internal detail');
        });
      },
    });
  });
  afterAll(() => t.close());

  it('answers /healthz and /readyz with the database and migrations checked', async () => {
    expect((await t.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: true, migrations: true } });
  });

  it('serves OpenAPI as JSON and the docs UI', async () => {
    const json = await t.app.inject('/api/docs/json');
    expect(json.statusCode).toBe(200);
    const spec = json.json() as { openapi: string; paths: Record<string, unknown> };
    expect(spec.openapi).toMatch(/^3\./);
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(['/healthz', '/readyz']));
    // Not ready answers 503 with the checks, not the error envelope: a probe reads which failed.
    const paths = spec.paths as Record<string, { get?: { responses: Record<string, unknown> } }>;
    expect(paths['/readyz']?.get?.responses['503']).toMatchObject({
      content: {
        'application/json': { schema: { properties: { checks: expect.any(Object) } } },
      },
    });
    const ui = await t.app.inject('/api/docs/');
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
  });

  it('sends security headers, without HSTS on plain http', async () => {
    const res = await t.app.inject('/healthz');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('answers validation failures with the envelope naming each field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: { email: 'not-an-email', age: 12 },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(body.error).toBe(body.message);
    const fields = body.details.fields.map((f: { field: string }) => f.field);
    expect(fields).toEqual(expect.arrayContaining(['email', 'age']));
  });

  it('refuses malformed JSON and wrong types with 400, and passes good input', async () => {
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    const wrongType = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: { email: 'a@b.co', age: 'old' },
    });
    expect(wrongType.statusCode).toBe(400);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: { email: 'a@b.co', age: 30 },
    });
    expect(ok.json()).toEqual({ success: true, body: { email: 'a@b.co', age: 30 } });
  });

  it('refuses bodies over the size limit with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: { email: 'a@b.co', age: 30, pad: 'x'.repeat(1_100_000) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ success: false, code: 'TOO_LARGE' });
  });

  it('hides internals of unexpected errors', async () => {
    const res = await t.app.inject('/api/test/boom');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      success: false,
      error: 'Something went wrong on our side. Please try again.',
      message: 'Something went wrong on our side. Please try again.',
      code: 'INTERNAL_ERROR',
    });
    expect(res.body).not.toContain('secret internal detail');
  });

  it('answers unknown API paths with a JSON 404 envelope', async () => {
    const res = await t.app.inject('/api/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });
});

describe('rate limiting, HSTS and the web app', () => {
  let t: TestApp;
  let webDir: string;
  beforeAll(async () => {
    webDir = await mkdtemp(path.join(os.tmpdir(), 'wrp-web-'));
    await mkdir(path.join(webDir, 'assets'));
    await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>app shell</title>');
    await writeFile(path.join(webDir, 'assets', 'main-abc123.js'), 'console.log(1)');
    t = await createTestApp({
      env: {
        RATE_LIMIT_MAX: '5',
        PUBLIC_URL: 'https://research.example.org',
        WEB_DIST_DIR: webDir,
      },
    });
  });
  afterAll(() => t.close());

  it('sends HSTS when the public address is https', async () => {
    const res = await t.app.inject('/healthz');
    expect(res.headers['strict-transport-security']).toContain('max-age=31536000');
  });

  it('serves index.html for client routes and fingerprinted assets with a long cache', async () => {
    const page = await t.app.inject('/researcher/dashboard');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('app shell');
    expect(page.headers['cache-control']).toBe('no-cache');
    const asset = await t.app.inject('/assets/main-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    // Popup return pages keep window.opener; every other page isolates itself from openers.
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    const callback = await t.app.inject('/auth/google/callback?code=x&state=y');
    expect(callback.headers['cross-origin-opener-policy']).toBe('unsafe-none');
    const missingAsset = await t.app.inject('/assets/missing.js');
    expect(missingAsset.statusCode).toBe(404);
  });

  it('throttles a client past the limit with 429 and the envelope, but never the health checks', async () => {
    // RATE_LIMIT_MAX is 5 a minute; the requests above count too.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await t.app.inject('/api/docs/json')).statusCode);
    expect(statuses).toContain(200);
    expect(statuses.at(-1)).toBe(429);
    const limited = await t.app.inject('/api/docs/json');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    expect(limited.json().message).toMatch(/^Too many requests\. Please try again in /);
    expect((await t.app.inject('/healthz')).statusCode).toBe(200);
    // The web app itself still loads for a client the API throttles: pages and assets are static.
    expect((await t.app.inject('/researcher/dashboard')).statusCode).toBe(200);
    expect((await t.app.inject('/assets/main-abc123.js')).statusCode).toBe(200);
  });
});

describe('graceful shutdown', () => {
  it('lets a request in flight finish, then refuses new ones', async () => {
    // Closing starts once the request is in the handler (not after a fixed wait, which a busy
    // machine can outrun).
    let arrived: () => void = () => {};
    const inHandler = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const t = await createTestApp({
      routes: (app) => {
        app.get('/api/test/slow', async () => {
          arrived();
          await new Promise((r) => setTimeout(r, 700));
          return { success: true, finished: true };
        });
      },
    });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const inFlight = fetch(`${address}/api/test/slow`).then((r) => r.json());
    await inHandler;
    const closing = t.close();
    expect(await inFlight).toEqual({ success: true, finished: true });
    await closing;
    await expect(fetch(`${address}/healthz`)).rejects.toThrow();
  });
});
