import rateLimit from '@fastify/rate-limit';
import { AUTH_HARDENING_MESSAGES } from '@research/contracts';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { AppConfig } from '../config.js';
import { AppError } from '../errors.js';

/** Whether a parsed body, query or params object holds U+0000 in any string, at any depth. */
export function containsNullCharacter(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  if (Buffer.isBuffer(value)) return false;
  const entries = Array.isArray(value) ? value : [...Object.keys(value), ...Object.values(value)];
  return entries.some((entry) => containsNullCharacter(entry, depth + 1));
}

export async function registerSecurity(app: FastifyInstance, config: AppConfig) {
  const https = config.publicUrl.startsWith('https://');
  // Helmet's headers depend only on this configuration, so its middleware is built once here;
  // @fastify/helmet rebuilt it (parsing every CSP directive) on each request.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // MUI (emotion) injects style elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    frameguard: { action: 'deny' },
    // HSTS over plain http would be ignored at best and pin a dev host at worst.
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    // The wearable popup needs `window.opener`; same-origin-allow-popups keeps it.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
  app.addHook('onRequest', (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined)),
  );

  // Answers from the API carry tokens and personal data: no browser or proxy may keep a copy.
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control'))
      reply.header('Cache-Control', 'no-store');
  });

  // The shared text schemas refuse U+0000 with this message; this catches it in any request,
  // including routes whose schemas predate that rule, before PostgreSQL could fail on it.
  app.addHook('preValidation', async (request) => {
    if (
      containsNullCharacter(request.body) ||
      containsNullCharacter(request.query) ||
      containsNullCharacter(request.params)
    )
      throw new AppError(400, 'VALIDATION_ERROR', AUTH_HARDENING_MESSAGES.nullCharacter);
  });

  await app.register(rateLimit, {
    global: true,
    max: config.rateLimitMax,
    // The limit guards the API. The web app's shell and fingerprinted assets are static files: a
    // single page load fetches a dozen of them, and counting them locked people out of the app.
    allowList: (request) => !request.url.startsWith('/api/'),
    timeWindow: '1 minute',
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `Too many requests. Please try again in ${context.after}.`,
    }),
  });
}
