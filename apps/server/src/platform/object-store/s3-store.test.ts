import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { ListBucketsCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectStoreContract } from '../../test/object-store-contract.js';
import { S3RVER_CREDENTIALS, type S3rver, startS3rver } from '../../test/s3rver.js';
import { createObjectStore } from './index.js';
import type { S3ObjectStore } from './s3-store.js';
import { InvalidObjectKeyError, ObjectNotFoundError } from './types.js';

const BUCKET = 'study-3-data';
const PREFIX = 'test-';
const credentials = S3RVER_CREDENTIALS;
const MiB = 1024 * 1024;

let server: S3rver | undefined;
let endpoint: string;
let store: S3ObjectStore;

beforeAll(async () => {
  server = await startS3rver();
  endpoint = server.endpoint;
  store = createObjectStore({
    driver: 's3',
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    bucketPrefix: PREFIX,
    partSizeBytes: 5 * MiB,
    ...credentials,
  });
});

afterAll(async () => {
  store?.close();
  await server?.stop();
});

describe('createS3ObjectStore against an S3-compatible server (s3rver)', () => {
  it('creates a missing bucket once, under the configured prefix', async () => {
    await store.ensureBucket(BUCKET);
    await store.ensureBucket(BUCKET);
    const raw = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
    const { Buckets } = await raw.send(new ListBucketsCommand({}));
    raw.destroy();
    expect(Buckets?.map((bucket) => bucket.Name)).toContain(`${PREFIX}${BUCKET}`);
  });

  it('puts and gets buffers, strings and streams with their content type', async () => {
    await store.ensureBucket(BUCKET);
    await store.putObject(BUCKET, 'raw/steps.json', Buffer.from('{"steps":1}'), {
      contentType: 'application/json',
    });
    await store.putObject(BUCKET, 'tidy/steps 1.csv', 'date,steps\n', { contentType: 'text/csv' });
    await store.putObject(BUCKET, 'small-stream.txt', Readable.from(['a', 'b', 'c']));

    const json = await store.getObject(BUCKET, 'raw/steps.json');
    expect(json.contentType).toBe('application/json');
    expect(json.size).toBe(11);
    expect(await text(json.body)).toBe('{"steps":1}');

    const csv = await store.getObject(BUCKET, 'tidy/steps 1.csv');
    expect(csv.contentType).toBe('text/csv');
    expect(await text(csv.body)).toBe('date,steps\n');

    const small = await store.getObject(BUCKET, 'small-stream.txt');
    expect(small.contentType).toBe('application/octet-stream');
    expect(await text(small.body)).toBe('abc');
  });

  it('uploads a long stream in parts and reads back the same bytes', async () => {
    await store.ensureBucket(BUCKET);
    const data = randomBytes(11 * MiB + 123);
    // Odd chunk sizes so part boundaries fall inside chunks.
    const chunks = Array.from({ length: Math.ceil(data.length / 700_001) }, (_, i) =>
      data.subarray(i * 700_001, (i + 1) * 700_001),
    );
    await store.putObject(BUCKET, 'exports/big.bin', Readable.from(chunks), {
      contentType: 'application/zip',
    });
    const object = await store.getObject(BUCKET, 'exports/big.bin');
    expect(object.size).toBe(data.length);
    expect(object.contentType).toBe('application/zip');
    const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
    expect(digest(await buffer(object.body))).toBe(digest(data));
  });

  // Each listing starts from a bucket of its own: the other tests share BUCKET.
  let listed = 3;
  objectStoreContract(
    () => store,
    async () => {
      const bucket = `study-${++listed}-data`;
      await store.ensureBucket(bucket);
      return bucket;
    },
  );

  it('deletes idempotently and reports a missing object or bucket as not found', async () => {
    await store.ensureBucket(BUCKET);
    await store.putObject(BUCKET, 'tmp/delete-me.txt', 'x');
    await store.deleteObject(BUCKET, 'tmp/delete-me.txt');
    await store.deleteObject(BUCKET, 'tmp/delete-me.txt');
    await expect(store.getObject(BUCKET, 'tmp/delete-me.txt')).rejects.toBeInstanceOf(
      ObjectNotFoundError,
    );
    await expect(store.getObject('no-such-bucket', 'x')).rejects.toBeInstanceOf(
      ObjectNotFoundError,
    );
  });

  it('presigns a GET URL that downloads the bytes as an attachment', async () => {
    await store.ensureBucket(BUCKET);
    await store.putObject(BUCKET, 'exports/run 1/steps.csv', 'date,steps\n2026-11-01,8042\n', {
      contentType: 'text/csv',
    });
    const url = await store.signedDownloadUrl(BUCKET, 'exports/run 1/steps.csv', {
      expiresInSeconds: 300,
      filename: 'P0001-steps.csv',
    });
    expect(url).toContain('X-Amz-Signature=');
    expect(url).toContain('X-Amz-Expires=300');
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('date,steps\n2026-11-01,8042\n');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="P0001-steps.csv"; filename*=UTF-8''P0001-steps.csv`,
    );
  });

  it('rejects keys that are unsafe for any driver', async () => {
    for (const key of ['../x', '/abs', 'a//b', 'a\0b', '']) {
      await expect(store.putObject(BUCKET, key, 'x'), key).rejects.toBeInstanceOf(
        InvalidObjectKeyError,
      );
    }
    await expect(
      store.signedDownloadUrl(BUCKET, 'a.csv', { expiresInSeconds: 8 * 24 * 3600 }),
    ).rejects.toThrow(RangeError);
  });
});
