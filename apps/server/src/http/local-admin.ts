import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, writeFileSync } from 'node:fs';
import { chmod, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from '../errors.js';
import { PRIVATE_FILE_MODE } from '../platform/private-files.js';

export const ADMIN_KEY_FILE = 'admin.key';
/** Where the running server says it listens, so the admin CLI finds it on any port. */
export const SERVER_INFO_FILE = 'server.json';
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** preHandler of an operator route: a loopback caller holding the admin key, else 403. */
export type LocalAdminGuard = (request: FastifyRequest) => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Set when the server holds an embedded database: operator routes (`npm run admin`) then
     * exist, each in the module it serves, behind this guard. Null otherwise.
     */
    localAdmin: LocalAdminGuard | null;
  }
}

/**
 * The embedded database belongs to the running server, so `npm run admin` reaches it through
 * operator routes instead. Only a process on this machine that can read the key file (written
 * with mode 0600 at start) gets in; those routes are not in the public API docs.
 */
export async function openLocalAdmin(
  app: FastifyInstance,
  dataDir: string,
): Promise<LocalAdminGuard> {
  const key = randomBytes(32).toString('base64url');
  const keyFile = path.join(dataDir, ADMIN_KEY_FILE);
  await writeFile(keyFile, key, { mode: PRIVATE_FILE_MODE });
  // The file may be left from an earlier start, with whatever mode it had then.
  await chmod(keyFile, PRIVATE_FILE_MODE);

  const infoFile = path.join(dataDir, SERVER_INFO_FILE);
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (!address || typeof address !== 'object') return;
    // The CLI talks to loopback; a server bound to all interfaces is reachable there too.
    const host = address.family === 'IPv6' && address.address !== '::' ? '[::1]' : '127.0.0.1';
    const info = { url: `http://${host}:${address.port}`, pid: process.pid };
    // Synchronous: Fastify runs onListen hooks without awaiting them, so this way the file
    // exists by the time listen() resolves.
    writeFileSync(infoFile, `${JSON.stringify(info)}\n`, { mode: PRIVATE_FILE_MODE });
    chmodSync(infoFile, PRIVATE_FILE_MODE);
  });
  app.addHook('onClose', async () => {
    await rm(infoFile, { force: true });
  });

  const expected = Buffer.from(key);
  return async (request: FastifyRequest) => {
    const given = Buffer.from(String(request.headers['x-admin-key'] ?? ''));
    const keyOk = given.length === expected.length && timingSafeEqual(given, expected);
    if (!LOOPBACK.has(request.socket.remoteAddress ?? '') || !keyOk) throw forbidden();
  };
}
