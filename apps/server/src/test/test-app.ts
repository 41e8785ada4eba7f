import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { type Sandbox, startSandbox } from '@research/sandbox';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp } from '../app.js';
import { type AppConfig, loadConfig } from '../config.js';
import { admin, clonePrefix, withDatabase } from './global-setup.js';

export type TestDatabaseKind = 'pglite' | 'postgres';

/** Which database this run's integration tests use: PostgreSQL when TEST_DATABASE_URL is set. */
export const testDatabaseKind = (): TestDatabaseKind =>
  inject('postgresTemplate') ? 'postgres' : 'pglite';

export interface TestApp {
  app: FastifyInstance;
  sandbox: Sandbox | null;
  config: AppConfig;
  /** The test's own PostgreSQL database (not rewritten); absent on PGlite. */
  databaseUrl?: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Start without a sandbox (e.g. to test a relay that is down). */
  withoutSandbox?: boolean;
  smtpPort?: number;
  /** Extra routes registered before the app is ready (for testing cross-cutting behaviour). */
  routes?: (app: FastifyInstance) => void;
  logStream?: NodeJS.WritableStream;
  /** Check responses against their zod schemas (default); false serializes as production does. */
  validateResponses?: boolean;
  /** Rewrites the PostgreSQL URL the app gets (e.g. through a test's TCP proxy). */
  databaseUrl?: (url: string) => string;
}

/** A free TCP port on loopback (for tests that start a peer later). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A fresh, migrated database of this run's kind, cloned from the template. */
export async function cloneDatabase(
  dataDir: string,
): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const postgres = inject('postgresTemplate');
  if (postgres) {
    const name = `${clonePrefix(postgres.name)}${randomBytes(6).toString('hex')}`;
    await admin(postgres.adminUrl, (c) =>
      c.query(`create database ${name} template ${postgres.name}`).then(() => {}),
    );
    return {
      env: { DATABASE_URL: withDatabase(postgres.adminUrl, name) },
      drop: () =>
        admin(postgres.adminUrl, (c) =>
          c.query(`drop database if exists ${name} with (force)`).then(() => {}),
        ),
    };
  }
  await cp(inject('pgliteTemplateDir'), path.join(dataDir, 'db'), { recursive: true });
  return { env: {}, drop: async () => {} };
}

/**
 * The real app (buildApp) on a fresh database, wired to a sandbox on random ports: SMTP, Twilio
 * and Google calls travel over real sockets to it.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wrp-app-'));
  const database = await cloneDatabase(dataDir);
  const sandbox = options.withoutSandbox
    ? null
    : await startSandbox({ httpPort: 0, smtpPort: options.smtpPort ?? 0 });
  const smtpPort = sandbox?.smtpPort ?? options.smtpPort ?? (await freePort());
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    PUBLIC_URL: 'http://localhost:3000',
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    ...(sandbox ? { TWILIO_BASE_URL: sandbox.httpUrl, GOOGLE_ISSUER: sandbox.issuer } : {}),
    // Continuous collection stays out of tests that do not ask for it: its calls would mix
    // with theirs.
    COLLECTION_SWEEP_CRON: 'off',
    COLLECTION_ON_CONNECT: 'false',
    // Likewise the adherence digest and reminders: their tests run them with a set clock.
    ADHERENCE_DIGEST_CRON: 'off',
    REMINDER_CRON: 'off',
    ...database.env,
    ...(database.env.DATABASE_URL && options.databaseUrl
      ? { DATABASE_URL: options.databaseUrl(database.env.DATABASE_URL) }
      : {}),
    ...options.env,
  });
  const app = await buildApp(config, {
    jobRetry: { limit: 4, delaySeconds: 1, pollingIntervalSeconds: 0.5 },
    // Tests hold every response to its full zod contract, not just its list of fields.
    validateResponses: options.validateResponses ?? true,
    ...(options.logStream ? { logStream: options.logStream } : {}),
  });
  options.routes?.(app);
  await app.ready();
  return {
    app,
    sandbox,
    config,
    ...(database.env.DATABASE_URL ? { databaseUrl: database.env.DATABASE_URL } : {}),
    async close() {
      // Bounded, as the server's own shutdown is (process-lifecycle.ts): an app that cannot close
      // is named in the output, and its database and sandbox are still removed.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          console.warn('test app: close() still running after 60 s; removing its database anyway');
          resolve();
        }, 60_000);
      });
      await Promise.race([app.close(), late]).finally(() => clearTimeout(timer));
      await sandbox?.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A log stream to hand the app, and every line written to it so far (for checks on what is logged). */
export function logCapture(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, stream };
}

/**
 * One app for a whole describe block: started before its first test and closed after its last.
 * The handle reads through to that app, so it can be taken at declaration time and used in
 * later hooks and tests; further setup goes in the caller's own beforeAll, which runs after.
 */
export function useTestApp(options: TestAppOptions = {}): TestApp {
  let current: TestApp | undefined;
  const started = (): TestApp => {
    if (!current) throw new Error('the test app is used before its beforeAll has started it');
    return current;
  };
  beforeAll(async () => {
    current = await createTestApp(options);
  });
  afterAll(() => current?.close());
  return {
    get app() {
      return started().app;
    },
    get sandbox() {
      return started().sandbox;
    },
    get config() {
      return started().config;
    },
    get databaseUrl() {
      return started().databaseUrl;
    },
    close: () => started().close(),
  };
}

/** Polls until `check` returns a value (not undefined/false) or the time runs out. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs)
      throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
