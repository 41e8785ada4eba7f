import multipart from '@fastify/multipart';
import { TRANSPORT_MESSAGES } from '@research/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Platform } from './app-platform.js';
import type { AppConfig } from './config.js';
import { type Database, openDatabase } from './db/client.js';
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
import { registerTokenUse } from './modules/access-tokens/index.js';
import { createAdherenceService } from './modules/adherence/index.js';
import { createAuthPurgeJob } from './modules/auth/index.js';
import { type Collection, createCollection } from './modules/collection/index.js';
import { createDataset, createRunReader } from './modules/dataset/index.js';
import { createExportsService } from './modules/exports/index.js';
import { createExtractionEngine } from './modules/extraction/index.js';
import { createHealthNotifications } from './modules/health-notifications/index.js';
import { MODULE_ROUTES } from './modules/index.js';
import { createMessaging, DELIVERY_CONCURRENCY } from './modules/messaging/index.js';
import { createRetentionJob } from './modules/studies/index.js';
import {
  bindTokensToParticipants,
  connectionsOfHealthUser,
  revokeStudyGrants,
} from './modules/wearables/index.js';
import {
  type Cipher,
  createCipher,
  type KeyRing,
  loadEncryptionKeys,
  subkey,
} from './platform/crypto.js';
import { type JobQueue, startJobQueue } from './platform/jobs.js';
import { createMailer, type Mailer } from './platform/mailer.js';
import { createObjectStore } from './platform/object-store/index.js';
import type { ObjectStore } from './platform/object-store/types.js';
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
 * both run the same plugins, hooks and error handling. Each step below is one part of a start.
 */
export async function buildApp(
  config: AppConfig,
  options: BuildAppOptions = {},
): Promise<FastifyInstance> {
  const app = createFastify(config, options);
  const { keyRing, cipher, database } = await openPrivateState(config);
  app.decorate('platform', await startPlatform(app, config, options, keyRing, cipher, database));
  addShutdownHooks(app);
  decorateRequests(app);
  registerErrorHandling(app);
  await registerBodyParsers(app);
  await registerRoutes(app, config);
  return app;
}

/** The Fastify instance: logging, limits, shutdown behaviour and the zod compilers. */
function createFastify(config: AppConfig, options: BuildAppOptions) {
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
  return app;
}

/** The private folders, the key ring and its cipher, and the (not yet migrated) database. */
async function openPrivateState(config: AppConfig) {
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
  return { keyRing, cipher, database };
}

/**
 * Everything the routes and jobs run on: the migrated database, the adapters, the services and
 * the job queue. A failure part-way closes what was opened.
 */
async function startPlatform(
  app: FastifyInstance,
  config: AppConfig,
  options: BuildAppOptions,
  keyRing: KeyRing,
  cipher: Cipher,
  database: Database,
): Promise<Platform> {
  let jobs: JobQueue | undefined;
  let mailer: Mailer | undefined;
  // Messaging and extraction reach the queue only once it runs.
  const startedJobs = () => {
    if (!jobs) throw new Error('job queue not started');
    return jobs;
  };
  try {
    await prepareDatabase(app, database, config, cipher);
    mailer = createMailer({
      smtpUrl: config.mail.smtpUrl,
      from: config.mail.from,
      maxConnections: DELIVERY_CONCURRENCY,
    });
    const retry = options.jobRetry ?? { limit: 8, delaySeconds: 10 };
    const base = { config, database, keyRing, cipher, mailer, retry, startedJobs };
    const { objectStore, messaging, definitions } = createServicesAndJobs(app, base);
    jobs = await startJobs(app, config, database, definitions, retry.pollingIntervalSeconds);
    const { db } = database;
    return { config, database, db, keyRing, cipher, jobs, objectStore, mailer, messaging };
  } catch (error) {
    await jobs?.stop(1000).catch(() => {});
    mailer?.close();
    await database.close();
    throw error;
  }
}

interface PlatformBase {
  config: AppConfig;
  database: Database;
  keyRing: KeyRing;
  cipher: Cipher;
  mailer: Mailer;
  retry: NonNullable<BuildAppOptions['jobRetry']>;
  startedJobs: () => JobQueue;
}

/**
 * The object store, messaging, the services (decorated on the app) and the extraction engine,
 * with every job definition. Every service exists before the job queue starts: jobs resumed at
 * boot may run at once.
 */
