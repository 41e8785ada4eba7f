import rateLimit from '@fastify/rate-limit';
import {
  AUTH_HARDENING_MESSAGES,
  hasNoLoneSurrogate,
  hasNoNullCharacter,
} from '@research/contracts';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { AppConfig } from '../config.js';
import { AppError } from '../errors.js';

/**
 * The first text rule a parsed body, query or params object breaks in any string (values and
 * keys, at any depth): U+0000, or a lone surrogate (JSON's `"\ud800"`).
 */
export function unsafeTextIn(value: unknown, depth = 0): 'nullCharacter' | 'loneSurrogate' | null {
  if (typeof value === 'string') {
    if (!hasNoNullCharacter(value)) return 'nullCharacter';
    return hasNoLoneSurrogate(value) ? null : 'loneSurrogate';
  }
  if (depth > 32 || value === null || typeof value !== 'object') return null;
  if (Buffer.isBuffer(value)) return null;
  const entries = Array.isArray(value) ? value : [...Object.keys(value), ...Object.values(value)];
  for (const entry of entries) {
    const found = unsafeTextIn(entry, depth + 1);
    if (found) return found;
  }
  return null;
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

  // The shared text schemas refuse these with the same messages; this catches them in any
  // request, including fields typed as a plain string, before PostgreSQL could fail on them.
  app.addHook('preValidation', async (request) => {
    const rule =
      unsafeTextIn(request.body) ?? unsafeTextIn(request.query) ?? unsafeTextIn(request.params);
    if (rule) throw new AppError(400, 'VALIDATION_ERROR', AUTH_HARDENING_MESSAGES[rule]);
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
