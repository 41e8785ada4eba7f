import type { Platform } from './app.js';
import { createApplicationsService } from './modules/applications/applications.service.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createGoogleSignIn } from './modules/auth/google-sign-in.js';
import { createMasterService } from './modules/auth/master.service.js';
import { createStudiesService } from './modules/studies/studies.service.js';

/** The domain services, built once per app from the platform adapters. */
export function createServices(platform: Platform) {
  const { db, config, cipher, messaging, objectStore } = platform;
  const auth = createAuthService({ db, config, messaging });
  return {
    auth,
    master: createMasterService({ db, config }),
    google: createGoogleSignIn({ db, config, cipher, auth }),
    applications: createApplicationsService({ db, config, messaging, objectStore }),
    studies: createStudiesService({ db, config, cipher, messaging, objectStore }),
  };
}

export type Services = ReturnType<typeof createServices>;

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}
