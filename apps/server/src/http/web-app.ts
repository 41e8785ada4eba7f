import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { TRANSPORT_MESSAGES } from '@research/contracts';
import type { FastifyInstance } from 'fastify';
import { errorBody } from './error-handler.js';

const POPUP_RETURN_PAGES = new Set(['/auth/google/callback', '/fitbit/callback']);

/**
 * Serves the built web app and answers client-side routes with index.html, so a deep link such
 * as /researcher/dashboard loads the app. API paths keep their JSON 404.
 */
export async function registerWebApp(app: FastifyInstance, webDistDir: string) {
  const built = existsSync(path.join(webDistDir, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      index: false,
      // Our own Cache-Control below, instead of the plugin's max-age=0 default.
      cacheControl: false,
      setHeaders(res, filePath) {
        // Vite fingerprints everything under assets/, so those never change under one name.
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader(
          'Cache-Control',
          immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !pathname.startsWith('/api/') &&
      !path.extname(pathname);
    if (!wantsPage) {
      return reply.status(404).send(errorBody(TRANSPORT_MESSAGES.notFound, 'NOT_FOUND'));
    }
    if (!built) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send(
          'The web app is not built yet. Run `npm run build` (or `npm start`, which builds it).',
        );
    }
    // Pages that a popup returns to from another origin (Google, the wearable's OAuth) must keep
    // `window.opener`; any stricter opener policy would sever the popup from the page that opened it.
    if (POPUP_RETURN_PAGES.has(pathname)) reply.header('Cross-Origin-Opener-Policy', 'unsafe-none');
    return reply
      .header('Cache-Control', 'no-cache')
      .sendFile('index.html', { cacheControl: false });
  });
}
