import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { AppConfig } from '../config.js';
import type { Database } from './client.js';

// Same relative place from src/db and dist/db.
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));
// Any constant works; it only has to be the same for every instance of this app.
const MIGRATION_LOCK_ID = 815_015_001;

/**
 * Applies the committed SQL migrations. On PostgreSQL an advisory lock makes instances that start
 * together take turns instead of racing on the same DDL.
 */
export async function runMigrations(
  database: Database,
  config: AppConfig['database'],
): Promise<void> {
  if (config.kind === 'pglite') {
    // drizzle's pglite migrator needs the PGlite client itself; reuse the open connection.
    const client = (database.db as unknown as { $client: PGlite }).$client;
    await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_FOLDER });
    return;
  }
  const client = new pg.Client({ connectionString: config.url });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
    await client.end();
  }
}

/** True when every committed migration has been applied to this database. */
export async function migrationsApplied(database: Database): Promise<boolean> {
  const journal = JSON.parse(await readFile(`${MIGRATIONS_FOLDER}/meta/_journal.json`, 'utf8')) as {
    entries: unknown[];
  };
  try {
    const { rows } = await database.executor.executeSql(
      'select count(*)::int as applied from drizzle.__drizzle_migrations',
      [],
    );
    return Number(rows[0]?.applied ?? 0) >= journal.entries.length;
  } catch {
    return false;
  }
}
