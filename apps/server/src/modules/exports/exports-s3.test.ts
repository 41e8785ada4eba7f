import { createHash } from 'node:crypto';
import type { DataType } from '@research/contracts';
import { parquetMetadata } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/auth-helpers.js';
import { useExtractionKit } from '../../test/extraction-kit.js';
import { S3RVER_CREDENTIALS, type S3rver, startS3rver } from '../../test/s3rver.js';
import { eventually } from '../../test/test-app.js';
import { unzip } from '../../test/zip.js';

/**
 * An export where the study bucket is S3 (s3rver, an S3-compatible server), as in production:
 * the partitions are collected into S3, the build copies each one it reads to a local folder for
 * DuckDB, reads the sleep stages from the raw pages in S3, and streams its tables back up.
 */

let s3: S3rver | undefined;
// Registered before the kit's own beforeAll, which reads `env` when it starts the app.
beforeAll(async () => {
  s3 = await startS3rver();
});
afterAll(() => s3?.stop());

const kit = useExtractionKit({
  get env() {
    return {
      EXTRACTION_PER_USER_PER_MINUTE: '100000',
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: s3?.endpoint ?? '',
      S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    };
  },
});

const TYPES: DataType[] = ['activity_summary', 'heartrate_intraday_1sec', 'sleep_log'];
const account = 'exports.s3@gmail.test';
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const arrayBuffer = (b: Buffer) =>
  b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer;

describe('an export from a study bucket in S3', () => {
  let zip: Map<string, Buffer>;
  let exportId = '';
  let participantId = '';

  beforeAll(async () => {
    kit.sandbox.health.setControls({ perUserPerMinute: 100_000 });
    participantId = (await kit.connected(account)).id;
    kit.sandbox.health.sync(account, Date.now());
    const url = `/api/studies/${kit.world.study.id}/exports`;
    const headers = bearer(kit.world.owner.token);
    const res = await kit.call({
      method: 'POST',
      url,
      headers,
      payload: {
        name: 'On S3',
        participantIds: [participantId],
        dataTypes: TYPES,
        dateRange: { startDate: '2026-11-03', endDate: '2026-11-04', mode: 'range' },
        formats: ['parquet', 'csv'],
        minuteGrid: false,
        includeRaw: true,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    exportId = (res.json() as { export: { id: string } }).export.id;
    const done = await eventually(async () => {
      const one = await kit.call({ method: 'GET', url: `${url}/${exportId}`, headers });
      const body = one.json() as { export: { status: string; error: string | null } };
      return ['completed', 'failed'].includes(body.export.status) ? body : undefined;
    }, 150_000);
    expect(done.export.status, done.export.error ?? '').toBe('completed');
    const archive = await kit.call({ method: 'GET', url: `${url}/${exportId}/archive`, headers });
    expect(archive.statusCode).toBe(200);
    zip = await unzip(archive.rawPayload);
  }, 240_000);

  it('writes its files into the study bucket in S3, each as the manifest lists it', async () => {
    const store = kit.app.platform.objectStore;
    expect((store as { driver?: string }).driver).toBe('s3');
    const bucket = kit.app.extraction.bucketOf(kit.world.study.id);
    const listed = await store.listObjects(bucket, { prefix: `exports/${exportId}/` });
    const manifest = JSON.parse((zip.get('manifest.json') as Buffer).toString()) as {
      files: { path: string; bytes: number; sha256: string }[];
      partitions: { type: string; rows: number; date: string }[];
    };
    expect(listed.objects.map((o) => o.key.slice(`exports/${exportId}/`.length)).sort()).toEqual(
      [...manifest.files.map((f) => f.path), 'manifest.json'].sort(),
    );
    for (const file of manifest.files) {
      const bytes = zip.get(file.path) as Buffer;
      expect(sha(bytes), file.path).toBe(file.sha256);
      expect(bytes.length, file.path).toBe(file.bytes);
    }
  });

  it('reads every partition it lists from S3: the tables hold their rows', () => {
    const manifest = JSON.parse((zip.get('manifest.json') as Buffer).toString()) as {
      partitions: { type: string; rows: number; state: string }[];
    };
    const heart = manifest.partitions.filter((p) => p.type === 'heartrate_intraday_1sec');
    expect(heart.map((p) => p.state)).toEqual(['complete', 'complete']);
    const held = heart.reduce((n, p) => n + p.rows, 0);
    expect(held).toBeGreaterThan(40_000);
    const parquet = zip.get('parquet/heartrate_intraday_1sec.parquet') as Buffer;
    expect(Number(parquetMetadata(arrayBuffer(parquet)).num_rows)).toBe(held);
    // Sleep stages come from the raw pages, also read from S3.
    const stages = (zip.get('csv/sleep_stages.csv') as Buffer)
      .toString('utf8')
      .trim()
      .split('\r\n');
    expect(stages.length).toBeGreaterThan(2);
    expect([...zip.keys()].some((k) => k.startsWith('raw/heartrate_intraday_1sec/'))).toBe(true);
  });
});
