import { open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import type { AppConfig } from '../config.js';
import { ensurePrivateDir, makeTreePrivate, PRIVATE_FILE_MODE } from '../platform/private-files.js';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** Raw SQL access shared by pg-boss and health checks, whatever the driver. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  executor: SqlExecutor;
  close(): Promise<void>;
}

export class DatabaseLockedError extends Error {}

/**
 * PGlite is one process's database: a second process opening the same folder would corrupt it.
 * A lock file with the owner's pid makes the second opener fail with a clear message instead.
 */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const lockPath = path.join(dataDir, '.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lockPath, 'wx', PRIVATE_FILE_MODE);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number((await readFile(lockPath, 'utf8').catch(() => '')).trim());
      if (owner && isAlive(owner)) {
        throw new DatabaseLockedError(
          `The embedded database in ${dataDir} is in use by another process (pid ${owner}). ` +
            'Stop that process first, or use PostgreSQL by setting DATABASE_URL.',
        );
      }
      // A stale lock from a process that died: take it over.
      await rm(lockPath, { force: true });
    }
  }
  throw new DatabaseLockedError(`Could not lock the embedded database in ${dataDir}.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

type ConnectCallback = (
  error: Error | undefined,
  client: pg.PoolClient | undefined,
  done: () => void,
) => void;

/**
 * drizzle's transaction (0.45.4, the latest) sends BEGIN before its try/finally, so when BEGIN
 * fails (the network cut, or the connection died while idle in the pool) it never releases the
 * connection. Each such failure took one of the pool's connections for good: after a few outages
 * every request waited for a connection that never came, and `end()` waited forever. drizzle is
 * the only caller of `connect()` without a callback (pg's own `query` passes one); the first
 * statement on such a connection is its BEGIN, and when that fails the connection is released
 * here, with the error, so the pool discards it.
 */
class TransactionSafePool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | undefined {
    if (callback) {
      super.connect(callback);
      return;
    }
    return super.connect().then(releasedIfFirstStatementFails);
  }
}

function releasedIfFirstStatementFails(client: pg.PoolClient): pg.PoolClient {
  const query = client.query;
  client.query = ((...args: Parameters<typeof query>) => {
    client.query = query;
    const result = (query as (...a: unknown[]) => unknown).apply(client, args);
    if (result instanceof Promise) result.catch((error: Error) => client.release(error));
    return result;
  }) as typeof query;
  return client;
}

export async function openDatabase(config: AppConfig['database']): Promise<Database> {
  if (config.kind === 'postgres') {
    const pool = new TransactionSafePool({
      connectionString: config.url,
      // Each job in flight (COLLECTION_CONCURRENCY and the extraction's) needs one at times.
      max: config.poolSize ?? 10,
      // A server out of reach answers "unavailable" within seconds instead of holding requests.
      connectionTimeoutMillis: 5_000,
      // Finds a connection whose peer vanished without a word (a cut network, not a refusal).
      keepAlive: true,
    });
    // A client emits 'error' when its connection drops; without a listener that is an uncaught
    // exception that ends the process. The pool listens only while a client is idle, so every
    // client gets its own listener too, for the time it is checked out (a transaction). The
    // query under way fails by itself and the pool discards the broken client.
    pool.on('error', () => {});
    pool.on('connect', (client) => {
      client.on('error', () => {});
    });
    const db = drizzlePg(pool, { schema, casing: 'snake_case' }) as unknown as Db;
    return {
      kind: 'postgres',
      db,
      executor: { executeSql: (text, values) => pool.query(text, values) },
      close: () => pool.end(),
    };
  }

  // The database holds tokens and personal data, but PGlite sets its files' modes itself (0666,
  // whatever the umask). Its folder is owner-only, so no other account reaches a file in it
  // while it runs; the files themselves are made 0600 when it opens and when it closes.
  await ensurePrivateDir(config.dataDir);
  await makeTreePrivate(config.dataDir);
  const unlock = await lockDataDir(config.dataDir);
  try {
    const client = await PGlite.create(config.dataDir);
    const db = drizzlePglite(client, { schema, casing: 'snake_case' }) as unknown as Db;
    return {
      kind: 'pglite',
      db,
      executor: {
        // PGlite's `query` takes one statement with parameters; `exec` runs a script without.
        async executeSql(text, values) {
          if (values && values.length > 0) {
            const result = await client.query<Record<string, unknown>>(text, values);
            return { rows: result.rows };
          }
          // A script's rows come from all its statements, as node-postgres gives them: pg-boss
          // reads a row from the middle of its locked blocks (BEGIN … COMMIT) and stops without it.
          const results = await client.exec(text);
          return { rows: results.flatMap((result) => result.rows) as Record<string, unknown>[] };
        },
      },
      async close() {
        await client.close();
        await makeTreePrivate(config.dataDir);
        await unlock();
      },
    };
  } catch (error) {
    await unlock();
    throw error;
  }
}

export async function pingDatabase(database: Database): Promise<boolean> {
  try {
    await database.db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

/** A transaction handle; repositories accept either so callers choose the unit of work. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;
