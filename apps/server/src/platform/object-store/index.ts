import { createFsObjectStore, type FsObjectStore, type FsObjectStoreOptions } from './fs-store.js';
import { createS3ObjectStore, type S3ObjectStore, type S3ObjectStoreOptions } from './s3-store.js';

export * from './fs-store.js';
export * from './s3-store.js';
export * from './types.js';

export type ObjectStoreOptions =
  | ({ driver: 'fs' } & FsObjectStoreOptions)
  | ({ driver: 's3' } & S3ObjectStoreOptions);

/**
 * The store chosen by configuration. The fs driver also serves its own signed links (see
 * modules/storage), so callers can narrow on `store.driver === 'fs'` to mount that route.
 */
export function createObjectStore(options: { driver: 'fs' } & FsObjectStoreOptions): FsObjectStore;
export function createObjectStore(options: { driver: 's3' } & S3ObjectStoreOptions): S3ObjectStore;
export function createObjectStore(options: ObjectStoreOptions): FsObjectStore | S3ObjectStore;
export function createObjectStore(options: ObjectStoreOptions): FsObjectStore | S3ObjectStore {
  if (options.driver === 'fs') {
    const { driver: _driver, ...fsOptions } = options;
    return createFsObjectStore(fsOptions);
  }
  const { driver: _driver, ...s3Options } = options;
  return createS3ObjectStore(s3Options);
}
