import type { AddressInfo } from 'node:net';
import formbody from '@fastify/formbody';
import Fastify from 'fastify';
import { registerHealthAdmin } from './health/admin.js';
import { SandboxClock } from './health/clock.js';
import { type HealthConnection, toConnection } from './health/connections.js';
import { DEFAULT_HEALTH_CONTROLS, type HealthControls } from './health/controls.js';
import { Deliveries, type DeliveryState, type DeliveryView } from './health/deliveries.js';
import { Faults } from './health/faults.js';
import { registerLegacyFitbit } from './health/legacy-fitbit.js';
import { Quota, type QuotaUsage } from './health/quota.js';
import { type HealthRequest, RequestLog } from './health/request-log.js';
import { registerResourceServer } from './health/resource-server.js';
import {
  type CloudProject,
  ServiceAccount,
  type ServiceAccountKeyFile,
} from './health/service-account.js';
import { SubscriberStore } from './health/subscribers.js';
import { registerSubscribersApi } from './health/subscribers-api.js';
import { SyncHorizons } from './health/sync-horizons.js';
import { type TinkKeyset, WebhookSigner } from './health/tink-keyset.js';
import { KEYSET_PATH, registerWebhookAdmin } from './health/webhook-admin.js';
import { type SyncResult, WebhookHub } from './health/webhooks.js';
import { registerInbox } from './inbox-page.js';
import { type IdTokenTamper, type OAuthClient, registerOidc } from './oidc.js';
import { startSmtpCatcher } from './smtp-catcher.js';
import { type CapturedMessage, MessageStore } from './store.js';
import { registerTwilio } from './twilio.js';

export type { SimulatedAccount } from './accounts.js';
export { SIMULATED_ACCOUNTS, subjectFor } from './accounts.js';
export { type Clock, SandboxClock } from './health/clock.js';
export type { HealthConnection } from './health/connections.js';
export { DEFAULT_HEALTH_CONTROLS, type HealthControls } from './health/controls.js';
export {
  clearGeneratedDays,
  DATA_START_DAY,
  dayData,
  generatedDays,
  HEALTH_TIMELINE,
  hasHealthProfile,
  healthIdentity,
  restingHeartRate,
  setGeneratedDaysCache,
  sleepSession,
  timeZoneAt,
  utcOffsetAt,
} from './health/data-generator.js';
export { pointsOfUnit } from './health/data-points.js';
export { DATA_TYPES } from './health/data-types.js';
export type { DeliveryAttempt, DeliveryState, DeliveryView } from './health/deliveries.js';
export { type CivilDayTotals, civilDayTotals } from './health/expected.js';
export type { QuotaUsage } from './health/quota.js';
export type { HealthRequest } from './health/request-log.js';
export { UNBOUNDED_LOOKBACK_DAYS } from './health/resource-server.js';
export type { CloudProject, ServiceAccountKeyFile } from './health/service-account.js';
export { encodeEcdsaPublicKey, type TinkKeyset } from './health/tink-keyset.js';
export type { SyncResult } from './health/webhooks.js';
export type { IdTokenTamper, OAuthClient } from './oidc.js';
export { TESTING_REFRESH_TOKEN_MS } from './oidc.js';
export type { CapturedMessage } from './store.js';

export interface SandboxOptions {
  /** Interface both servers bind to. Default 127.0.0.1. */
  host?: string;
  /** HTTP port (Twilio, OIDC, inbox). 0 picks a free port. */
  httpPort?: number;
  /** SMTP port. 0 picks a free port. */
  smtpPort?: number;
  /** Base URL browsers and clients use; also the OIDC issuer. Default http://localhost:<httpPort>. */
  publicUrl?: string;
  /**
   * When set, the inbox persists here (JSON lines, newest 500 kept), and the OIDC signing key and
   * OAuth grants are kept, so restarts keep working.
   */
  dataDir?: string;
  twilio?: { accountSid: string; authToken: string };
  google?: {
    clients?: OAuthClient[];
    /** Start with the simulated client in "Testing" publishing status (7-day refresh tokens). */
    testingMode?: boolean;
    /** The Cloud project the clients and the service account belong to. */
    project?: CloudProject;
  };
}

