import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { logCapture, type TestAppOptions, useTestApp } from '../test/test-app.js';
import { scrubText } from './logger.js';

/** An app that logs at info into `lines`, with the test routes `routes` adds. */
function loggingApp(routes: TestAppOptions['routes']) {
  const { lines, stream } = logCapture();
  const t = useTestApp({ env: { LOG_LEVEL: 'info' }, logStream: stream, routes });
  return { t, lines };
}

describe('request logs', () => {
  const { t, lines } = loggingApp((app) => {
    app.post('/api/test/log-body', async (request) => {
      request.log.info({ body: request.body }, 'handled');
      return { success: true };
    });
  });

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

describe('database error logs', () => {
  const { t, lines } = loggingApp((app) => {
    app.post('/api/test/db-error', async () => {
      await app.platform.db.execute(
        sql`select ${'ada@example.org'}::text, ${'$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA'}::text, ${'(617) 555-0199'}::text, ${'not a number'}::int`,
      );
      return { success: true };
    });
    app.post('/api/test/throw-error', async () => {
      app.log.error(new Error('Failed query: select $1\nparams: ada@example.org,+16175550199'));
      throw new Error('lookup of ada@example.org failed');
    });
  });

  it('name the failure but carry no query parameters, row values or addresses', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/test/db-error', payload: {} });
    expect(res.statusCode).toBe(500);
    await t.app.inject({ method: 'POST', url: '/api/test/throw-error', payload: {} });
    const output = lines.join('\n');
    const errorLines = lines.filter((line) => line.includes('"err"'));
    expect(errorLines.length).toBeGreaterThanOrEqual(2);
    // The database error is still recognisable: its SQLSTATE code is logged.
    expect(output).toContain('"code":"22P02"');
    expect(output).not.toContain('params');
    for (const secret of [
      'ada@example.org',
      '$argon2id$',
      '617) 555-0199',
      '6175550199',
      'not a number',
    ]) {
      expect(output).not.toContain(secret);
    }
  });

  it('a display name with U+0000 is refused with 400 before it reaches the database', async () => {
    const before = lines.length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'nul@example.org', password: 'secret-1', displayName: 'Ada\u0000' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('Text must not contain the null character (U+0000).');
    expect(lines.slice(before).join('\n')).not.toContain('"err"');
  });
});

describe('scrubbed text', () => {
  it('keeps the socket addresses an operator needs and hides numbers that may be personal', () => {
    expect(scrubText('Server listening at http://127.0.0.1:3000')).toBe(
      'Server listening at http://127.0.0.1:3000',
    );
    expect(scrubText('connect ECONNREFUSED 10.0.12.5:5432')).toBe(
      'connect ECONNREFUSED 10.0.12.5:5432',
    );
    expect(scrubText('call +1 (617) 555-0199 or 030.123.45.67')).toBe('call [number] or [number]');
    expect(scrubText('born 1990-01-02 at 10:15')).toBe('born [number] at 10:15');
  });
});
