import {
  BUCKET_PAGE_TEXTS,
  formatDocumentSize,
  operationUrl,
  storageApi,
} from '@research/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../errors.js';
import { route } from '../../http/operation-route.js';
import { hmacSign, hmacVerify, type KeyRing, subkey } from '../../platform/crypto.js';
import { escapeHtml } from '../../platform/mail-templates.js';
import type { ObjectStore } from '../../platform/object-store/types.js';
import { recordRead } from '../audit/index.js';
import { assertBucketAccess, studyOfBucket } from './live-study-bucket.js';

/** A listing link is good for 15 minutes, each download link on it for 15 more. */
export const LISTING_TTL_SECONDS = 15 * 60;
/**
 * An S3 presigned link cannot be revoked or tied to an account: it works for whoever holds it
 * until it expires. Those on the page are kept short, so a removed member's copy soon dies; the
 * page itself is checked on every load.
 */
export const S3_DOWNLOAD_TTL_SECONDS = 5 * 60;
const PAGE_SIZE = 100;
const T = BUCKET_PAGE_TEXTS;

const payload = (bucket: string, user: string, expires: number, cursor: string) =>
  `bucket-listing-v2\n${bucket}\n${user}\n${expires}\n${cursor}`;

/** The key that signs listing links: the study screen signs them, this module checks them. */
export const bucketListingKey = (keyRing: KeyRing) => subkey(keyRing, 'bucket-listing-signing');

/**
 * The "Go to Bucket" page: a signed, expiring URL that lists a study bucket's files with
 * download links. It works the same for the fs and s3 drivers (download links are the driver's
 * own signed URLs), so researchers never need storage credentials. The link names the member it
 * was issued to; the page and the fs download links check that membership on every use.
 */
export function bucketListingUrl(
  publicUrl: string,
  key: Buffer,
  bucket: string,
  user: string,
  cursor = '',
): string {
  const expires = Math.floor(Date.now() / 1000) + LISTING_TTL_SECONDS;
  const url = new URL(`${publicUrl}${operationUrl(storageApi.listBucket, { bucket })}`);
  url.searchParams.set('expires', String(expires));
  if (cursor) url.searchParams.set('cursor', cursor);
  url.searchParams.set('user', user);
  url.searchParams.set('signature', hmacSign(key, payload(bucket, user, expires, cursor)));
  return url.toString();
}

export const bucketListingRoutes: FastifyPluginAsync<{
  store: ObjectStore;
  key: Buffer;
  publicUrl: string;
}> = async (app, { store, key, publicUrl }) => {
  route(app, storageApi.listBucket, {
    handler: async (request, reply) => {
      const { bucket } = request.params;
      const { expires, signature, cursor = '' } = request.query;
      // A personal access token of this bucket's study stands in for the signature (checked
      // before this handler); the page's links are then signed for the token's account.
      const caller = request.tokenCaller;
      const user = caller ? caller.user.id : (request.query.user ?? '');
      if (!caller) {
        const expiry = Number(expires);
        const valid =
          Number.isInteger(expiry) &&
          expiry >= Math.floor(Date.now() / 1000) &&
          typeof signature === 'string' &&
          user !== '' &&
          hmacVerify(key, payload(bucket, user, expiry, cursor), signature);
        if (!valid) throw new AppError(403, 'SIGNED_URL_INVALID', T.listingLinkInvalid);
        await assertBucketAccess(
          app.services.studies.linkAccess,
          app.platform.config,
          bucket,
          user,
        );
      }

      const page = await store
        .listObjects(bucket, { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) })
        .catch(() => ({ objects: [] }));
      await recordRead(
        app.platform.db,
        { ip: request.ip, user: { id: user } },
        {
          studyId: studyOfBucket(app.platform.config, bucket),
          action: 'bucket.listed',
          targetType: 'bucket',
          targetId: bucket,
          details: { shown: page.objects.length, ...(cursor ? { cursor } : {}) },
        },
      );
      const downloadTtl =
        app.platform.config.storage.driver === 's3' ? S3_DOWNLOAD_TTL_SECONDS : LISTING_TTL_SECONDS;
      const rows = await Promise.all(
        page.objects.map(async (object) => {
          const href = await store.signedDownloadUrl(bucket, object.key, {
            expiresInSeconds: downloadTtl,
            user,
          });
          return `<tr role="row"><td role="cell" data-label="${T.columns.file}"><a href="${escapeHtml(href)}">${escapeHtml(object.key)}</a></td><td role="cell" class="n" data-label="${T.columns.size}">${formatDocumentSize(object.size)}</td><td role="cell" class="t" data-label="${T.columns.lastModified}">${escapeHtml(object.lastModified.toISOString().replace('T', ' ').slice(0, 16))} ${T.utc}</td></tr>`;
        }),
      );
      const next =
        'nextCursor' in page && page.nextCursor
          ? bucketListingUrl(publicUrl, key, bucket, user, page.nextCursor)
          : null;
      const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${T.title} · ${escapeHtml(bucket)}</title><style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#f7f5f4;color:#1c1b1b}
header{background:#8C1515;color:#fff;padding:16px 24px}h1{margin:0;font-size:20px}
main{max-width:960px;margin:24px auto;padding:0 16px}table{width:100%;border-collapse:collapse;background:#fff;border-radius:12px;overflow:hidden}
th,td{padding:10px 14px;border-bottom:1px solid #eee;text-align:left}th{background:#00505C;color:#fff;font-weight:600}
td.n,td.t{white-space:nowrap}td.n{text-align:right}a{color:#8C1515;overflow-wrap:anywhere}.note{color:#555}
@media (max-width:600px){header{padding:16px}header div{overflow-wrap:anywhere}
table,tbody,tr,td{display:block}thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
table{background:none;border-radius:0}tr{background:#fff;border-radius:12px;margin-bottom:12px;padding:8px 0}
td{border:0;padding:4px 14px;display:grid;grid-template-columns:7.5rem minmax(0,1fr);gap:8px}
td.n{text-align:left}td.t{white-space:normal}td::before{content:attr(data-label);color:#555}}
</style></head><body><header><h1>${T.title}</h1><div>${escapeHtml(bucket)}</div></header><main>
<p class="note">${T.expiryNote(downloadTtl / 60)}</p>
${rows.length === 0 ? `<p>${T.empty}</p>` : `<table role="table"><thead><tr role="row"><th role="columnheader">${T.columns.file}</th><th role="columnheader">${T.columns.size}</th><th role="columnheader">${T.columns.lastModified}</th></tr></thead><tbody>${rows.join('')}</tbody></table>`}
${next ? `<p><a href="${escapeHtml(next)}">${T.nextPage}</a></p>` : ''}
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
  });
};