/** Where a client reaches the sandbox's Google endpoints (same paths as Google's). */
export interface GoogleHealthUrls {
  /** Browser: `https://accounts.google.com/o/oauth2/v2/auth` */
  authorizationUrl: string;
  /** `https://oauth2.googleapis.com/token` */
  tokenUrl: string;
  /** `https://oauth2.googleapis.com/revoke` */
  revokeUrl: string;
  /** `https://health.googleapis.com` (paths start with /v4/) */
  apiBaseUrl: string;
  /** The Tink JSON keyset that verifies webhook signatures (Google publishes its own). */
  webhookKeysetUrl: string;
}

/** The webhook side of the simulated Google Health API. */
export interface WebhooksHandle {
  /** The project in `projects/{number}/subscribers`. */
  project: CloudProject;
  /** The service account's key file (also `GET /__admin/health/service-account.json`). */
  serviceAccountKey(): ServiceAccountKeyFile;
  keyset(): TinkKeyset;
  /** A new primary signing key; older keys stay in the keyset. */
  rotateKey(): TinkKeyset;
  /** Notifications sent, retrying or dropped, oldest first. */
  deliveries(filter?: { subscriber?: string; state?: DeliveryState }): DeliveryView[];
  /** Resolves when no notification is pending (all delivered or dropped); rejects on timeout. */
  settled(timeoutMs?: number): Promise<DeliveryView[]>;
  /** Forgets delivered and dropped notifications. */
  clearDeliveries(): number;
}

/** Test controls of the simulated Google Health API (also over `POST /__admin/health`). */
export interface HealthHandle {
  urls: GoogleHealthUrls;
  clock: SandboxClock;
  controls(): HealthControls;
  /** Changes some knobs; returns all of them. */
  setControls(update: Partial<HealthControls>): HealthControls;
  resetControls(): HealthControls;
  /**
   * Health API requests per health user id since the start (or `resetControls`): served, and
   * refused with 429 by the quota. Also `GET /__admin/health/usage`.
   */
  usage(): Record<string, QuotaUsage>;
  /**
   * Revokes every live grant of the account, as Google account settings → Connections does;
   * subscribers get DELETE notifications for the types the grants covered.
   */
  revoke(email: string): number;
  /**
   * The account's tracker syncs: its data becomes visible up to `until` (default now; never later
   * than now) and UPSERT notifications go out for what appeared. An earlier `until` hides data
   * as if the device had not synced yet. `'live'` returns to the default: data up to now.
   */
  sync(email: string, until?: Date | number | 'live'): SyncResult;
  webhooks: WebhooksHandle;
  connections(email?: string): HealthConnection[];
  /**
   * The Health API requests received (`/v4/…`), oldest first, the account's only when given:
   * method, path without query, account. Tests count them ("no new call to Google").
   */
  requests(email?: string): HealthRequest[];
  clearRequests(): void;
  /**
   * Plays the person on the consent page over HTTP: opens `authorizationUrl` (as built by the
   * client), picks or types `email`, keeps only `granted` scopes when given (sign-in scopes always
   * stay), or denies. Resolves with the redirect back to the client (`code`/`scope`/`state`, or
   * `error=access_denied`); rejects when the page shows an error instead.
   */
  consent(
    authorizationUrl: string,
    choice: { email: string; granted?: string[]; deny?: boolean },
  ): Promise<URL>;
}

export interface Sandbox {
  httpUrl: string;
  smtpPort: number;
  issuer: string;
  /** Newest first. */
  messages(filter?: { to?: string; channel?: 'email' | 'sms' }): CapturedMessage[];
  /**
   * The newest captured message matching the filter, or the next one to arrive. `subjectIncludes`
   * also searches the text of SMS, which have no subject. Rejects after `timeoutMs` (default 5 s).
   */
  waitForMessage(
    filter: { to?: string; channel?: 'email' | 'sms'; subjectIncludes?: string },
    timeoutMs?: number,
  ): Promise<CapturedMessage>;
  clear(): void;
  /** For tests of ID-token verification: signs with the issuer's key (or a foreign key). */
  mintIdToken(
    claims: Record<string, unknown>,
    options?: { expiresInSeconds?: number; signWith?: 'issuer' | 'foreign' },
  ): Promise<string>;
  /** Makes the next ID token from the token endpoint faulty: other claims, foreign key, expired, bad signature. */
  tamperNextIdToken(tamper: IdTokenTamper): void;
  /** The simulated Google Health API: its URLs, clock and fault knobs. */
  health: HealthHandle;
  close(): Promise<void>;
}

