import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Runs one statement as the admin of the bench's PostgreSQL server (create or drop a database). */
async function admin(sql: string) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The benchmark is one client address making thousands of calls a second: no limit it reaches. */
export const UNREACHED_RATE_LIMIT = {
  RATE_LIMIT_MAX: '100000000',
  GOOGLE_HEALTH_WEBHOOK_RATE_LIMIT: '100000000',
};

/**
 * A database and a data folder of the bench's own (`wrp_bench_<name>_<pid>`), with the
 * environment every bench starts the app with: logging off, a fresh encryption key.
 * `drop` removes both again.
 */
export async function createBenchDatabase(name: string) {
  const dbName = `wrp_bench_${name}_${process.pid}`;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wrp-bench-'));
  await admin(`create database ${dbName}`);
  const databaseUrl = new URL(ADMIN_URL);
  databaseUrl.pathname = `/${dbName}`;
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl.toString(),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
  };
  return {
    dbName,
    databaseUrl: databaseUrl.toString(),
    env,
    /** Removes the data folder and, unless `keepDatabase`, the database. */
    async drop(keepDatabase = false) {
      if (!keepDatabase) await admin(`drop database if exists ${dbName} with (force)`);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** What the app needs to send its mail, SMS and Google calls to a sandbox. */
export const sandboxEnv = (sandbox: { httpUrl: string; issuer: string; smtpPort: number }) => ({
  PUBLIC_URL: 'http://localhost:3000',
  SMTP_URL: `smtp://127.0.0.1:${sandbox.smtpPort}`,
  TWILIO_BASE_URL: sandbox.httpUrl,
  GOOGLE_ISSUER: sandbox.issuer,
});
