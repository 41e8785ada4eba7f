import multipart from '@fastify/multipart';
import { TRANSPORT_MESSAGES } from '@research/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Platform } from './app-platform.js';
import type { AppConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { runMigrations } from './db/migrate.js';
import { registerDocs } from './http/docs.js';
import {
  clientErrorHandler,
  frameworkErrorHandler,
  registerErrorHandling,
} from './http/error-handler.js';
import { openLocalAdmin } from './http/local-admin.js';
import { loggerOptions } from './http/logger.js';
import { createResponseSerializerCompiler } from './http/response-serializer.js';
import { registerSecurity } from './http/security.js';
import { registerWebApp } from './http/web-app.js';
import { createAuthPurgeJob } from './modules/auth/index.js';
import { createExtractionEngine } from './modules/extraction/index.js';
import { MODULE_ROUTES } from './modules/index.js';
import { createMessaging, DELIVERY_CONCURRENCY } from './modules/messaging/index.js';
import { createRetentionJob } from './modules/studies/index.js';
import { bindTokensToParticipants, revokeStudyGrants } from './modules/wearables/index.js';
import { createCipher, loadEncryptionKeys, subkey } from './platform/crypto.js';
import { type JobQueue, startJobQueue } from './platform/jobs.js';
import { createMailer, type Mailer } from './platform/mailer.js';
import { createObjectStore } from './platform/object-store/index.js';
import { ensurePrivateDir } from './platform/private-files.js';
import { createSmsSender } from './platform/sms.js';
import { createServices } from './services.js';

export interface BuildAppOptions {
  /** Tunes job retries; tests shorten the back-off. */
  jobRetry?: { limit: number; delaySeconds: number; pollingIntervalSeconds?: number };
  /** Where logs go (stdout by default); tests capture them to check redaction. */
  logStream?: NodeJS.WritableStream;
  /** Check every response against its zod schema too (tests); see response-serializer.ts. */
  validateResponses?: boolean;
}

/**
 * The one factory for the HTTP app: used by the server entry point and by every test, so
 * both run the same plugins, hooks and error handling.
 */
export async function buildApp(
  config: AppConfig,
  options: BuildAppOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      ...loggerOptions(config.logLevel),
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Let in-flight requests finish on shutdown, but stop keep-alive sockets from holding it open.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    // Errors raised before any route runs answer the same envelope as the rest, and never
    // quote the address back (Fastify's own answers do).
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(
    createResponseSerializerCompiler({ validate: options.validateResponses ?? false }),
  );

  // Keys, the embedded database and stored files are for this account only (0700/0600).
  await ensurePrivateDir(config.dataDir);
  if (config.storage.driver === 'fs') await ensurePrivateDir(config.storage.root);
  const keyRing = await loadEncryptionKeys({
    encryptionKey: config.encryption.key,
    previousKeys: config.encryption.previousKeys,
    dataDir: config.dataDir,
  });
  const cipher = createCipher(keyRing);
  const database = await openDatabase(config.database);
  let jobs: JobQueue | undefined;
  let mailer: Mailer | undefined;
  try {
    await runMigrations(database, config.database);
    // Before any job can use a token: tokens of older versions get their participant binding.
    const rebound = await bindTokensToParticipants(database.db, cipher);
    if (rebound > 0) app.log.info({ rebound }, 'wearable tokens bound to their participant');

    mailer = createMailer({
      smtpUrl: config.mail.smtpUrl,
      from: config.mail.from,
      maxConnections: DELIVERY_CONCURRENCY,
    });
    const sms = createSmsSender(config.sms);
    const objectStore =
      config.storage.driver === 'fs'
        ? createObjectStore({
            driver: 'fs',
            root: config.storage.root,
            publicUrl: config.publicUrl,
            signingKey: subkey(keyRing, 'object-store-url-signing'),
          })
        : createObjectStore(config.storage);

    const retry = options.jobRetry ?? { limit: 8, delaySeconds: 10 };
    const messaging = createMessaging({
      db: database.db,
      jobs: () => {
        if (!jobs) throw new Error('job queue not started');
        return jobs;
      },
      cipher,
      sendEmail: (message) => (mailer as Mailer).send(message),
      sendSms: (message) => sms.send(message),
      retryLimit: retry.limit,
      retryDelaySeconds: retry.delaySeconds,
    });

    // Every service exists before the job queue starts: jobs resumed at boot may run at once.
    const services = createServices({
      config,
      database,
      db: database.db,
      keyRing,
      cipher,
      objectStore,
      messaging,
    });
    app.decorate('services', services);
    const extraction = createExtractionEngine({
      db: database.db,
      config,
      objectStore,
      wearables: services.wearables,
      jobs: () => {
        if (!jobs) throw new Error('job queue not started');
        return jobs;
      },
      retry: { limit: Math.min(retry.limit, 3), delaySeconds: retry.delaySeconds },
      log: app.log,
    });
    app.decorate('extraction', extraction);

    jobs = await startJobQueue({
      executor: database.executor,
      definitions: [
        ...messaging.jobs,
        createRetentionJob({
          db: database.db,
          config,
          objectStore,
          revokeWearables: (studyId) =>
            revokeStudyGrants({ db: database.db, cipher, config }, studyId),
        }),
        createAuthPurgeJob({ db: database.db, config }),
        ...extraction.jobs,
      ],
      pollingIntervalSeconds: retry.pollingIntervalSeconds ?? 2,
      onError: (error) => app.log.error({ err: error }, 'job queue error'),
      onUnavailable: (reason) =>
        app.log.warn({ reason }, 'database unavailable: job workers wait until it answers'),
      onAvailable: () => app.log.info('database answers again: job workers resume'),
    });
    if (config.runWorkers) await jobs.startWorkers();

    const platform: Platform = {
      config,
      database,
      db: database.db,
      keyRing,
      cipher,
      jobs,
      objectStore,
      mailer,
      messaging,
    };
    app.decorate('platform', platform);
  } catch (error) {
    await jobs?.stop(1000).catch(() => {});
    mailer?.close();
    await database.close();
    throw error;
  }

  // Once shutdown starts, answers in flight close their connection: an idle keep-alive socket
  // would otherwise hold the server open until its timeout.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('Connection', 'close');
  });

  // Closing the app finishes in-flight requests first (Fastify), then running jobs, then the pool.
  app.addHook('onClose', async () => {
    await app.platform.jobs.stop();
    app.platform.mailer.close();
    await app.platform.database.close();
  });

  app.decorateRequest('user', null);
  app.decorateRequest('sessionToken', null);
  app.decorateRequest('studyAccess', null);
  app.decorateRequest('applicationStatus', null);

  registerErrorHandling(app);
  // Clients send `Content-Type: application/json` on every call, also on body-less PUT/DELETE.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: 1024 * 1024 },
    (_request, body, done) => {
      if (body === '') return done(null, undefined);
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(
          Object.assign(new Error(TRANSPORT_MESSAGES.invalidJson), {
            statusCode: 400,
            code: 'FST_ERR_CTP_INVALID_JSON_BODY',
          }),
        );
      }
    },
  );
  // Upload limits are set per route (readMultipart); these are the outer bounds.
  await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024, files: 10, fields: 50 } });
  await registerSecurity(app, config);
  await registerDocs(app, config);
  app.decorate(
    'localAdmin',
    config.database.kind === 'pglite' ? await openLocalAdmin(app, config.dataDir) : null,
  );
  for (const module of MODULE_ROUTES) await app.register(module.routes);
  await registerWebApp(app, config.webDistDir);
  return app;
}
