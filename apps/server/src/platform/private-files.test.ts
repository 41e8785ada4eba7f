import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../test/auth-helpers.js';
import { createTestApp, type TestApp, testDatabaseKind } from '../test/test-app.js';
import { KEY_FILE_NAME, loadEncryptionKeys } from './crypto.js';
import { createFsObjectStore } from './object-store/fs-store.js';

/** Every folder and file under `dir` whose mode is not owner-only, as 'mode path'. */
async function notPrivate(dir: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (at: string) => {
    const info = await stat(at);
    const mode = info.mode & 0o777;
    if (mode !== (info.isDirectory() ? 0o700 : 0o600))
      found.push(`${mode.toString(8)} ${path.relative(dir, at) || '.'}`);
    if (info.isDirectory())
      for (const entry of await readdir(at)) await visit(path.join(at, entry));
  };
  await visit(dir);
  return found;
}

/** What the server writes is for its own account: folders 0700 and files 0600, whatever the umask. */
describe('files the server writes', () => {
  let t: TestApp;
  const scratch: string[] = [];
  const umaskBefore = process.umask();
  beforeAll(async () => {
    // The most permissive umask: any mode left to the default would show as 0666 or 0777.
    process.umask(0);
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
    process.umask(umaskBefore);
    for (const dir of scratch) await rm(dir, { recursive: true, force: true });
  });

  it('keeps the data folder owner-only: database, keys, stored objects, server info', async () => {
    // Rows in the database, an object in a study bucket, the listening server's info file.
    await registerUser(t.app);
    const store = t.app.platform.objectStore;
    await store.ensureBucket('study-modes-data');
    await store.putObject('study-modes-data', 'runs/r1/steps.csv', 'date,steps\n');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const entries = await readdir(t.config.dataDir);
    expect(entries).toContain('storage');
    if (testDatabaseKind() !== 'pglite') {
      expect(await notPrivate(t.config.dataDir)).toEqual([]);
      return;
    }
    expect(entries).toContain('db');
    // PGlite sets the modes of the files it writes while it runs: its folder keeps them from
    // every other account, and they are all 0600 once it is closed.
    const dbDir = path.join(t.config.dataDir, 'db');
    expect((await notPrivate(t.config.dataDir)).filter((e) => !/^6\d\d db\//.test(e))).toEqual([]);
    await t.app.close();
    expect(await notPrivate(dbDir)).toEqual([]);
  });

  it('writes stored objects and their folders owner-only even where the umask allows more', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'wrp-modes-'));
    scratch.push(root);
    process.umask(0);
    const store = createFsObjectStore({
      root: path.join(root, 'storage'),
      publicUrl: 'http://localhost:3000',
      signingKey: randomBytes(32),
    });
    await store.ensureBucket('study-abc-data');
    await store.putObject('study-abc-data', 'exports/run-1/manifest.json', '{}');
    await store.putObject(
      'study-abc-data',
      'exports/run-1/raw/steps/2026-11-01.json',
      Readable.from([Buffer.from('{"points":[]}')]),
    );
    await store.putObject('study-abc-data', 'documents/consent.pdf', Buffer.from('%PDF-1.4'));
    expect(await notPrivate(path.join(root, 'storage'))).toEqual([]);
  });

  it('creates the generated encryption key 0600 in a 0700 folder', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'wrp-modes-'));
    scratch.push(root);
    process.umask(0);
    const dataDir = path.join(root, 'data');
    await loadEncryptionKeys({ encryptionKey: undefined, previousKeys: [], dataDir });
    expect((await readdir(dataDir)).sort()).toEqual([KEY_FILE_NAME]);
    expect(await notPrivate(dataDir)).toEqual([]);
  });
});
