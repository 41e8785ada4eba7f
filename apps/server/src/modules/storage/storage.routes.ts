import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { DOWNLOAD_ROUTE_PREFIX, type FsObjectStore } from '../../platform/object-store/fs-store.js';
import {
  attachmentDisposition,
  baseName,
  type ObjectStore,
} from '../../platform/object-store/types.js';

export interface StorageRoutesOptions {
  /** Must be the fs driver: S3 serves its own presigned links. */
  store: ObjectStore;
}

export const SIGNED_URL_INVALID = 'SIGNED_URL_INVALID';

const isFsStore = (store: ObjectStore): store is FsObjectStore =>
  'verifySignature' in store && typeof store.verifySignature === 'function';

const paramsSchema = z.object({
  bucket: z.string(),
  '*': z.string().describe('Object key; may contain slashes'),
});

// Every field is optional on purpose: a link missing a part is answered like a wrong or
// expired one (403), not with a validation error that reads as a bug.
const querySchema = z.object({
  expires: z.string().optional().describe('Expiry, unix seconds'),
  signature: z.string().optional().describe('HMAC-SHA256 of bucket, key, expiry and filename'),
  filename: z.string().optional().describe('Name the browser saves the file under'),
});

/**
 * Serves the signed download links of the fs object store. The signature is checked before
 * the object is looked up, so a bad link reveals nothing about which objects exist.
 */
export const storageRoutes: FastifyPluginAsyncZod<StorageRoutesOptions> = async (app, options) => {
  const store = options.store;
  if (!isFsStore(store)) {
    throw new Error('storageRoutes serves the fs object store only; S3 links are presigned by S3');
  }

  app.get(
    `${DOWNLOAD_ROUTE_PREFIX}/:bucket/*`,
    {
      schema: {
        tags: ['storage'],
        summary: 'Download a stored file through a signed, expiring link',
        params: paramsSchema,
        querystring: querySchema,
      },
    },
    async (request, reply) => {
      const { bucket, '*': key } = request.params;
      const { expires, signature, filename } = request.query;
      if (!store.verifySignature({ bucket, key, expires, signature, filename })) {
        throw new AppError(
          403,
          SIGNED_URL_INVALID,
          'This download link is invalid or has expired.',
        );
      }
      const object = await store.getObject(bucket, key);
      return (
        reply
          .header('content-type', object.contentType)
          .header('content-length', object.size)
          .header('content-disposition', attachmentDisposition(filename ?? baseName(key)))
          .header('x-content-type-options', 'nosniff')
          // Should a browser render it anyway, a stored HTML or SVG file gets no script and no origin.
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('cache-control', 'private, no-store')
          .send(object.body)
      );
    },
  );
};
