import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { TRANSPORT_MESSAGES } from '@research/contracts';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser, someAddress } from '../test/auth-helpers.js';
import { useTestApp } from '../test/test-app.js';

const LONG_ID = `${'abc'.repeat(400)}`;
const envelope = (message: string, code: string) => ({
  success: false,
  error: message,
  message,
  code,
});

/** Errors the HTTP layer raises before a route runs: the same envelope, no address quoted. */
describe('framework errors', () => {
  const t = useTestApp();
  let token: string;
  let origin: string;
  beforeAll(async () => {
    token = (await registerUser(t.app)).token;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  it.each<[string, InjectOptions, number, string, string]>([
    [
      'a path parameter over the length limit',
      { method: 'GET', url: `/api/studies/${LONG_ID}` },
      414,
      TRANSPORT_MESSAGES.uriTooLong,
      'URI_TOO_LONG',
    ],
    [
      'a bad percent-encoding in the path',
      { method: 'GET', url: '/api/studies/abc%ED%A0%80def' },
      400,
      TRANSPORT_MESSAGES.badUrl,
      'BAD_REQUEST',
    ],
    [
      'a body over the limit',
      {
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: `{"email":"${'a'.repeat(2 * 1024 * 1024)}"}`,
      },
      413,
      TRANSPORT_MESSAGES.tooLarge,
      'TOO_LARGE',
    ],
    [
      'an unknown content type',
      {
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'text/xml' },
        payload: '<a/>',
      },
      415,
      TRANSPORT_MESSAGES.unsupportedMediaType,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'malformed JSON',
      {
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: '{"email": "a',
      },
      400,
      TRANSPORT_MESSAGES.invalidJson,
      'VALIDATION_ERROR',
    ],
  ])('%s answers the envelope', async (_name, options, status, message, code) => {
    for (const headers of [{}, bearer(token)]) {
      const res = await t.app.inject({
        ...options,
        headers: { ...(options.headers as Record<string, string>), ...headers },
        remoteAddress: someAddress(),
      });
      expect(res.statusCode).toBe(status);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual(envelope(message, code));
      expect(res.body).not.toContain('abcabc');
      expect(res.body).not.toContain('%ED');
    }
  });

  it('answers an address over the header limit with the envelope (431), over a real socket', async () => {
    const res = await fetch(`${origin}/api/studies/${'x'.repeat(20_000)}`);
    expect(res.status).toBe(431);
    const body = await res.text();
    expect(JSON.parse(body)).toEqual(
      envelope(TRANSPORT_MESSAGES.headersTooLarge, 'HEADERS_TOO_LARGE'),
    );
    expect(body).not.toContain('xxxx');
  });

  it('answers a long path parameter over a real socket with 414 and the envelope', async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>(
      (resolve, reject) => {
        const req = httpRequest(`${origin}/api/studies/${LONG_ID}`, (res) => {
          let text = '';
          res.on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        });
        req.on('error', reject);
        req.end();
      },
    );
    expect(status).toBe(414);
    expect(JSON.parse(body)).toEqual(envelope(TRANSPORT_MESSAGES.uriTooLong, 'URI_TOO_LONG'));
  });

  it('answers a request line the parser cannot read with the envelope (400)', async () => {
    const url = new URL(origin);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write('GET /api/studies/<script> HTTP/1.1 EXTRA\r\nHost: x\r\n\r\n');
      });
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk;
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
    expect(JSON.parse(body)).toEqual(envelope(TRANSPORT_MESSAGES.badRequest, 'BAD_REQUEST'));
    expect(raw).not.toContain('<script>');
  });
});
