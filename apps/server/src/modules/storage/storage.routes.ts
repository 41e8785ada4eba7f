import { BUCKET_PAGE_TEXTS, storageApi } from '@research/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../errors.js';
import { route } from '../../http/operation-route.js';
import type { FsObjectStore } from '../../platform/object-store/fs-store.js';
import {
  attachmentDisposition,
  baseName,
  type ObjectStore,
} from '../../platform/object-store/types.js';

export interface StorageRoutesOptions {
  /** Must be the fs driver: S3 serves its own presigned links. */
  store: ObjectStore;
  /**
   * Refuses a bucket whose study has been deleted since the link was signed, or whose study the
   * link's account is no longer a member of.
   */
  assertAccess?: (bucket: string, user: string | undefined) => Promise<void>;
  /** Records each download (the audit trail's `file.downloaded`). */
  recordDownload?: (
    request: { ip: string },
    download: { bucket: string; key: string; user: string | undefined },
  ) => Promise<void>;
}

const isFsStore = (store: ObjectStore): store is FsObjectStore =>
  'verifySignature' in store && typeof store.verifySignature === 'function';

/**
 * Serves the signed download links of the fs object store. The signature is checked before
 * the object is looked up, so a bad link reveals nothing about which objects exist.
 */
export const storageRoutes: FastifyPluginAsync<StorageRoutesOptions> = async (app, options) => {
  const store = options.store;
  if (!isFsStore(store)) {
    throw new Error('storageRoutes serves the fs object store only; S3 links are presigned by S3');
  }

  route(app, storageApi.downloadObject, {
    handler: async (request, reply) => {
      const { bucket, '*': key } = request.params;
      const { expires, signature, filename, user } = request.query;
      // A personal access token of this bucket's study stands in for the signature (its study
      // and membership were checked before this handler).
      if (!request.tokenCaller) {
        if (!store.verifySignature({ bucket, key, expires, signature, filename, user })) {
          throw new AppError(403, 'SIGNED_URL_INVALID', BUCKET_PAGE_TEXTS.downloadLinkInvalid);
        }
        await options.assertAccess?.(bucket, user);
      }
      const object = await store.getObject(bucket, key);
      await options.recordDownload?.(request, {
        bucket,
        key,
        user: request.tokenCaller?.user.id ?? user,
      });
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
  });
};
