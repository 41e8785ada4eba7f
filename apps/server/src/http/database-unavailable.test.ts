import { SERVICE_MESSAGES } from '@research/contracts';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailability } from '../db/availability.js';
import { startTcpProxy, type TcpProxy } from '../test/tcp-proxy.js';
import { createTestApp, freePort, logCapture, type TestApp } from '../test/test-app.js';

/**
 * A request whose database is out of reach answers 503 with a message that says to try again,
 * never a stack, SQL or a 500. The errors here are real: node-postgres connecting to a port
 * nobody listens on, and to a proxy that drops the connection.
 */

let t: TestApp;
let closedPort: number;
let proxy: TcpProxy;
const { lines: logs, stream: logStream } = logCapture();

beforeAll(async () => {
  closedPort = await freePort();
  proxy = await startTcpProxy({ host: '127.0.0.1', port: closedPort });
  const pointing = (port: number) => {
    const pool = new pg.Pool({ host: '127.0.0.1', port, user: 'nobody', database: 'none' });
    pool.on('error', () => {});
    return drizzle(pool);
  };
  t = await createTestApp({
    logStream,
    env: { LOG_LEVEL: 'info' },
    routes: (app) => {
      // As a repository would: a query through Drizzle, whose error wraps the driver's.
      app.get('/api/test/refused', async () => {
        await pointing(closedPort).execute(
          sql`select email from users where email = ${'a@b.test'}`,
        );
        return { success: true };
      });
      app.get('/api/test/dropped', async () => {
        await pointing(proxy.port).execute(sql`select 1`);
        return { success: true };
      });
    },
  });
});

afterAll(async () => {
  await proxy?.close();
  await t?.close();
});

describe('a request while the database is out of reach', () => {
  for (const path of ['/api/test/refused', '/api/test/dropped']) {
    it(`answers 503 with the envelope, DATABASE_UNAVAILABLE and Retry-After (${path})`, async () => {
      const res = await t.app.inject(path);
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('60');
      expect(res.json()).toEqual({
        success: false,
        error: SERVICE_MESSAGES.databaseUnavailable,
        message: SERVICE_MESSAGES.databaseUnavailable,
        code: 'DATABASE_UNAVAILABLE',
      });
      expect(res.body).not.toMatch(/select|ECONNREFUSED|terminated|at /i);
    });
  }

  it('logs one line with the reason, without the statement or its values', () => {
    const lines = logs.filter((line) => line.includes('database unavailable'));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) {
      expect(line).not.toContain('a@b.test');
      expect(line).not.toMatch(/select/i);
    }
    expect(lines.join('\n')).toMatch(/"reason":"(ECONNREFUSED|connection-terminated)"/);
  });
});

describe('databaseUnavailability', () => {
  it('names a refused or dropped connection and no other failure', async () => {
    const refused = await new pg.Client({ host: '127.0.0.1', port: closedPort })
      .connect()
      .catch((error: unknown) => error);
    expect(databaseUnavailability(refused)).toBe('ECONNREFUSED');
    const dropped = await new pg.Client({ host: '127.0.0.1', port: proxy.port })
      .connect()
      .catch((error: unknown) => error);
    expect(databaseUnavailability(dropped)).toBe('connection-terminated');
    expect(databaseUnavailability(Object.assign(new Error('x'), { code: '57P01' }))).toBe('57P01');
    expect(databaseUnavailability(new Error('wrapped', { cause: refused }))).toBe('ECONNREFUSED');
    // A constraint violation, a syntax error, a plain bug: faults, not an outage.
    expect(databaseUnavailability(Object.assign(new Error('dup'), { code: '23505' }))).toBeNull();
    expect(
      databaseUnavailability(Object.assign(new Error('syntax'), { code: '42601' })),
    ).toBeNull();
    expect(databaseUnavailability(new TypeError('undefined is not a function'))).toBeNull();
    expect(databaseUnavailability('Connection terminated')).toBeNull();
  });
});
