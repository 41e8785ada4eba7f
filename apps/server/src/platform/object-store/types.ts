import { AppError } from '../../errors.js';

export type ObjectBody = Buffer | string | NodeJS.ReadableStream;

export interface StoredObject {
  key: string;
  size: number;
  lastModified: Date;
}

export interface ListObjectsOptions {
  prefix?: string | undefined;
  /** Page size, 1–1000; 1000 unless set. */
  limit?: number | undefined;
  /** `nextCursor` of the previous page. */
  cursor?: string | undefined;
}

export interface ObjectPage {
  /** In key order. */
  objects: StoredObject[];
  /** Present when more objects follow. */
  nextCursor?: string;
}

/**
 * What the platform needs from object storage, met by the local `fs` driver and by any
 * S3-compatible service. Buckets must exist (`ensureBucket`) before objects are written.
 */
export interface ObjectStore {
  ensureBucket(bucket: string): Promise<void>;
  putObject(
    bucket: string,
    key: string,
    body: ObjectBody,
    opts?: { contentType?: string | undefined },
  ): Promise<void>;
  /** Throws ObjectNotFoundError for an unknown bucket or key. */
  getObject(
    bucket: string,
    key: string,
  ): Promise<{ body: NodeJS.ReadableStream; contentType: string; size: number }>;
  listObjects(bucket: string, opts?: ListObjectsOptions): Promise<ObjectPage>;
  /** Deleting a missing object is not an error, as in S3. */
  deleteObject(bucket: string, key: string): Promise<void>;
  /**
   * A time-limited URL a browser can download the object from without other credentials. `user`
   * (fs driver) is signed into the link and handed to the download route, which checks that
   * account's access on every use; an S3 presigned URL cannot carry it and cannot be revoked.
   */
  signedDownloadUrl(
    bucket: string,
    key: string,
    opts: { expiresInSeconds: number; filename?: string | undefined; user?: string | undefined },
  ): Promise<string>;
  /** Releases connections at shutdown (a no-op for the fs driver). */
  close(): void;
}

export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';
export const MAX_LIST_LIMIT = 1000;
/** S3 refuses presigned URLs valid for longer than 7 days; the fs driver keeps the same rule. */
export const MAX_SIGNED_URL_SECONDS = 7 * 24 * 60 * 60;

export class ObjectNotFoundError extends AppError {
  constructor(bucket: string, key: string) {
    super(404, 'OBJECT_NOT_FOUND', 'File not found', { bucket, key });
    this.name = 'ObjectNotFoundError';
  }
}

/** A bucket name or object key that could escape its place or that S3 would refuse. */
export class InvalidObjectKeyError extends AppError {
  constructor(message: string) {
    super(400, 'INVALID_OBJECT_KEY', message);
    this.name = 'InvalidObjectKeyError';
  }
}

/** Writing to a bucket that `ensureBucket` never created: a programming error, hence not an AppError. */
export class BucketNotFoundError extends Error {
  constructor(bucket: string) {
    super(`Bucket "${bucket}" does not exist; call ensureBucket first`);
    this.name = 'BucketNotFoundError';
  }
}

// S3's rules for bucket names (lower case, digits, dots, hyphens; 3–63 characters), which also
// keep a name a single safe path segment for the fs driver.
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export function assertValidBucket(bucket: string): void {
  if (!BUCKET_NAME.test(bucket) || bucket.includes('..')) {
    throw new InvalidObjectKeyError(`Invalid bucket name: ${JSON.stringify(bucket)}`);
  }
}

/**
 * Keys are '/'-separated relative paths. Anything that a file system could read as leaving the
 * bucket ('..', '.', absolute paths, backslashes, NUL) or that S3 would treat differently
 * (empty segments, over 1024 bytes) is refused for both drivers alike.
 */
export function assertValidKey(key: string): void {
  const problem =
    key.length === 0
      ? 'is empty'
      : Buffer.byteLength(key, 'utf8') > 1024
        ? 'is longer than 1024 bytes'
        : key.includes('\0')
          ? 'contains a NUL character'
          : key.includes('\\')
            ? 'contains a backslash'
            : key.startsWith('/')
              ? 'is an absolute path'
              : key.split('/').some((segment) => segment === '..' || segment === '.')
                ? "contains a '.' or '..' segment"
                : key.split('/').some((segment) => segment === '')
                  ? 'contains an empty path segment'
                  : undefined;
  if (problem)
    throw new InvalidObjectKeyError(`Invalid object key ${JSON.stringify(key)}: ${problem}`);
}

export function assertValidExpiry(expiresInSeconds: number): void {
  if (
    !Number.isInteger(expiresInSeconds) ||
    expiresInSeconds < 1 ||
    expiresInSeconds > MAX_SIGNED_URL_SECONDS
  ) {
    throw new RangeError(
      `expiresInSeconds must be a whole number from 1 to ${MAX_SIGNED_URL_SECONDS}`,
    );
  }
}

export function normalizeLimit(limit: number | undefined): number {
  if (limit === undefined) return MAX_LIST_LIMIT;
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError('limit must be a positive integer');
  return Math.min(limit, MAX_LIST_LIMIT);
}

/** The last segment of a key, the download name when none is given. */
export function baseName(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}

/**
 * `attachment` with an ASCII fallback and the exact UTF-8 name (RFC 6266 / RFC 5987), so a
 * name with quotes, line breaks or non-ASCII characters can neither break nor inject headers.
 */
export function attachmentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_') || 'download';
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
