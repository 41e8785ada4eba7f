import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
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
