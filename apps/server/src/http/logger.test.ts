import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.js';

describe('request logs', () => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) =>
      lines.push(...chunk.toString().split('\n').filter(Boolean)),
    );
    t = await createTestApp({
      env: { LOG_LEVEL: 'info' },
      logStream: stream,
      routes: (app) => {
        app.post('/api/test/log-body', async (request) => {
          request.log.info({ body: request.body }, 'handled');
          return { success: true };
        });
      },
    });
  });
  afterAll(() => t.close());

  it('carry no credentials, tokens or e-mail addresses', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/test/log-body?email=ada%40example.org&token=reset-secret-123',
      headers: { authorization: 'Bearer session-secret-456' },
      payload: { email: 'ada@example.org', password: 'hunter22', token: 'body-secret-789' },
    });
    const output = lines.join('\n');
    expect(output).toContain('/api/test/log-body');
    expect(output).toContain('handled');
    for (const secret of [
      'ada@example.org',
      'ada%40example.org',
      'reset-secret-123',
      'session-secret-456',
      'hunter22',
      'body-secret-789',
    ]) {
      expect(output).not.toContain(secret);
    }
  });
});
