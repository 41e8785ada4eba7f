import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { hmacSign, hmacVerify } from '../../platform/crypto.js';
import { escapeHtml } from '../../platform/mail-templates.js';
import type { ObjectStore } from '../../platform/object-store/types.js';

/** A listing link is good for 15 minutes, each download link on it for 15 more. */
export const LISTING_TTL_SECONDS = 15 * 60;
const PAGE_SIZE = 100;

const payload = (bucket: string, expires: number, cursor: string) =>
  `bucket-listing\n${bucket}\n${expires}\n${cursor}`;

/**
 * The "Go to Bucket" page: a signed, expiring URL that lists a study bucket's files with
 * download links. It works the same for the fs and s3 drivers (download links are the driver's
 * own signed URLs), so researchers never need storage credentials.
 */
export function bucketListingUrl(
  publicUrl: string,
  key: Buffer,
  bucket: string,
  cursor = '',
): string {
  const expires = Math.floor(Date.now() / 1000) + LISTING_TTL_SECONDS;
  const url = new URL(`${publicUrl}/api/storage/buckets/${encodeURIComponent(bucket)}`);
  url.searchParams.set('expires', String(expires));
  if (cursor) url.searchParams.set('cursor', cursor);
  url.searchParams.set('signature', hmacSign(key, payload(bucket, expires, cursor)));
  return url.toString();
}

const formatSize = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 ** 2
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 ** 2).toFixed(2)} MB`;

export const bucketListingRoutes: FastifyPluginAsyncZod<{
  store: ObjectStore;
  key: Buffer;
  publicUrl: string;
}> = async (app, { store, key, publicUrl }) => {
  app.get(
    '/api/storage/buckets/:bucket',
    {
      schema: {
        tags: ['storage'],
        summary: 'List a study bucket through a signed, expiring link',
        params: z.object({ bucket: z.string().max(100) }),
        querystring: z.object({
          expires: z.string().optional(),
          cursor: z.string().max(1024).optional(),
          signature: z.string().optional(),
        }),
      },
    },
    async (request, reply) => {
      const { bucket } = request.params;
      const { expires, signature, cursor = '' } = request.query;
      const expiry = Number(expires);
      const valid =
        Number.isInteger(expiry) &&
        expiry >= Math.floor(Date.now() / 1000) &&
        typeof signature === 'string' &&
        hmacVerify(key, payload(bucket, expiry, cursor), signature);
      if (!valid)
        throw new AppError(
          403,
          'SIGNED_URL_INVALID',
          'This link is invalid or has expired. Open the bucket again from the study page.',
        );

      const page = await store
        .listObjects(bucket, { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) })
        .catch(() => ({ objects: [] }));
      const rows = await Promise.all(
        page.objects.map(async (object) => {
          const href = await store.signedDownloadUrl(bucket, object.key, {
            expiresInSeconds: LISTING_TTL_SECONDS,
          });
          return `<tr><td><a href="${escapeHtml(href)}">${escapeHtml(object.key)}</a></td><td class="n">${formatSize(object.size)}</td><td>${escapeHtml(object.lastModified.toISOString().replace('T', ' ').slice(0, 16))} UTC</td></tr>`;
        }),
      );
      const next =
        'nextCursor' in page && page.nextCursor
          ? bucketListingUrl(publicUrl, key, bucket, page.nextCursor)
          : null;
      const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Study files · ${escapeHtml(bucket)}</title><style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#f7f5f4;color:#1c1b1b}
header{background:#8C1515;color:#fff;padding:16px 24px}h1{margin:0;font-size:20px}
main{max-width:960px;margin:24px auto;padding:0 16px}table{width:100%;border-collapse:collapse;background:#fff;border-radius:12px;overflow:hidden}
th,td{padding:10px 14px;border-bottom:1px solid #eee;text-align:left}th{background:#00505C;color:#fff;font-weight:600}
td.n{text-align:right;white-space:nowrap}a{color:#8C1515}.note{color:#555}
</style></head><body><header><h1>Study files</h1><div>${escapeHtml(bucket)}</div></header><main>
<p class="note">Download links on this page expire after 15 minutes. Reopen the bucket from the study page for fresh links.</p>
${rows.length === 0 ? '<p>No files yet. Extracted data appears here.</p>' : `<table><thead><tr><th>File</th><th>Size</th><th>Last modified</th></tr></thead><tbody>${rows.join('')}</tbody></table>`}
${next ? `<p><a href="${escapeHtml(next)}">Next page</a></p>` : ''}
</main></body></html>`;
      return reply
        .header('Cache-Control', 'private, no-store')
        .header(
          'Content-Security-Policy',
          "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        )
        .type('text/html; charset=utf-8')
        .send(body);
    },
  );
};