export const SANDBOX_DEFAULTS = {
  httpPort: 3100,
  smtpPort: 2525,
  twilioAccountSid: 'AC00000000000000000000000000000000',
  twilioAuthToken: 'sandbox-auth-token',
  googleClientId: 'sandbox-client-id.apps.googleusercontent.com',
  googleClientSecret: 'sandbox-client-secret',
  googleProjectNumber: '424242424242',
  googleProjectId: 'sandbox-health-project',
} as const;

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const store = new MessageStore(options.dataDir);
  // No request logging: bodies and headers carry codes, tokens and Basic credentials.
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  await app.register(formbody);

  let issuer = '';
  const clock = new SandboxClock();
  let controls: HealthControls = {
    ...DEFAULT_HEALTH_CONTROLS,
    testingMode: options.google?.testingMode ?? DEFAULT_HEALTH_CONTROLS.testingMode,
  };
  const project: CloudProject = options.google?.project ?? {
    number: SANDBOX_DEFAULTS.googleProjectNumber,
    id: SANDBOX_DEFAULTS.googleProjectId,
  };
  const serviceAccount = new ServiceAccount(project, clock, options.dataDir);
  const oidc = await registerOidc(app, {
    jwtBearer: (assertion, tokenUrl) => serviceAccount.exchange(assertion, tokenUrl),
    clock,
    testingMode: () => controls.testingMode,
    issuer: () => issuer,
    clients: options.google?.clients ?? [
      {
        clientId: SANDBOX_DEFAULTS.googleClientId,
        clientSecret: SANDBOX_DEFAULTS.googleClientSecret,
      },
    ],
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  });
  const connections = (email?: string): HealthConnection[] =>
    oidc.grants
      .list()
      .filter((g) => !email || g.account.email === email.trim().toLowerCase())
      .map(toConnection);
  const setControls = (update: Partial<HealthControls>): HealthControls => {
    controls = { ...controls, ...update };
    if (update.clockOffsetMs !== undefined) clock.offsetMs = update.clockOffsetMs;
    return { ...controls, clockOffsetMs: clock.offsetMs };
  };
  const quota = new Quota(clock);
  const faults = new Faults();
  const horizons = new SyncHorizons(options.dataDir);
  const requestLog = new RequestLog();
  registerResourceServer(app, {
    clock,
    grants: oidc.grants,
    controls: () => controls,
    quota,
    faults,
    horizons,
    log: requestLog,
  });
  registerLegacyFitbit(app);

  const signer = new WebhookSigner(options.dataDir, () => clock.now());
  const subscribers = new SubscriberStore(options.dataDir);
  const deliveries = new Deliveries({
    clock,
    signer,
    knobs: () => controls,
    endpoint: (name) => {
      const found = subscribers.get(name);
      return found?.state === 'ACTIVE' ? { uri: found.endpointUri, secret: found.secret } : null;
    },
  });
  const hub = new WebhookHub({ clock, grants: oidc.grants, horizons, subscribers, deliveries });
  registerSubscribersApi(app, {
    serviceAccount,
    grants: oidc.grants,
    store: subscribers,
    clock,
    controls: () => controls,
    onDeleted: (name) => deliveries.dropFor(name, 'subscriber deleted'),
  });
  registerHealthAdmin(app, {
    controls: () => ({ ...controls, clockOffsetMs: clock.offsetMs }),
    setControls,
    revoke: (email) => hub.revoke(email),
    usage: () => quota.usage(),
  });
  registerWebhookAdmin(app, {
    serviceAccountKey: () => serviceAccount.keyFile(issuer),
    keyset: () => signer.keyset(),
    rotateKey: () => signer.rotate(),
    sync: (email, until) => hub.sync(email, until),
    deliveries,
  });
  registerTwilio(app, {
    store,
    credentials: options.twilio ?? {
      accountSid: SANDBOX_DEFAULTS.twilioAccountSid,
      authToken: SANDBOX_DEFAULTS.twilioAuthToken,
    },
  });
  registerInbox(app, store, { connections: () => connections(), now: () => clock.now() });
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'not_found' }));
  app.setErrorHandler((error: { statusCode?: number; message?: string }, request, reply) => {
    const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 500;
    // The stack helps whoever runs the sandbox; the route path is logged without its query string.
    if (status >= 500)
      console.error(`sandbox: ${request.method} ${request.routeOptions.url ?? ''}`, error);
    // Client errors (bad JSON, too large) keep their message; server errors reveal nothing.
    return reply
      .code(status)
      .send({ error: status < 500 ? (error.message ?? 'Bad Request') : 'Internal Server Error' });
  });

  await app.listen({ host, port: options.httpPort ?? SANDBOX_DEFAULTS.httpPort });
  const httpPort = (app.server.address() as AddressInfo).port;
  issuer = (options.publicUrl ?? `http://localhost:${httpPort}`).replace(/\/+$/, '');

  let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
  try {
    smtp = await startSmtpCatcher(store, {
      host,
      port: options.smtpPort ?? SANDBOX_DEFAULTS.smtpPort,
    });
  } catch (error) {
    deliveries.close();
    await app.close();
    throw error;
  }

  const health: HealthHandle = {
    urls: {
      authorizationUrl: `${issuer}/o/oauth2/v2/auth`,
      tokenUrl: `${issuer}/token`,
      revokeUrl: `${issuer}/revoke`,
      apiBaseUrl: issuer,
      webhookKeysetUrl: `${issuer}${KEYSET_PATH}`,
    },
    clock,
    controls: () => ({ ...controls, clockOffsetMs: clock.offsetMs }),
    setControls,
    resetControls: () => {
      controls = {
        ...DEFAULT_HEALTH_CONTROLS,
        testingMode: options.google?.testingMode ?? DEFAULT_HEALTH_CONTROLS.testingMode,
      };
      clock.offsetMs = 0;
      faults.reset();
      quota.reset();
      return { ...controls };
    },
    usage: () => quota.usage(),
    revoke: (email) => hub.revoke(email).revoked,
    sync: (email, until) =>
      hub.sync(
        email,
        until === 'live'
          ? null
          : until === undefined
            ? Number.POSITIVE_INFINITY
            : until instanceof Date
              ? until.getTime()
              : until,
      ),
    webhooks: {
      project,
      serviceAccountKey: () => serviceAccount.keyFile(issuer),
      keyset: () => signer.keyset(),
      rotateKey: () => signer.rotate(),
      deliveries: (filter) => deliveries.list(filter),
      settled: (timeoutMs) => deliveries.settled(timeoutMs),
      clearDeliveries: () => deliveries.clearFinished(),
    },
    connections,
    requests: (email) => requestLog.list(email),
    clearRequests: () => requestLog.clear(),
    async consent(authorizationUrl, choice) {
      const page = await fetch(authorizationUrl, { redirect: 'manual' });
      const html = await page.text();
      const requestId = /name="request" value="([^"]+)"/.exec(html)?.[1];
      if (page.status !== 200 || !requestId) {
        const reason = /<div class="error" role="alert">([^<]*)</.exec(html)?.[1];
        throw new Error(`consent page answered ${page.status}${reason ? `: ${reason}` : ''}`);
      }
      const requested = [...html.matchAll(/name="granted_scope" value="([^"]+)"/g)].map(
        (m) => m[1] ?? '',
      );
      const form = new URLSearchParams({ request: requestId });
      if (choice.deny) form.set('account', 'cancel');
      else {
        form.set('account', 'custom');
        form.set('email', choice.email);
      }
      for (const scope of choice.granted ?? requested) form.append('granted_scope', scope);
      const chosen = await fetch(`${issuer}/o/oauth2/v2/auth/choose`, {
        method: 'POST',
        body: form,
        redirect: 'manual',
      });
      const location = chosen.headers.get('location');
      if (chosen.status !== 302 || !location) {
        throw new Error(`consent form answered ${chosen.status}`);
      }
      return new URL(location);
    },
  };

  let closed: Promise<void> | undefined;
  return {
    httpUrl: `http://${urlHost(host)}:${httpPort}`,
    smtpPort: smtp.port,
    issuer,
    messages: (filter = {}) => store.list(filter),
    waitForMessage: (filter, timeoutMs) => store.waitFor(filter, timeoutMs),
    clear: () => store.clear(),
    mintIdToken: (claims, mintOptions) => oidc.mintIdToken(claims, mintOptions),
    tamperNextIdToken: (tamper) => oidc.tamperNextIdToken(tamper),
    health,
    close() {
      deliveries.close();
      closed ??= Promise.all([app.close(), smtp.close()]).then(() => undefined);
      return closed;
    },
  };
}
