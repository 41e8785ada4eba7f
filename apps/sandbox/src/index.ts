import type { AddressInfo } from 'node:net';
import formbody from '@fastify/formbody';
import Fastify from 'fastify';
import { registerInbox } from './inbox-page.js';
import { type IdTokenTamper, registerOidc } from './oidc.js';
import { startSmtpCatcher } from './smtp-catcher.js';
import { type CapturedMessage, MessageStore } from './store.js';
import { registerTwilio } from './twilio.js';

export type { SimulatedAccount } from './accounts.js';
export { SIMULATED_ACCOUNTS, subjectFor } from './accounts.js';
export type { IdTokenTamper } from './oidc.js';
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
  google?: { clients: { clientId: string; clientSecret: string }[] };
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
  close(): Promise<void>;
}

export const SANDBOX_DEFAULTS = {
  httpPort: 3100,
  smtpPort: 2525,
  twilioAccountSid: 'AC00000000000000000000000000000000',
  twilioAuthToken: 'sandbox-auth-token',
  googleClientId: 'sandbox-client-id.apps.googleusercontent.com',
  googleClientSecret: 'sandbox-client-secret',
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
  const oidc = await registerOidc(app, {
    issuer: () => issuer,
    clients: options.google?.clients ?? [
      {
        clientId: SANDBOX_DEFAULTS.googleClientId,
        clientSecret: SANDBOX_DEFAULTS.googleClientSecret,
      },
    ],
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  });
  registerTwilio(app, {
    store,
    credentials: options.twilio ?? {
      accountSid: SANDBOX_DEFAULTS.twilioAccountSid,
      authToken: SANDBOX_DEFAULTS.twilioAuthToken,
    },
  });
  registerInbox(app, store);
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
    await app.close();
    throw error;
  }

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
    close() {
      closed ??= Promise.all([app.close(), smtp.close()]).then(() => undefined);
      return closed;
    },
  };
}