function createServicesAndJobs(app: FastifyInstance, base: PlatformBase) {
  const { config, database, keyRing, cipher, retry, startedJobs } = base;
  const objectStore = openObjectStore(config, keyRing);
  const sms = createSmsSender(config.sms);
  const messaging = createMessaging({
    db: database.db,
    jobs: startedJobs,
    cipher,
    sendEmail: (message) => base.mailer.send(message),
    sendSms: (message) => sms.send(message),
    retryLimit: retry.limit,
    retryDelaySeconds: retry.delaySeconds,
  });
  // Collection is made after the services (it uses wearables); a connection made before it
  // exists has nothing to tell, as none can be made before the app listens.
  let collection: Collection | undefined;
  const services = createServices(
    {
      config,
      database,
      db: database.db,
      keyRing,
      cipher,
      objectStore,
      messaging,
    },
    {
      jobs: startedJobs,
      log: app.log,
      onWearableConnected: async (participantId) => collection?.connected(participantId),
      removeCollectedData: (studyId, participantId) =>
        dataset.removeParticipant(studyId, participantId),
    },
  );
  app.decorate('services', services);
  // The dataset's bucket is the study's, named by the engine (called only once both exist).
  const dataset = createDataset({
    db: database.db,
    objectStore,
    bucketOf: (studyId) => extraction.bucketOf(studyId),
  });
  app.decorate('adherence', createAdherenceService({ db: database.db, dataset }));
  const extraction = createExtractionEngine({
    db: database.db,
    config,
    objectStore,
    wearables: services.wearables,
    jobs: startedJobs,
    retry: { limit: Math.min(retry.limit, 3), delaySeconds: retry.delaySeconds },
    log: app.log,
    dataset: createRunReader(dataset),
  });
  app.decorate('extraction', extraction);
  const healthNotifications = createHealthNotifications({
    db: database.db,
    config,
    jobs: startedJobs,
    retry,
    log: app.log,
    connectionsOf: connectionsOfHealthUser,
    onWork: async (participantIds) => collection?.notified(participantIds),
  });
  app.decorate('healthNotifications', healthNotifications);
  collection = createCollection({
    db: database.db,
    config,
    dataset,
    wearables: services.wearables,
    quota: extraction.quota,
    jobs: startedJobs,
    retry: { limit: Math.min(retry.limit, 3), delaySeconds: retry.delaySeconds },
    removesDeletedData: async (studyId) =>
      (await services.studies.deletedDataPolicy(studyId)) === 'remove',
    ...(config.collection.types ? { types: config.collection.types } : {}),
    work: {
      pending: healthNotifications.pendingWork,
      finish: healthNotifications.finishWork,
      connectionsWithPendingWork: healthNotifications.connectionsWithPendingWork,
    },
  });
  app.decorate('collection', collection);
  const exportsService = createExportsService({
    db: database.db,
    objectStore,
    bucketOf: (studyId) => extraction.bucketOf(studyId),
    dataset,
    collectDays: () => collection?.collectDays,
    jobs: startedJobs,
    retry,
  });
  app.decorate('exports', exportsService);
  const definitions = [
    ...messaging.jobs,
    ...maintenanceJobs(config, database, cipher, objectStore),
    ...extraction.jobs,
    ...healthNotifications.jobs,
    ...collection.jobs,
    ...services.reminders.jobs,
    ...services.consent.jobs,
    ...exportsService.jobs,
  ];
  return { objectStore, messaging, definitions };
}

/** Migrations, then (before any job can use a token) older tokens bound to their participant. */
async function prepareDatabase(
  app: FastifyInstance,
  database: Database,
  config: AppConfig,
  cipher: Cipher,
) {
  await runMigrations(database, config.database);
  const rebound = await bindTokensToParticipants(database.db, cipher);
  if (rebound > 0) app.log.info({ rebound }, 'wearable tokens bound to their participant');
}

function openObjectStore(config: AppConfig, keyRing: KeyRing) {
  return config.storage.driver === 'fs'
    ? createObjectStore({
        driver: 'fs',
        root: config.storage.root,
        publicUrl: config.publicUrl,
        signingKey: subkey(keyRing, 'object-store-url-signing'),
      })
    : createObjectStore(config.storage);
}

/** The daily jobs: the retention purge (which revokes the study's grants) and the auth purge. */
function maintenanceJobs(
  config: AppConfig,
  database: Database,
  cipher: Cipher,
  objectStore: ObjectStore,
) {
  return [
    createRetentionJob({
      db: database.db,
      config,
      objectStore,
      revokeWearables: (studyId) => revokeStudyGrants({ db: database.db, cipher, config }, studyId),
    }),
    createAuthPurgeJob({ db: database.db, config }),
  ];
}

/** The job queue with every definition; its workers run here unless this is an API-only process. */
async function startJobs(
  app: FastifyInstance,
  config: AppConfig,
  database: Database,
  definitions: Parameters<typeof startJobQueue>[0]['definitions'],
  pollingIntervalSeconds = 2,
) {
  const jobs = await startJobQueue({
    executor: database.executor,
    definitions,
    pollingIntervalSeconds,
    onError: (error) => app.log.error({ err: error }, 'job queue error'),
    onUnavailable: (reason) =>
      app.log.warn({ reason }, 'database unavailable: job workers wait until it answers'),
    onAvailable: () => app.log.info('database answers again: job workers resume'),
  });
  if (config.runWorkers) await jobs.startWorkers();
  return jobs;
}

function addShutdownHooks(app: FastifyInstance) {
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
    await app.healthNotifications.close();
    await app.platform.jobs.stop();
    app.platform.mailer.close();
    await app.platform.database.close();
  });
}

function decorateRequests(app: FastifyInstance) {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionToken', null);
  app.decorateRequest('studyAccess', null);
  app.decorateRequest('applicationStatus', null);
  app.decorateRequest('tokenCaller', null);
}

async function registerBodyParsers(app: FastifyInstance) {
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
}

/**
 * Security headers and limits, the personal access tokens' check (before any route, so it runs
 * ahead of every guard), the API docs, the local admin, every module, then the web app.
 */
async function registerRoutes(app: FastifyInstance, config: AppConfig) {
  await registerSecurity(app, config);
  registerTokenUse(app);
  await registerDocs(app, config);
  app.decorate(
    'localAdmin',
    config.database.kind === 'pglite' ? await openLocalAdmin(app, config.dataDir) : null,
  );
  for (const module of MODULE_ROUTES) await app.register(module.routes);
  await registerWebApp(app, config.webDistDir);
}
