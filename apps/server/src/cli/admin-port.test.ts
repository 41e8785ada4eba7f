import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../db/schema/index.js';
import { uniqueEmail } from '../test/auth-helpers.js';
import { createTestApp, testDatabaseKind } from '../test/test-app.js';

const run = promisify(execFile);
const serverDir = path.resolve(import.meta.dirname, '../..');

describe.skipIf(testDatabaseKind() === 'postgres')('the admin CLI and a server on any port', () => {
  it('finds the server from DATA_DIR/server.json (0600), which goes away on shutdown', async () => {
    const t = await createTestApp();
    const infoFile = path.join(t.config.dataDir, 'server.json');
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const address = t.app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      expect(port).not.toBe(3000);
      expect(JSON.parse(await readFile(infoFile, 'utf8'))).toMatchObject({
        url: `http://127.0.0.1:${port}`,
      });
      expect((await stat(infoFile)).mode & 0o777).toBe(0o600);

      const email = uniqueEmail('cli-port');
      // PORT says 3000 (the default), but the server listens elsewhere.
      const { stdout } = await run(
        process.execPath,
        [
          '--import',
          'tsx',
          '--conditions=source',
          'src/cli/admin.ts',
          'create-master',
          '--email',
          email,
          '--password',
          'cli-password',
        ],
        {
          cwd: serverDir,
          env: {
            ...process.env,
            DATA_DIR: t.config.dataDir,
            PORT: '3000',
            ENCRYPTION_KEY: t.config.encryption.key as string,
            LOG_LEVEL: 'silent',
          },
        },
      );
      expect(stdout).toContain(`Created master account ${email}.`);
      const [row] = await t.app.platform.db.select().from(users).where(eq(users.email, email));
      expect(row?.role).toBe('master');
      await t.app.close();
      await expect(stat(infoFile)).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await t.close();
    }
  }, 60_000);
});
