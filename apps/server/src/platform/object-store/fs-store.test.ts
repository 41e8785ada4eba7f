import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { objectStoreContract } from '../../test/object-store-contract.js';
import { createFsObjectStore, type FsObjectStore } from './fs-store.js';
import { createObjectStore } from './index.js';
import { BucketNotFoundError, InvalidObjectKeyError, ObjectNotFoundError } from './types.js';

const BUCKET = 'study-1-data';
const PUBLIC_URL = 'https://research.test';

let root: string;
let store: FsObjectStore;
const signingKey = randomBytes(32);

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'fs-store-test-'));
  store = createFsObjectStore({ root, publicUrl: `${PUBLIC_URL}/`, signingKey });
  await store.ensureBucket(BUCKET);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function read(bucket: string, key: string) {
  const object = await store.getObject(bucket, key);
  return { ...object, text: await text(object.body) };
}

/** Splits a signed URL into what the download route receives. */
function parseSigned(url: string) {
  const parsed = new URL(url);
  const prefix = '/api/storage/objects/';
  expect(parsed.pathname.startsWith(prefix)).toBe(true);
  const [bucket = '', ...rest] = parsed.pathname.slice(prefix.length).split('/');
  return {
    bucket,
    key: rest.map(decodeURIComponent).join('/'),
    expires: parsed.searchParams.get('expires') ?? undefined,
    signature: parsed.searchParams.get('signature') ?? undefined,
    filename: parsed.searchParams.get('filename') ?? undefined,
  };
}

