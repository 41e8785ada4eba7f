import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type AppConfig, ConfigError, loadConfig } from './config.js';
import { databaseUnavailability } from './db/availability.js';

/** Loads the configuration or exits listing every bad variable. */
export function loadConfigOrExit(overrides: Partial<Record<string, string>> = {}): AppConfig {
  // Settings from ./.env, if present; variables already set in the environment win.
  const envFile = path.join(process.env.INIT_CWD ?? process.cwd(), '.env');
  if (existsSync(envFile)) process.loadEnvFile(envFile);
  try {
    return loadConfig({ ...process.env, ...overrides });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * On SIGINT/SIGTERM: stop taking requests, let in-flight requests and running jobs finish
 * (bounded), close the database, exit. A second signal exits at once.
 */
export function closeOnSignals(app: FastifyInstance, graceMs = 30_000) {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) process.exit(1);
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, graceMs);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

/**
 * Failures nobody caught. A promise that rejected because the database is out of reach for a
 * moment leaves nothing half done (the request or job that made it has its own answer), so the
 * process logs it and keeps serving. Anything else may have left state half changed: log it,
 * close (stop taking requests, end jobs, close the pool; bounded), and exit 1 so the supervisor
 * starts a fresh process. Logs go through the app's logger, which scrubs personal data.
 */
export function handleProcessFaults(app: FastifyInstance, graceMs = 10_000) {
  let exiting = false;
  const fatal = (kind: 'unhandledRejection' | 'uncaughtException', error: unknown) => {
    app.log.fatal({ err: error, kind }, 'uncaught failure: closing, then exiting for a restart');
    if (exiting) return;
    exiting = true;
    process.exitCode = 1;
    const timer = setTimeout(() => process.exit(1), graceMs);
    timer.unref();
    app.close().then(
      () => process.exit(1),
      () => process.exit(1),
    );
  };
  process.on('unhandledRejection', (error) => {
    const unavailable = databaseUnavailability(error);
    if (unavailable) {
      app.log.warn({ reason: unavailable }, 'database unavailable (uncaught); still serving');
      return;
    }
    fatal('unhandledRejection', error);
  });
  process.on('uncaughtException', (error) => fatal('uncaughtException', error));
}
