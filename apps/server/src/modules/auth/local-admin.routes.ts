import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, writeFileSync } from 'node:fs';
import { chmod, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { authApi } from '@research/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { forbidden } from '../../errors.js';
import { route } from '../../http/operation-route.js';
import { PRIVATE_FILE_MODE } from '../../platform/private-files.js';
import { addParticipantRoute } from '../participant-access/add-participant.js';

export const ADMIN_KEY_FILE = 'admin.key';
/** Where the running server says it listens, so the admin CLI finds it on any port. */
export const SERVER_INFO_FILE = 'server.json';
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * The embedded database belongs to the running server, so `npm run admin` reaches it through
 * this route instead. Only a process on this machine that can read the key file (written with
 * mode 0600 at start) gets in; the route is not in the public API docs.
 */
export const localAdminRoutes: FastifyPluginAsync = async (app) => {
  const key = randomBytes(32).toString('base64url');
  const keyFile = path.join(app.platform.config.dataDir, ADMIN_KEY_FILE);
  await writeFile(keyFile, key, { mode: PRIVATE_FILE_MODE });
  // The file may be left from an earlier start, with whatever mode it had then.
  await chmod(keyFile, PRIVATE_FILE_MODE);

  const infoFile = path.join(app.platform.config.dataDir, SERVER_INFO_FILE);
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

  route(app, authApi.localCreateMaster, {
    handler: async (request) => {
      const given = Buffer.from(String(request.headers['x-admin-key'] ?? ''));
      const expected = Buffer.from(key);
      const keyOk = given.length === expected.length && timingSafeEqual(given, expected);
      if (!LOOPBACK.has(request.socket.remoteAddress ?? '') || !keyOk) throw forbidden();
      return {
        success: true as const,
        ...(await app.services.master.createOrPromoteMaster(request.body)),
      };
    },
  });
  await app.register(addParticipantRoute, { key });
};
