import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { startTcpProxy } from '../test/tcp-proxy.js';
import { testDatabaseKind } from '../test/test-app.js';
import { DatabaseLockedError, openDatabase } from './client.js';
import { migrationsApplied, runMigrations } from './migrate.js';

describe('embedded database', () => {
  it('migrates, keeps its data across reopening, and refuses a second opener', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'wrp-db-'));
    const config = { kind: 'pglite' as const, dataDir: path.join(dir, 'db') };
    try {
      const first = await openDatabase(config);
      expect(await migrationsApplied(first)).toBe(false);
      await runMigrations(first, config);
      await runMigrations(first, config); // idempotent
      expect(await migrationsApplied(first)).toBe(true);
      await first.executor.executeSql("insert into audit_events (action) values ('kept')", []);

      await expect(openDatabase(config)).rejects.toThrow(DatabaseLockedError);
      await expect(openDatabase(config)).rejects.toThrow(/in use by another process/);
      await first.close();

      const second = await openDatabase(config);
      const { rows } = await second.executor.executeSql('select action from audit_events', []);
      expect(rows).toEqual([{ action: 'kept' }]);
      await second.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe.skipIf(testDatabaseKind() !== 'postgres')('the PostgreSQL pool', () => {
  it('gets its connection back when a transaction cannot begin because the network is cut', async () => {
    const target = new URL(process.env.TEST_DATABASE_URL as string);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    // One connection, so a lost one leaves nothing to serve the next statement.
    const database = await openDatabase({
      kind: 'postgres',
      url: proxy.via(target.toString()),
      poolSize: 1,
    });
    try {
      await database.executor.executeSql('select 1');
      const begun = database.db.transaction((tx) => tx.execute(sql`select 1`));
      await proxy.cut();
      await expect(begun).rejects.toThrow(/Failed query: begin/);
      await proxy.restore();

      const { rows } = await database.executor.executeSql('select 2 as n');
      expect(rows).toEqual([{ n: 2 }]);
      const inTransaction = await database.db.transaction((tx) => tx.execute(sql`select 3 as n`));
      expect((inTransaction as { rows: unknown[] }).rows).toEqual([{ n: 3 }]);
    } finally {
      // With the connection lost this never returned.
      await database.close();
      await proxy.close();
    }
  }, 30_000);
});
