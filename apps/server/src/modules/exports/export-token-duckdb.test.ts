import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/auth-helpers.js';
import { useExtractionKit } from '../../test/extraction-kit.js';
import { eventually } from '../../test/test-app.js';
import { unzip } from '../../test/zip.js';

/**
 * What a researcher's script does: with a personal access token and no session, start an export,
 * follow it, download its ZIP; then read every table with DuckDB, as an analysis would, and find
 * the rows the manifest promises.
 */

const kit = useExtractionKit({ env: { EXTRACTION_PER_USER_PER_MINUTE: '100000' } });
const account = 'exports.script@gmail.test';
let dir = '';
let participantId = '';
let token = '';

const studyUrl = (suffix: string) => `/api/studies/${kit.world.study.id}${suffix}`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'wrp-export-duckdb-'));
  kit.sandbox.health.setControls({ perUserPerMinute: 100_000 });
  participantId = (await kit.connected(account)).id;
  kit.sandbox.health.sync(account, Date.now());
  const created = await kit.call({
    method: 'POST',
    url: studyUrl('/access-tokens'),
    headers: bearer(kit.world.owner.token),
    payload: { name: 'analysis pipeline', expiresInDays: 30 },
  });
  expect(created.statusCode, created.body).toBe(201);
  token = (created.json() as { secret: string }).secret;
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('an export fetched by a script with a token and read with DuckDB', () => {
  it('loads every table with the rows and checksums the manifest lists', async () => {
    const asScript = bearer(token);
    const start = await kit.call({
      method: 'POST',
      url: studyUrl('/exports'),
      headers: asScript,
      payload: {
        participantIds: [participantId],
        dataTypes: [
          'activity_summary',
          'activity_steps_intraday',
          'heartrate_intraday_1min',
          'sleep_log',
        ],
        dateRange: { startDate: '2026-10-30', endDate: '2026-11-02' },
        formats: ['parquet', 'csv'],
      },
    });
    expect(start.statusCode, start.body).toBe(201);
    const { export: started } = start.json() as { export: { id: string; createdBy: string } };

    const done = await eventually(async () => {
      const res = await kit.call({
        method: 'GET',
        url: studyUrl(`/exports/${started.id}`),
        headers: asScript,
      });
      expect(res.statusCode).toBe(200);
      const body = res.json() as { export: { status: string; error: string | null } };
      return body.export.status === 'completed' || body.export.status === 'failed'
        ? body
        : undefined;
    }, 150_000);
    expect(done.export.status, done.export.error ?? '').toBe('completed');

    const list = await kit.call({ method: 'GET', url: studyUrl('/exports'), headers: asScript });
    expect((list.json() as { exports: { id: string }[] }).exports.map((e) => e.id)).toContain(
      started.id,
    );
    // Without the token, the same call is refused.
    const anonymous = await kit.call({
      method: 'GET',
      url: studyUrl(`/exports/${started.id}/archive`),
    });
    expect(anonymous.statusCode).toBe(401);

    const archive = await kit.call({
      method: 'GET',
      url: studyUrl(`/exports/${started.id}/archive`),
      headers: asScript,
    });
    expect(archive.statusCode).toBe(200);
    expect(archive.headers['content-type']).toContain('application/zip');
    const entries = await unzip(archive.rawPayload);
    const manifest = JSON.parse(entries.get('manifest.json')?.toString('utf8') ?? '{}') as {
      files: { path: string; bytes: number; sha256: string; rows: number | null }[];
    };
    const tables = manifest.files.filter((f) => f.rows !== null);
    expect(tables.some((f) => f.path.endsWith('.parquet'))).toBe(true);
    expect(tables.some((f) => f.path.endsWith('.csv'))).toBe(true);

    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    try {
      for (const file of manifest.files) {
        const bytes = entries.get(file.path);
        expect(bytes, file.path).toBeDefined();
        expect(
          createHash('sha256')
            .update(bytes as Buffer)
            .digest('hex'),
          file.path,
        ).toBe(file.sha256);
        if (file.rows === null) continue;
        const local = path.join(dir, file.path.replaceAll('/', '__'));
        await writeFile(local, bytes as Buffer);
        const reader = file.path.endsWith('.parquet')
          ? `read_parquet('${local}')`
          : `read_csv('${local}', header = true, all_varchar = true)`;
        const counted = await duck.runAndReadAll(`select count(*)::integer as n from ${reader}`);
        expect(counted.getRowObjects()[0]?.n, file.path).toBe(file.rows);
      }
      // Ids stay text in Parquet, and read back unchanged.
      const summary = manifest.files.find((f) => f.path === 'parquet/activity_summary.parquet');
      expect(summary).toBeDefined();
      const ids = await duck.runAndReadAll(
        `select distinct typeof(participant_id) as t, participant_id as id from read_parquet('${path.join(dir, 'parquet__activity_summary.parquet')}')`,
      );
      expect(ids.getRowObjects()).toEqual([{ t: 'VARCHAR', id: participantId }]);
    } finally {
      duck.closeSync();
    }
  }, 240_000);
});
