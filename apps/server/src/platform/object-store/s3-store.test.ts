import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { ListBucketsCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectStoreContract } from '../../test/object-store-contract.js';
import { createObjectStore } from './index.js';
import type { S3ObjectStore } from './s3-store.js';
import { InvalidObjectKeyError, ObjectNotFoundError } from './types.js';

/**
 * Runs s3rver (an S3-compatible server from npm) in a child process. It needs
 * --openssl-legacy-provider because it builds ListObjectsV2 continuation tokens with DES,
 * which OpenSSL 3 only offers through the legacy provider (without it a truncated listing
 * fails with a 500).
 */
async function startS3rver(directory: string): Promise<{ child: ChildProcess; port: number }> {
  const script = `
    const S3rver = require(process.argv[1]);
    new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: process.argv[2] })
      .run()
      .then(({ port }) => console.log(JSON.stringify({ port })));
  `;
  const child = spawn(
    process.execPath,
    [
      '--openssl-legacy-provider',
      '-e',
      script,
      createRequire(import.meta.url).resolve('s3rver'),
      directory,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [line] = (await Promise.race([
    once(child.stdout as Readable, 'data'),
    once(child, 'exit').then(() => {
      throw new Error('s3rver exited before listening');
    }),
  ])) as [Buffer];
  const { port } = JSON.parse(line.toString('utf8')) as { port: number };
  return { child, port };
}

const BUCKET = 'study-3-data';
const PREFIX = 'test-';
// s3rver accepts these fixed credentials.
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const MiB = 1024 * 1024;

let directory: string;
let server: ChildProcess | undefined;
let endpoint: string;
let store: S3ObjectStore;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const started = await startS3rver(directory);
  server = started.child;
  const port = started.port;
  endpoint = `http://127.0.0.1:${port}`;
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
  if (server && server.exitCode === null) {
    server.kill();
    await once(server, 'exit');
  }
  await rm(directory, { recursive: true, force: true });
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
