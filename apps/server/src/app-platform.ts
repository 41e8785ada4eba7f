import type { AppConfig } from './config.js';
import type { Database } from './db/client.js';
import type { Messaging } from './modules/messaging/index.js';
import type { Cipher, KeyRing } from './platform/crypto.js';
import type { JobQueue } from './platform/jobs.js';
import type { Mailer } from './platform/mailer.js';
import type { ObjectStore } from './platform/object-store/types.js';

/**
 * Everything a route or service needs, built once per app. Its own file so that the app (which
 * builds it) and the services (built from it) both import it without importing each other.
 */
export interface Platform {
  config: AppConfig;
  database: Database;
  db: Database['db'];
  keyRing: KeyRing;
  cipher: Cipher;
  jobs: JobQueue;
  objectStore: ObjectStore;
  mailer: Mailer;
  messaging: Messaging;
}

declare module 'fastify' {
  interface FastifyInstance {
    platform: Platform;
  }
}