describe('createFsObjectStore', () => {
  it('stores buffers, strings and streams with their content type', async () => {
    await store.putObject(BUCKET, 'raw/steps.json', Buffer.from('{"steps":1}'), {
      contentType: 'application/json',
    });
    await store.putObject(BUCKET, 'tidy/steps.csv', 'date,steps\n2026-11-01,1\n', {
      contentType: 'text/csv',
    });
    await store.putObject(BUCKET, 'big.bin', Readable.from([Buffer.alloc(70_000, 7), 'end']));

    expect(await read(BUCKET, 'raw/steps.json')).toMatchObject({
      contentType: 'application/json',
      size: 11,
      text: '{"steps":1}',
    });
    expect(await read(BUCKET, 'tidy/steps.csv')).toMatchObject({
      contentType: 'text/csv',
      text: 'date,steps\n2026-11-01,1\n',
    });
    const big = await read(BUCKET, 'big.bin');
    expect(big.contentType).toBe('application/octet-stream');
    expect(big.size).toBe(70_003);
    expect(big.text.endsWith('end')).toBe(true);

    // Buckets are plain folders; nothing but the objects lands inside them.
    expect((await readdir(join(root, BUCKET))).sort()).toEqual(['big.bin', 'raw', 'tidy']);
  });

  it('replaces an object and its content type atomically, leaving no temp files', async () => {
    await store.putObject(BUCKET, 'a.txt', 'first', { contentType: 'text/plain' });
    await store.putObject(BUCKET, 'a.txt', '{"second":true}', { contentType: 'application/json' });
    expect(await read(BUCKET, 'a.txt')).toMatchObject({
      text: '{"second":true}',
      contentType: 'application/json',
    });
    expect(await readdir(join(root, '.tmp'))).toEqual([]);
  });

  it('writes small bodies and bodies over 1 MB alike, in new folders and old, after its temp folder went', async () => {
    const large = randomBytes(1024 * 1024 + 1);
    await store.putObject(BUCKET, 'd/v=1/raw/0000-steps.json', '{"a":1}');
    await store.putObject(BUCKET, 'd/v=1/rows.parquet', large);
    // Removed under a running store (an operator cleaning up): the next put makes it again.
    await rm(join(root, '.tmp'), { recursive: true });
    await store.putObject(BUCKET, 'd/v=1/raw/0001-steps.json', '{"a":2}');
    expect((await read(BUCKET, 'd/v=1/raw/0000-steps.json')).text).toBe('{"a":1}');
    expect((await read(BUCKET, 'd/v=1/raw/0001-steps.json')).text).toBe('{"a":2}');
    const object = await store.getObject(BUCKET, 'd/v=1/rows.parquet');
    const chunks: Buffer[] = [];
    for await (const chunk of object.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(large)).toBe(true);
    expect(await readdir(join(root, '.tmp'))).toEqual([]);
    // A bucket removed meanwhile is not made again, by a put into a folder the store knew or not.
    await rm(join(root, BUCKET), { recursive: true });
    for (const key of ['d/v=1/raw/0002-steps.json', 'd/v=2/rows.parquet']) {
      await expect(store.putObject(BUCKET, key, 'x')).rejects.toBeInstanceOf(BucketNotFoundError);
    }
    expect(await readdir(root)).not.toContain(BUCKET);
  });

  it('keeps no metadata file for a type the name implies, and no stale one when it changes', async () => {
    const metaOf = (key: string) => join(root, '.meta', BUCKET, ...key.split('/'));
    const exists = (file: string) =>
      stat(file).then(
        () => true,
        () => false,
      );
    await store.putObject(BUCKET, 'd/rows.parquet', 'PAR1', {
      contentType: 'application/vnd.apache.parquet',
    });
    await store.putObject(BUCKET, 'd/page.json', '{}', { contentType: 'application/json' });
    expect(await exists(metaOf('d/rows.parquet'))).toBe(false);
    expect(await exists(metaOf('d/page.json'))).toBe(false);
    expect((await read(BUCKET, 'd/rows.parquet')).contentType).toBe(
      'application/vnd.apache.parquet',
    );
    expect((await read(BUCKET, 'd/page.json')).contentType).toBe('application/json');

    // A .json object put without a type is octet-stream, as ever: that needs the metadata file.
    await store.putObject(BUCKET, 'd/page.json', '{"a":1}');
    expect(await exists(metaOf('d/page.json'))).toBe(true);
    expect((await read(BUCKET, 'd/page.json')).contentType).toBe('application/octet-stream');
    // Put again with the implied type: the old metadata file goes with its folder.
    await store.putObject(BUCKET, 'd/page.json', '{"a":2}', { contentType: 'application/json' });
    expect(await read(BUCKET, 'd/page.json')).toMatchObject({
      contentType: 'application/json',
      text: '{"a":2}',
    });
    expect(await exists(metaOf('d/page.json'))).toBe(false);

    await store.deleteObject(BUCKET, 'd/page.json');
    await store.deleteObject(BUCKET, 'd/rows.parquet');
    expect(await exists(join(root, '.meta', BUCKET, 'd'))).toBe(false);
    expect(await readdir(join(root, BUCKET))).toEqual([]);
  });

  it('cleans up the temp file when a stream fails', async () => {
    const failing = new Readable({
      read() {
        this.push('partial');
        this.destroy(new Error('source broke'));
      },
    });
    await expect(store.putObject(BUCKET, 'broken.txt', failing)).rejects.toThrow('source broke');
    await expect(store.getObject(BUCKET, 'broken.txt')).rejects.toBeInstanceOf(ObjectNotFoundError);
    expect(await readdir(join(root, '.tmp'))).toEqual([]);
  });

  it('requires the bucket to exist, as S3 does', async () => {
    await expect(store.putObject('other-bucket', 'a.txt', 'x')).rejects.toBeInstanceOf(
      BucketNotFoundError,
    );
    await expect(store.listObjects('other-bucket')).rejects.toBeInstanceOf(BucketNotFoundError);
    await expect(store.getObject('other-bucket', 'a.txt')).rejects.toBeInstanceOf(
      ObjectNotFoundError,
    );
    await store.ensureBucket('other-bucket');
    await store.ensureBucket('other-bucket');
    await store.putObject('other-bucket', 'a.txt', 'x');
  });

  it('answers a missing object with a 404 AppError', async () => {
    const error = await store.getObject(BUCKET, 'nope.txt').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ObjectNotFoundError);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ statusCode: 404, code: 'OBJECT_NOT_FOUND' });
    await store.putObject(BUCKET, 'folder/file.txt', 'x');
    await expect(store.getObject(BUCKET, 'folder')).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  objectStoreContract(
    () => store,
    async () => BUCKET,
  );

  it('deletes objects idempotently and prunes emptied folders', async () => {
    await store.putObject(BUCKET, 'deep/er/file.txt', 'x', { contentType: 'text/plain' });
    await store.putObject(BUCKET, 'keep.txt', 'y');
    await store.deleteObject(BUCKET, 'deep/er/file.txt');
    await store.deleteObject(BUCKET, 'deep/er/file.txt');
    await store.deleteObject(BUCKET, 'never-existed.txt');
    await expect(store.getObject(BUCKET, 'deep/er/file.txt')).rejects.toBeInstanceOf(
      ObjectNotFoundError,
    );
    expect(await readdir(join(root, BUCKET))).toEqual(['keep.txt']);
    expect((await store.listObjects(BUCKET)).objects.map((o) => o.key)).toEqual(['keep.txt']);
    // A later object at the same key does not inherit the old content type.
    await store.putObject(BUCKET, 'deep/er/file.txt', 'z');
    expect((await store.getObject(BUCKET, 'deep/er/file.txt')).contentType).toBe(
      'application/octet-stream',
    );
  });

  it('rejects keys and bucket names that could leave the bucket', async () => {
    // Something worth stealing next to the bucket.
    await writeFile(join(root, 'secret.txt'), 'secret');
    await store.ensureBucket('other-study');
    await store.putObject('other-study', 'data.csv', 'other study data');

    const badKeys = [
      '../secret.txt',
      '../other-study/data.csv',
      'a/../../secret.txt',
      'a/./b',
      '..',
      '.',
      '/etc/passwd',
      `${root}/secret.txt`,
      'a\0b',
      'a\\..\\b',
      'a//b',
      '',
      'x'.repeat(1025),
    ];
    for (const key of badKeys) {
      await expect(store.putObject(BUCKET, key, 'x'), key).rejects.toBeInstanceOf(
        InvalidObjectKeyError,
      );
      await expect(store.getObject(BUCKET, key), key).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(store.deleteObject(BUCKET, key), key).rejects.toBeInstanceOf(
        InvalidObjectKeyError,
      );
      await expect(
        store.signedDownloadUrl(BUCKET, key, { expiresInSeconds: 60 }),
        key,
      ).rejects.toBeInstanceOf(InvalidObjectKeyError);
    }
    for (const bucket of ['..', '.meta', '.tmp', '../x', 'a/b', 'UPPER', 'ab', '/abs', 'a\0bc']) {
      await expect(store.ensureBucket(bucket), bucket).rejects.toBeInstanceOf(
        InvalidObjectKeyError,
      );
      await expect(store.getObject(bucket, 'secret.txt'), bucket).rejects.toBeInstanceOf(
        InvalidObjectKeyError,
      );
    }
    await expect(store.listObjects(BUCKET, { prefix: '../' })).rejects.toBeInstanceOf(
      InvalidObjectKeyError,
    );
    // Nothing was written or removed outside the bucket.
    expect((await stat(join(root, 'secret.txt'))).size).toBe(6);
    expect(await read('other-study', 'data.csv')).toMatchObject({ text: 'other study data' });
  });

  it('reports a key that a file system cannot hold next to another as a conflict', async () => {
    await store.putObject(BUCKET, 'a', 'file');
    const error = await store.putObject(BUCKET, 'a/b', 'nested').catch((err: unknown) => err);
    expect(error).toMatchObject({ statusCode: 409, code: 'OBJECT_KEY_CONFLICT' });
    expect(await readdir(join(root, '.tmp'))).toEqual([]);
  });
});

