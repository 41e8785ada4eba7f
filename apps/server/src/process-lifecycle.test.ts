import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, spawnServer } from './test/spawn-server.js';
import { cloneDatabase, freePort } from './test/test-app.js';

/**
 * What the server process does with a failure nobody caught: a rejection because the database is
 * out of reach is logged and the process serves on; anything else closes the app and exits 1 so
 * a supervisor restarts it. Real processes (the app as main.ts starts it), real errors.
 */

let dataDir: string;
let env: Record<string, string>;
let drop: () => Promise<void>;
const running: ServerProcess[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'wrp-process-'));
  const database = await cloneDatabase(dataDir);
  drop = database.drop;
  env = {
    DATA_DIR: dataDir,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    PUBLIC_URL: 'http://localhost:3000',
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    SMTP_URL: `smtp://127.0.0.1:${await freePort()}`,
    TEST_CLOSED_PORT: String(await freePort()),
    ...database.env,
  };
}, 60_000);

afterAll(async () => {
  for (const server of running) await server.stop();
  await drop?.();
  await rm(dataDir, { recursive: true, force: true });
});

async function start() {
  const server = await spawnServer(env);
  running.push(server);
  return server;
}

const get = async (server: ServerProcess, path: string) => {
  const res = await fetch(`${server.url}${path}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms),
    ),
  ]);

describe('a failure nobody caught', () => {
  it('that is the database out of reach: logged, and the same process serves on', async () => {
    const server = await start();
    const { body: before } = await get(server, '/test/pid');
    expect((await get(server, '/test/stray/refused')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    expect(server.child.exitCode).toBeNull();
    expect((await get(server, '/healthz')).status).toBe(200);
    expect((await get(server, '/test/pid')).body).toEqual(before);
    expect(server.output()).toMatch(/"reason":"ECONNREFUSED".*still serving/);

    // Anything else: logged without personal data, the app closed, exit code 1.
    expect((await get(server, '/test/stray/rejection')).status).toBe(200);
    expect(await within(server.exited, 20_000)).toBe(1);
    const output = server.output();
    expect(output).toMatch(/"kind":"unhandledRejection".*uncaught failure: closing/);
    expect(output).toMatch(/^closed$/m);
    expect(output).not.toContain('ada.lovelace@example.org');
  }, 90_000);

  it('that is an exception: the app closes and the process exits 1', async () => {
    const server = await start();
    expect((await get(server, '/test/stray/exception')).status).toBe(200);
    expect(await within(server.exited, 20_000)).toBe(1);
    expect(server.output()).toMatch(/"kind":"uncaughtException".*uncaught failure: closing/);
    expect(server.output()).toMatch(/^closed$/m);
    expect(server.output()).not.toContain('ada.lovelace@example.org');
  }, 90_000);
});
