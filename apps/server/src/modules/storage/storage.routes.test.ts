import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../errors.js';
import { createFsObjectStore, type FsObjectStore } from '../../platform/object-store/fs-store.js';
import { createS3ObjectStore } from '../../platform/object-store/s3-store.js';
import { storageRoutes } from './storage.routes.js';

const BUCKET = 'study-7-data';
const PUBLIC_URL = 'http://research.test';

let root: string;
let store: FsObjectStore;
let app: FastifyInstance;

/** The path and query the browser would request for a signed URL. */
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'storage-routes-test-'));
  store = createFsObjectStore({ root, publicUrl: PUBLIC_URL, signingKey: randomBytes(32) });
  await store.ensureBucket(BUCKET);
  await store.putObject(BUCKET, 'exports/run-1/steps.csv', 'date,steps\n2026-11-01,8042\n', {
    contentType: 'text/csv',
  });
  await store.putObject(BUCKET, 'exports/run 1/Schlaf ü.json', '{"sleep":[]}', {
    contentType: 'application/json',
  });
  await store.putObject(BUCKET, 'page.html', '<script>alert(1)</script>', {
    contentType: 'text/html',
  });

  // The app's compilers and the envelope its error handler writes for an AppError.
  app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send({
        success: false,
        error: error.message,
        message: error.message,
        code: error.code,
      });
    }
    return reply.status(500).send({ success: false, code: 'INTERNAL_ERROR' });
  });
  await app.register(storageRoutes, { store });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await rm(root, { recursive: true, force: true });
});

const invalidLink = {
  success: false,
  error: 'This download link is invalid or has expired.',
  message: 'This download link is invalid or has expired.',
  code: 'SIGNED_URL_INVALID',
};

describe('GET /api/storage/objects/:bucket/*', () => {
  it('streams the object with download headers', async () => {
    const url = await store.signedDownloadUrl(BUCKET, 'exports/run-1/steps.csv', {
      expiresInSeconds: 60,
    });
    const response = await app.inject({ method: 'GET', url: pathOf(url) });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('date,steps\n2026-11-01,8042\n');
    expect(response.headers['content-type']).toBe('text/csv');
    expect(response.headers['content-length']).toBe('27');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="steps.csv"; filename*=UTF-8''steps.csv`,
    );
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
  });

  it('uses the signed filename, and handles spaces and non-ASCII in keys and names', async () => {
    const url = await store.signedDownloadUrl(BUCKET, 'exports/run 1/Schlaf ü.json', {
      expiresInSeconds: 60,
      filename: 'P0001 "sleep" ü.json',
    });
    const response = await app.inject({ method: 'GET', url: pathOf(url) });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('{"sleep":[]}');
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="P0001 _sleep_ _.json"; filename*=UTF-8''P0001%20%22sleep%22%20%C3%BC.json`,
    );

    const byKeyName = await app.inject({
      method: 'GET',
      url: pathOf(
        await store.signedDownloadUrl(BUCKET, 'exports/run 1/Schlaf ü.json', {
          expiresInSeconds: 60,
        }),
      ),
    });
    expect(byKeyName.headers['content-disposition']).toBe(
      `attachment; filename="Schlaf _.json"; filename*=UTF-8''Schlaf%20%C3%BC.json`,
    );
  });

  it('serves stored HTML as a download, never as a page', async () => {
    const url = await store.signedDownloadUrl(BUCKET, 'page.html', { expiresInSeconds: 60 });
    const response = await app.inject({ method: 'GET', url: pathOf(url) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(/^attachment;/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers 403 once the link has expired', async () => {
    const url = await store.signedDownloadUrl(BUCKET, 'exports/run-1/steps.csv', {
      expiresInSeconds: 60,
    });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      const response = await app.inject({ method: 'GET', url: pathOf(url) });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(invalidLink);
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers 403 to a tampered or incomplete link', async () => {
    const url = new URL(
      await store.signedDownloadUrl(BUCKET, 'exports/run-1/steps.csv', {
        expiresInSeconds: 60,
      }),
    );
    const expires = url.searchParams.get('expires') ?? '';
    const signature = url.searchParams.get('signature') ?? '';
    const base = `/api/storage/objects/${BUCKET}`;
    const attempts = [
      `${base}/page.html?expires=${expires}&signature=${signature}`,
      `${base}/exports/run-1/steps.csv?expires=${Number(expires) + 600}&signature=${signature}`,
      `${base}/exports/run-1/steps.csv?expires=${expires}&signature=${signature}&filename=x.html`,
      `${base}/exports/run-1/steps.csv?expires=${expires}&signature=${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`,
      `${base}/exports/run-1/steps.csv?expires=${expires}`,
      `${base}/exports/run-1/steps.csv`,
      `/api/storage/objects/study-8-data/exports/run-1/steps.csv?expires=${expires}&signature=${signature}`,
    ];
    for (const attempt of attempts) {
      const response = await app.inject({ method: 'GET', url: attempt });
      expect(response.statusCode, attempt).toBe(403);
      expect(response.json(), attempt).toEqual(invalidLink);
    }
  });

  it('checks the signature before revealing whether an object exists', async () => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/storage/objects/${BUCKET}/does-not-exist.csv?expires=9999999999&signature=x`,
    });
    expect(response.statusCode).toBe(403);
  });

  it('answers 404 to a valid link whose object is gone', async () => {
    await store.putObject(BUCKET, 'gone.csv', 'x');
    const url = await store.signedDownloadUrl(BUCKET, 'gone.csv', { expiresInSeconds: 60 });
    await store.deleteObject(BUCKET, 'gone.csv');
    const response = await app.inject({ method: 'GET', url: pathOf(url) });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ success: false, code: 'OBJECT_NOT_FOUND' });
  });

  it('refuses to serve a store that cannot verify its own links', async () => {
    const bare = Fastify();
    const s3 = createS3ObjectStore({
      region: 'us-east-1',
      accessKeyId: 'x',
      secretAccessKey: 'y',
    });
    await expect(bare.register(storageRoutes, { store: s3 }).ready()).rejects.toThrow(
      /fs object store only/,
    );
    s3.close();
    await bare.close();
  });
});