describe('signed download URLs', () => {
  it('signs a URL on the public origin that verifies', async () => {
    const key = 'exports/run 1/steps ü%.csv';
    const url = await store.signedDownloadUrl(BUCKET, key, {
      expiresInSeconds: 300,
      filename: 'steps.csv',
    });
    expect(url).toMatch(
      /^https:\/\/research\.test\/api\/storage\/objects\/study-1-data\/exports\/run%201\/steps%20%C3%BC%25\.csv\?expires=\d+&filename=steps\.csv&signature=[\w-]+$/,
    );
    const signed = parseSigned(url);
    expect(signed.key).toBe(key);
    const expires = Number(signed.expires);
    expect(expires).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) + 299);
    expect(store.verifySignature(signed)).toBe(true);
  });

  it('refuses an expired link', async () => {
    const signed = parseSigned(
      await store.signedDownloadUrl(BUCKET, 'a.csv', { expiresInSeconds: 60 }),
    );
    const expires = Number(signed.expires);
    expect(store.verifySignature(signed, new Date((expires - 1) * 1000))).toBe(true);
    expect(store.verifySignature(signed, new Date(expires * 1000))).toBe(false);
    expect(store.verifySignature(signed, new Date((expires + 3600) * 1000))).toBe(false);
  });

  it('refuses a link with any part changed', async () => {
    const signed = parseSigned(
      await store.signedDownloadUrl(BUCKET, 'a.csv', { expiresInSeconds: 60, filename: 'a.csv' }),
    );
    const tampered = [
      { ...signed, key: 'b.csv' },
      { ...signed, bucket: 'study-2-data' },
      { ...signed, expires: String(Number(signed.expires) + 3600) },
      { ...signed, filename: 'evil.html' },
      { ...signed, filename: undefined },
      { ...signed, signature: `${signed.signature}x` },
      { ...signed, signature: undefined },
      { ...signed, expires: undefined },
      { ...signed, expires: '1e12' },
    ];
    for (const download of tampered) expect(store.verifySignature(download)).toBe(false);

    const otherKeyStore = createFsObjectStore({
      root,
      publicUrl: PUBLIC_URL,
      signingKey: randomBytes(32),
    });
    expect(otherKeyStore.verifySignature(signed)).toBe(false);
  });

  it('bounds the lifetime of a link like S3 does', async () => {
    for (const expiresInSeconds of [0, -1, 1.5, 7 * 24 * 3600 + 1]) {
      await expect(store.signedDownloadUrl(BUCKET, 'a.csv', { expiresInSeconds })).rejects.toThrow(
        RangeError,
      );
    }
  });

  it('needs a signing key of at least 32 bytes', () => {
    expect(() =>
      createFsObjectStore({ root, publicUrl: PUBLIC_URL, signingKey: randomBytes(16) }),
    ).toThrow(/at least 32 bytes/);
  });
});

describe('createObjectStore', () => {
  it('builds the fs driver from options', async () => {
    const fsStore = createObjectStore({ driver: 'fs', root, publicUrl: PUBLIC_URL, signingKey });
    expect(fsStore.driver).toBe('fs');
    await fsStore.putObject(BUCKET, 'x.txt', 'via index');
    expect(await read(BUCKET, 'x.txt')).toMatchObject({ text: 'via index' });
  });
});
