import type { Platform } from './app.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createGoogleSignIn } from './modules/auth/google-sign-in.js';
import { createMasterService } from './modules/auth/master.service.js';

/** The domain services, built once per app from the platform adapters. */
export function createServices(platform: Platform) {
  const { db, config, cipher, messaging } = platform;
  const auth = createAuthService({ db, config, messaging });
  return {
    auth,
    master: createMasterService({ db, config }),
    google: createGoogleSignIn({ db, config, cipher, auth }),
  };
}

export type Services = ReturnType<typeof createServices>;

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}
