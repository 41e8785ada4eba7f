import type { FastifyPluginAsync } from 'fastify';
import { recordAudit } from '../audit/index.js';
import { bucketListingKey, bucketListingRoutes } from './bucket-listing.js';
import { assertBucketAccess, studyOfBucket } from './live-study-bucket.js';
import { storageRoutes } from './storage.routes.js';

export { bucketListingKey, bucketListingUrl } from './bucket-listing.js';

/** The bucket page (both drivers) and, with the fs driver, its signed download links. */
export const routes: FastifyPluginAsync = async (app) => {
  const { config, objectStore, keyRing } = app.platform;
  await app.register(bucketListingRoutes, {
    store: objectStore,
    key: bucketListingKey(keyRing),
    publicUrl: config.publicUrl,
  });
  if (config.storage.driver === 'fs') {
    await app.register(storageRoutes, {
      store: objectStore,
      assertAccess: (bucket, user) =>
        assertBucketAccess(app.services.studies.linkAccess, config, bucket, user),
      recordDownload: (request, { bucket, key, user }) =>
        // Every file handed out is its own entry (a download, not a repeatable view).
        recordAudit(app.platform.db, {
          actorId: user ?? null,
          ip: request.ip,
          studyId: studyOfBucket(config, bucket),
          action: 'file.downloaded',
          targetType: 'bucket',
          targetId: bucket,
          details: { key },
        }),
    });
  }
};
