import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client.js';
import { runMigrations } from '../db/migrate.js';
import { startJobQueue } from '../platform/jobs.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplateDir: string;
    postgresTemplate: { adminUrl: string; name: string } | null;
  }
}

/**
 * Migrates one template database per run; each test file then clones it (a folder copy for
 * PGlite, CREATE DATABASE … TEMPLATE on PostgreSQL), which costs far less than migrating anew.
 */
export default async function setup(project: TestProject) {
  const root = await mkdtemp(path.join(os.tmpdir(), 'wrp-test-'));
  const pgliteTemplateDir = path.join(root, 'pglite-template');
  await prepare({ kind: 'pglite', dataDir: pgliteTemplateDir });
  project.provide('pgliteTemplateDir', pgliteTemplateDir);

  const adminUrl = process.env.TEST_DATABASE_URL;
  let postgresTemplate: { adminUrl: string; name: string } | null = null;
  if (adminUrl) {
    const name = `wrp_template_${process.pid}`;
    await admin(adminUrl, async (client) => {
      await client.query(`drop database if exists ${name}`);
      await client.query(`create database ${name}`);
    });
    await prepare({ kind: 'postgres', url: withDatabase(adminUrl, name) });
    postgresTemplate = { adminUrl, name };
  }
  project.provide('postgresTemplate', postgresTemplate);

  return async () => {
    await rm(root, { recursive: true, force: true });
    if (postgresTemplate) {
      const { name } = postgresTemplate;
      await admin(adminUrl as string, async (client) => {
        // Only this run's clones: other runs (other worktrees) share the server.
        const { rows } = await client.query<{ datname: string }>(
          'select datname from pg_database where starts_with(datname, $1) or datname = $2',
          [clonePrefix(name), name],
        );
        for (const row of rows)
          await client.query(`drop database if exists ${row.datname} with (force)`);
      });
    }
  };
}

async function prepare(
  config: { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string },
) {
  const database = await openDatabase(config);
  try {
    await runMigrations(database, config);
    // pg-boss creates its schema on first start; do it once here rather than in every file.
    const jobs = await startJobQueue({ executor: database.executor, definitions: [] });
    await jobs.stop(1000);
  } finally {
    await database.close();
  }
}

/** Clones of a template are named after it, so a run drops its own and no one else's. */
export const clonePrefix = (templateName: string) =>
  `${templateName.replace(/^wrp_template_/, 'wrp_test_')}_`;

export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

export async function admin(url: string, work: (client: pg.Client) => Promise<void>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
