import { randomBytes, timingSafeEqual } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { emailSchema, nameSchema, newPasswordSchema } from '@research/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forbidden } from '../../errors.js';

export const ADMIN_KEY_FILE = 'admin.key';
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export const createMasterBodySchema = z.object({
  email: emailSchema,
  password: newPasswordSchema.optional(),
  displayName: nameSchema.optional(),
});

/**
 * The embedded database belongs to the running server, so `npm run admin` reaches it through
 * this route instead. Only a process on this machine that can read the key file (written with
 * mode 0600 at start) gets in; the route is not in the public API docs.
 */
export const localAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const key = randomBytes(32).toString('base64url');
  await writeFile(path.join(app.platform.config.dataDir, ADMIN_KEY_FILE), key, { mode: 0o600 });

  app.post(
    '/api/local-admin/create-master',
    { schema: { hide: true, body: createMasterBodySchema } },
    async (request) => {
      const given = Buffer.from(String(request.headers['x-admin-key'] ?? ''));
      const expected = Buffer.from(key);
      const keyOk = given.length === expected.length && timingSafeEqual(given, expected);
      if (!LOOPBACK.has(request.socket.remoteAddress ?? '') || !keyOk) throw forbidden();
      return {
        success: true as const,
        ...(await app.services.master.createOrPromoteMaster(request.body)),
      };
    },
  );
};
