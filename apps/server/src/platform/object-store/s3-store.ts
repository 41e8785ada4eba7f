import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  assertValidBucket,
  assertValidExpiry,
  assertValidKey,
  attachmentDisposition,
  baseName,
  DEFAULT_CONTENT_TYPE,
  normalizeLimit,
  ObjectNotFoundError,
  type ObjectPage,
  type ObjectStore,
} from './types.js';

export interface S3ObjectStoreOptions {
  /** For S3-compatible services (MinIO, R2, GCS interop); AWS when absent. */
  endpoint?: string | undefined;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `https://host/bucket/key` instead of `https://bucket.host/key`; MinIO usually needs it. */
  forcePathStyle?: boolean | undefined;
  /** Prepended to every bucket name, since S3 bucket names are global across accounts. */
  bucketPrefix?: string | undefined;
  /** Streams larger than this are sent as a multipart upload in parts of this size (≥ 5 MiB). */
  partSizeBytes?: number | undefined;
}

export interface S3ObjectStore extends ObjectStore {
  readonly driver: 's3';
}

const MIN_PART_SIZE = 5 * 1024 * 1024;
const DEFAULT_PART_SIZE = 8 * 1024 * 1024;

function statusOf(error: unknown): number | undefined {
  return error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
}

function isNotFound(error: unknown): boolean {
  return (
    statusOf(error) === 404 ||
    (error instanceof Error && ['NoSuchKey', 'NoSuchBucket', 'NotFound'].includes(error.name))
  );
}

/** Reads a stream in fixed-size parts without holding more than one part in memory. */
async function* parts(stream: NodeJS.ReadableStream, partSize: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const chunk of Readable.from(stream)) {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    while (pendingBytes + data.length >= partSize) {
      const take = partSize - pendingBytes;
      pending.push(data.subarray(0, take));
      yield Buffer.concat(pending);
      pending = [];
      pendingBytes = 0;
      data = data.subarray(take);
    }
    if (data.length > 0) {
      pending.push(data);
      pendingBytes += data.length;
    }
  }
  yield Buffer.concat(pending);
}

export function createS3ObjectStore(options: S3ObjectStoreOptions): S3ObjectStore {
  const partSize = options.partSizeBytes ?? DEFAULT_PART_SIZE;
  if (partSize < MIN_PART_SIZE) throw new RangeError('partSizeBytes must be at least 5 MiB');
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint !== undefined && { endpoint: options.endpoint }),
    forcePathStyle: options.forcePathStyle ?? false,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    // The SDK's default trailing CRC checksums (aws-chunked uploads) are not understood by many
    // S3-compatible services; send checksums only where an operation requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

  const name = (bucket: string) => {
    assertValidBucket(bucket);
    return `${options.bucketPrefix ?? ''}${bucket}`;
  };

  async function putMultipart(
    Bucket: string,
    Key: string,
    stream: NodeJS.ReadableStream,
    ContentType: string,
  ): Promise<void> {
    const source = parts(stream, partSize);
    const first = await source.next();
    const firstPart = first.done ? Buffer.alloc(0) : first.value;
    if (firstPart.length < partSize) {
      // The whole stream fitted into one part: a plain PUT is one request instead of three.
      await client.send(new PutObjectCommand({ Bucket, Key, Body: firstPart, ContentType }));
      return;
    }
    const { UploadId } = await client.send(
      new CreateMultipartUploadCommand({ Bucket, Key, ContentType }),
    );
    try {
      const uploaded: { PartNumber: number; ETag: string }[] = [];
      let body: Buffer | undefined = firstPart;
      while (body !== undefined) {
        const PartNumber = uploaded.length + 1;
        const { ETag } = await client.send(
          new UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body: body }),
        );
        uploaded.push({ PartNumber, ETag: ETag ?? '' });
        const next = await source.next();
        // A zero-length final part is refused by S3; the previous part was then the last.
        body = next.done || next.value.length === 0 ? undefined : next.value;
      }
      await client.send(
        new CompleteMultipartUploadCommand({
          Bucket,
          Key,
          UploadId,
          MultipartUpload: { Parts: uploaded },
        }),
      );
    } catch (error) {
      // Abandoned parts are billed until aborted.
      await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => {});
      throw error;
    }
  }

  return {
    driver: 's3',

    async ensureBucket(bucket) {
      const Bucket = name(bucket);
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
        return;
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
      try {
        await client.send(new CreateBucketCommand({ Bucket }));
      } catch (error) {
        // Another instance created it between our HEAD and CREATE.
        if (error instanceof Error && error.name === 'BucketAlreadyOwnedByYou') return;
        throw error;
      }
    },

    async putObject(bucket, key, body, opts) {
      assertValidKey(key);
      const Bucket = name(bucket);
      const ContentType = opts?.contentType ?? DEFAULT_CONTENT_TYPE;
      if (typeof body === 'string' || Buffer.isBuffer(body)) {
        await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType }));
      } else {
        // A plain PUT of a stream needs its length up front, which a stream does not know.
        await putMultipart(Bucket, key, body, ContentType);
      }
    },

    async getObject(bucket, key) {
      assertValidKey(key);
      try {
        const result = await client.send(new GetObjectCommand({ Bucket: name(bucket), Key: key }));
        if (!(result.Body instanceof Readable)) {
          throw new Error('The S3 client returned a body that is not a Node.js stream');
        }
        return {
          body: result.Body,
          contentType: result.ContentType ?? DEFAULT_CONTENT_TYPE,
          size: result.ContentLength ?? 0,
        };
      } catch (error) {
        if (isNotFound(error)) throw new ObjectNotFoundError(bucket, key);
        throw error;
      }
    },

    async listObjects(bucket, opts = {}) {
      const result = await client.send(
        new ListObjectsV2Command({
          Bucket: name(bucket),
          MaxKeys: normalizeLimit(opts.limit),
          ...(opts.prefix && { Prefix: opts.prefix }),
          // The cursor is the last key of the previous page (StartAfter) rather than S3's
          // continuation token: the same cursor then works with the fs driver and with S3
          // look-alikes whose continuation tokens are unreliable.
          ...(opts.cursor && { StartAfter: opts.cursor }),
        }),
      );
      const objects = (result.Contents ?? []).flatMap((item) =>
        item.Key === undefined
          ? []
          : [
              {
                key: item.Key,
                size: item.Size ?? 0,
                lastModified: item.LastModified ?? new Date(0),
              },
            ],
      );
      const page: ObjectPage = { objects };
      const last = objects.at(-1);
      if (result.IsTruncated && last) page.nextCursor = last.key;
      return page;
    },

    async deleteObject(bucket, key) {
      assertValidKey(key);
      await client.send(new DeleteObjectCommand({ Bucket: name(bucket), Key: key }));
    },

    async signedDownloadUrl(bucket, key, opts) {
      assertValidKey(key);
      assertValidExpiry(opts.expiresInSeconds);
      const command = new GetObjectCommand({
        Bucket: name(bucket),
        Key: key,
        ResponseContentDisposition: attachmentDisposition(opts.filename ?? baseName(key)),
      });
      return getSignedUrl(client, command, { expiresIn: opts.expiresInSeconds });
    },

    close() {
      client.destroy();
    },
  };
}
