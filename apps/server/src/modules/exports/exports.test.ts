import { createHash } from 'node:crypto';
import type { DataType } from '@research/contracts';
import { parse } from 'csv-parse/sync';
import { eq, sql } from 'drizzle-orm';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, exportFiles, exports } from '../../db/schema/index.js';
import { jobExecutorOn } from '../../platform/jobs.js';
import type { ObjectStore } from '../../platform/object-store/types.js';
import { bearer } from '../../test/auth-helpers.js';
import { useExtractionKit } from '../../test/extraction-kit.js';
import { eventually } from '../../test/test-app.js';
import { accountWith, studyWithParticipants } from '../../test/wearables-kit.js';
import { unzip } from '../../test/zip.js';

/**
 * Exports over HTTP against the sandbox's Google Health: a connected participant whose days the
 * export fetches first, and one without a connection whose days stay missing. The sandbox's
 * person lives in New York (fall back on 2026-11-01) and flies to Berlin on 2026-11-10.
 */

const kit = useExtractionKit({ env: { EXTRACTION_PER_USER_PER_MINUTE: '100000' } });
const account = 'exports.person@gmail.test';
const TYPES: DataType[] = [
  'activity_summary',
  'activity_steps_intraday',
  'heartrate_intraday_1min',
  'sleep_log',
];

let connectedId = '';
let unconnectedId = '';

const url = (path = '') => `/api/studies/${kit.world.study.id}/exports${path}`;
const owner = () => bearer(kit.world.owner.token);

async function startExport(
  payload: Record<string, unknown>,
  headers: Record<string, string> = owner(),
) {
  return kit.call({ method: 'POST', url: url(), headers, payload });
}

async function finished(exportId: string) {
  return eventually(async () => {
    const res = await kit.call({ method: 'GET', url: url(`/${exportId}`), headers: owner() });
    const body = res.json() as { export: { status: string } };
    return body.export.status === 'completed' || body.export.status === 'failed'
      ? (res.json() as {
          export: { status: string; missingPartitions: number; error: string | null };
          files: { path: string; bytes: number; sha256: string; rows: number | null }[];
        })
      : undefined;
  }, 150_000);
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
type Row = Record<string, string> & { time_local: string; date: string };
const csv = (b: Buffer) => parse(b.toString('utf8'), { columns: true }) as Row[];
const arrayBuffer = (b: Buffer) =>
  b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer;

beforeAll(async () => {
  kit.sandbox.health.setControls({ perUserPerMinute: 100_000 });
  connectedId = (await kit.connected(account)).id;
  kit.sandbox.health.sync(account, Date.now());
  unconnectedId = (await kit.world.addParticipant({ firstName: 'Nia', lastName: 'None' })).id;
}, 120_000);

describe('an export over a DST change', () => {
  let zip: Map<string, Buffer>;
  let exportId = '';

  beforeAll(async () => {
    const res = await startExport({
      name: 'Fall back / week 1',
      participantIds: [connectedId, unconnectedId],
      dataTypes: TYPES,
      dateRange: { startDate: '2026-10-31', endDate: '2026-11-02', mode: 'range' },
      formats: ['parquet', 'csv'],
      minuteGrid: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const started = res.json() as {
      export: { id: string; status: string; progress: { total: number } };
    };
    exportId = started.export.id;
    expect(started.export.status).toBe('queued');
    expect(started.export.progress.total).toBe(2 * TYPES.length * 3);
    const done = await finished(exportId);
    expect(done.export.status, done.export.error ?? '').toBe('completed');
    const archive = await kit.call({
      method: 'GET',
      url: url(`/${exportId}/archive`),
      headers: owner(),
    });
    expect(archive.statusCode).toBe(200);
    expect(archive.headers['content-type']).toBe('application/zip');
    expect(archive.headers['content-disposition']).toContain(
      'attachment; filename="Fall-back-week-1.zip"',
    );
    zip = await unzip(archive.rawPayload);
  }, 240_000);

  it('lists it newest first, with its files once completed, and audits start and download', async () => {
    const list = await kit.call({ method: 'GET', url: url(), headers: owner() });
    expect(list.statusCode).toBe(200);
    const { exports: listed } = list.json() as { exports: { id: string; createdBy: string }[] };
    expect(listed[0]?.id).toBe(exportId);
    expect(listed[0]?.createdBy).toBe('Ada Lovelace');
    const one = (
      await kit.call({ method: 'GET', url: url(`/${exportId}`), headers: owner() })
    ).json() as Awaited<ReturnType<typeof finished>> & {
      export: { progress: { done: number; total: number; percent: number } };
    };
    expect(one.export.progress).toEqual({ done: 24, total: 24, percent: 100 });
    // Three days of the unconnected participant for each type stay missing.
    expect(one.export.missingPartitions).toBe(TYPES.length * 3);
    expect(one.files.map((f) => f.path)).toContain('manifest.json');
    const actions = (
      await kit.app.platform.db.select().from(auditEvents).where(eq(auditEvents.targetId, exportId))
    ).map((e) => e.action);
    expect(actions.sort()).toEqual(['export.download', 'export.start']);
  });

  it('holds the data files, dictionary, manifest and README, the manifest matching the files', () => {
    for (const name of ['data_dictionary.csv', 'manifest.json', 'README.txt']) {
      expect(zip.has(name), name).toBe(true);
    }
    for (const table of [...TYPES, 'sleep_stages']) {
      expect(zip.has(`parquet/${table}.parquet`), table).toBe(true);
      expect(zip.has(`csv/${table}.csv`), table).toBe(true);
    }
    const manifest = JSON.parse((zip.get('manifest.json') as Buffer).toString()) as {
      files: { path: string; bytes: number; sha256: string; rows: number | null }[];
      partitions: {
        participantId: string;
        type: string;
        date: string;
        state: string;
        trigger: unknown;
      }[];
      missingPartitions: { participantId: string; type: string; date: string; state: string }[];
    };
    for (const file of manifest.files) {
      const bytes = zip.get(file.path) as Buffer;
      expect(bytes, file.path).toBeDefined();
      expect(sha(bytes), file.path).toBe(file.sha256);
      expect(bytes.length).toBe(file.bytes);
      if (file.path.endsWith('.csv') && file.rows !== null) {
        expect(csv(bytes).length, file.path).toBe(file.rows);
      }
    }
    expect(manifest.missingPartitions).toHaveLength(TYPES.length * 3);
    expect(manifest.missingPartitions.every((m) => m.participantId === unconnectedId)).toBe(true);
    expect(manifest.missingPartitions.every((m) => m.state === 'missing')).toBe(true);
    // Fetched by this export, and saying so.
    const used = manifest.partitions.filter(
      (p) => p.participantId === connectedId && p.date === '2026-11-01',
    );
    expect(used.map((p) => p.type)).toEqual(expect.arrayContaining(TYPES));
    expect(JSON.stringify(used[0]?.trigger)).toContain(`export:${exportId}`);
    const dictionary = csv(zip.get('data_dictionary.csv') as Buffer);
    expect(
      dictionary.find((r) => r.file === 'csv/activity_summary.csv' && r.column === 'distance_m'),
    ).toMatchObject({ type: 'double', unit: 'm' });
    expect((zip.get('README.txt') as Buffer).toString()).toContain('arrow::read_parquet');
  });

  it('has every local minute of each day, 1500 on the day the clocks fall back', () => {
    const rows = csv(zip.get('csv/activity_steps_intraday.csv') as Buffer).filter(
      (r) => r.participant_id === connectedId,
    );
    const perDay = new Map<string, Row[]>();
    for (const r of rows) perDay.set(r.date, [...(perDay.get(r.date) ?? []), r]);
    expect(perDay.get('2026-10-31')).toHaveLength(1440);
    expect(perDay.get('2026-11-01')).toHaveLength(1500);
    expect(perDay.get('2026-11-02')).toHaveLength(1440);
    for (const [date, day] of perDay) {
      expect(day[0]?.time_local.startsWith(`${date}T00:00:00`)).toBe(true);
      expect(day.at(-1)?.time_local.startsWith(`${date}T23:59:00`)).toBe(true);
    }
    // 01:30 twice, told apart by the offset.
    const half = (perDay.get('2026-11-01') ?? []).filter(
      (r) => r.time_local.slice(11, 16) === '01:30',
    );
    expect(half.map((r) => r.time_local)).toEqual([
      '2026-11-01T01:30:00-04:00',
      '2026-11-01T01:30:00-05:00',
    ]);
    expect(half.map((r) => r.utc_offset_seconds)).toEqual(['-14400', '-18000']);
    expect(new Set(rows.map((r) => r.time_local)).size).toBe(rows.length);
    // The per-minute heart rate, from Google's UTC-day buckets, on the same local grid.
    const heart = csv(zip.get('csv/heartrate_intraday_1min.csv') as Buffer).filter(
      (r) => r.participant_id === connectedId && r.date === '2026-11-01',
    );
    expect(heart).toHaveLength(1500);
    expect(heart.filter((r) => r.heart_rate_avg_bpm !== '').length).toBeGreaterThan(600);
    for (const r of rows) {
      const offset = Number(r.utc_offset_seconds) * 1000;
      expect(Date.parse(r.time_utc as string) + offset).toBe(
        Date.parse(`${r.time_local.slice(0, 19)}Z`),
      );
    }
  });

  // The sandbox's people wear their watch all day; a watch taken off is in tables.test.ts.
  it('fills steps with 0 where Google sent none, worn where heart rate was recorded', () => {
    const rows = csv(zip.get('csv/activity_steps_intraday.csv') as Buffer);
    const mine = rows.filter((r) => r.participant_id === connectedId);
    expect(mine.every((r) => r.steps_count !== '')).toBe(true);
    expect(mine.some((r) => r.steps_count === '0' && r.worn === 'true')).toBe(true);
    expect(mine.some((r) => Number(r.steps_count) > 0)).toBe(true);
    // The participant without data: missing, never 0, worn unknown; no zone is known for them,
    // so their days are UTC days.
    const theirs = rows.filter((r) => r.participant_id === unconnectedId);
    expect(theirs.length).toBe(3 * 1440);
    expect(
      theirs.every((r) => r.steps_count === '' && r.worn === '' && r.day_state === 'missing'),
    ).toBe(true);
  });

  it('types the grid in Parquet: instants, offsets, the worn flag', async () => {
    const file = arrayBuffer(zip.get('parquet/activity_steps_intraday.parquet') as Buffer);
    const rows = (await parquetReadObjects({ file })) as Record<string, unknown>[];
    const csvRows = csv(zip.get('csv/activity_steps_intraday.csv') as Buffer);
    expect(rows).toHaveLength(csvRows.length);
    const first = rows[0] as Record<string, unknown>;
    expect(first.time_utc).toBeInstanceOf(Date);
    expect(typeof first.utc_offset_seconds).toBe('number');
    expect(rows.map((r) => r.time_local)).toEqual(csvRows.map((r) => r.time_local));
    expect(rows.map((r) => (r.worn === null ? '' : String(r.worn)))).toEqual(
      csvRows.map((r) => r.worn),
    );
  });

  it('keeps a day without data as a row of missing values in a daily table', () => {
    const rows = csv(zip.get('csv/activity_summary.csv') as Buffer);
    expect(rows).toHaveLength(2 * 3);
    const missing = rows.filter((r) => r.participant_id === unconnectedId);
    expect(missing.map((r) => r.date)).toEqual(['2026-10-31', '2026-11-01', '2026-11-02']);
    for (const r of missing) {
      expect(r.day_state).toBe('missing');
      expect(r.steps_count).toBe('');
      expect(r.distance_m).toBe('');
    }
    const held = rows.filter((r) => r.participant_id === connectedId);
    for (const r of held) {
      expect(r.day_state).toBe('complete');
      expect(Number(r.distance_m)).toBeCloseTo(Number(r.distance_mm) / 1000, 6);
    }
  });

  it('keeps ids as text: quoted in CSV, STRING in Parquet', async () => {
    const text = (zip.get('csv/sleep_log.csv') as Buffer).toString();
    const line = text.split('\r\n')[1] as string;
    expect(line.startsWith(`"${connectedId}","`)).toBe(true);
    const parquet = arrayBuffer(zip.get('parquet/sleep_log.parquet') as Buffer);
    const schema = parquetMetadata(parquet).schema;
    for (const name of ['participant_id', 'sleep_id', 'start_local']) {
      // UTF8 text (DuckDB's writer marks text with the converted type, which every reader reads).
      expect(schema.find((e) => e.name === name)?.converted_type, name).toBe('UTF8');
    }
    const rows = (await parquetReadObjects({ file: parquet })) as Record<string, unknown>[];
    expect(rows.length).toBeGreaterThan(0);
    const csvRows = csv(zip.get('csv/sleep_log.csv') as Buffer);
    expect(rows.map((r) => r.sleep_id)).toEqual(csvRows.map((r) => r.sleep_id));
    expect(typeof rows[0]?.sleep_id).toBe('string');
    // Days read from the dataset's Parquet stay the days they were.
    for (const r of csvRows)
      expect(['2026-10-31', '2026-11-01', '2026-11-02']).toContain(r.date_of_sleep);
    const stages = csv(zip.get('csv/sleep_stages.csv') as Buffer);
    expect(stages.length).toBeGreaterThan(rows.length);
    expect(new Set(stages.map((s) => s.sleep_id))).toEqual(new Set(csvRows.map((r) => r.sleep_id)));
    for (const s of stages) {
      expect(Number(s.duration_seconds)).toBe(
        (Date.parse(s.end_utc as string) - Date.parse(s.start_utc as string)) / 1000,
      );
    }
  });

  it('makes the same bytes from the same partitions', async () => {
    const again = await startExport({
      name: 'Fall back / week 1',
      participantIds: [unconnectedId, connectedId],
      dataTypes: [...TYPES].reverse(),
      dateRange: { startDate: '2026-10-31', endDate: '2026-11-02', mode: 'range' },
      formats: ['csv', 'parquet'],
      minuteGrid: true,
    });
    expect(again.statusCode).toBe(201);
    const done = await finished((again.json() as { export: { id: string } }).export.id);
    const first = await finished(exportId);
    const data = (files: { path: string; sha256: string }[]) =>
      files
        .filter((f) => /^(csv|parquet)\/|^data_dictionary/.test(f.path))
        .map((f) => `${f.path} ${f.sha256}`);
    expect(data(done.files)).toEqual(data(first.files));
  });
});

describe('a travel day', () => {
  it('spans the local day from midnight to midnight, offsets changing mid-day', async () => {
    const res = await startExport({
      participantIds: [connectedId],
      dataTypes: ['activity_steps_intraday'],
      dateRange: { startDate: '2026-11-10', endDate: '2026-11-10', mode: 'single' },
      formats: ['csv'],
      minuteGrid: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = (res.json() as { export: { id: string } }).export.id;
    const done = await finished(id);
    expect(done.export.status).toBe('completed');
    const rows = csv(await kit.readObject(`exports/${id}/csv/activity_steps_intraday.csv`));
    expect(rows[0]?.time_local).toBe('2026-11-10T00:00:00-05:00');
    expect(rows.at(-1)?.time_local).toBe('2026-11-10T23:59:00+01:00');
    expect(new Set(rows.map((r) => r.utc_offset_seconds))).toEqual(new Set(['-18000', '3600']));
    // 00:00 −05:00 (05:00Z) to 24:00 +01:00 (23:00Z): 18 hours, no local minute twice.
    expect(rows).toHaveLength(18 * 60);
    expect(new Set(rows.map((r) => r.time_local.slice(0, 16))).size).toBe(rows.length);

    // Without the grid, only the minutes Google sent, each on its own offset.
    const sent = await startExport({
      participantIds: [connectedId],
      dataTypes: ['activity_steps_intraday'],
      dateRange: { startDate: '2026-11-10', endDate: '2026-11-10', mode: 'single' },
      formats: ['csv'],
      minuteGrid: false,
      includeRaw: true,
    });
    const sentId = (sent.json() as { export: { id: string } }).export.id;
    const sentDone = await finished(sentId);
    expect(sentDone.export.status).toBe('completed');
    // Google's pages as received, beside the tidy file.
    const raw = sentDone.files.filter((f) => f.path.startsWith('raw/'));
    expect(raw.length).toBeGreaterThan(0);
    expect(raw[0]?.path).toMatch(
      new RegExp(
        `^raw/activity_steps_intraday/participant=${connectedId}/date=2026-11-10/\\d{4}-steps\\.json$`,
      ),
    );
    const points = csv(await kit.readObject(`exports/${sentId}/csv/activity_steps_intraday.csv`));
    expect(points.length).toBeGreaterThan(0);
    expect(points.length).toBeLessThan(rows.length);
    expect(points.every((p) => p.worn === undefined && p.steps_count !== '')).toBe(true);
  }, 120_000);
});

describe('who may', () => {
  it('start, list, read and download: members only', async () => {
    const nonMember = await accountWith(kit.app, 'approved');
    const payload = {
      participantIds: [unconnectedId],
      dataTypes: ['activity_summary'],
      dateRange: { startDate: '2026-11-01', endDate: '2026-11-01', mode: 'single' },
      formats: ['csv'],
    };
    const roles: [string, Record<string, string>, number][] = [
      ['owner', owner(), 201],
      ['collaborator', bearer(kit.world.collaborator.token), 201],
      ['non-member', bearer(nonMember.token), 403],
      ['master', bearer(kit.world.master.token), 403],
      ['signed out', {}, 401],
    ];
    let exportId = '';
    for (const [role, headers, status] of roles) {
      const res = await startExport(payload, headers);
      expect(res.statusCode, role).toBe(status);
      if (status === 201) exportId = (res.json() as { export: { id: string } }).export.id;
    }
    await finished(exportId);
    for (const [role, headers, status] of roles) {
      const ok = status === 201 ? 200 : status;
      expect((await kit.call({ method: 'GET', url: url(), headers })).statusCode, role).toBe(ok);
      expect(
        (await kit.call({ method: 'GET', url: url(`/${exportId}`), headers })).statusCode,
        role,
      ).toBe(ok);
      const archive = await kit.call({ method: 'GET', url: url(`/${exportId}/archive`), headers });
      expect(archive.statusCode, role).toBe(ok);
    }
  });

  it('answers 404 for a participant of another study and for an unknown export', async () => {
    const other = await studyWithParticipants(kit.app);
    const stranger = await other.addParticipant();
    const res = await startExport({
      participantIds: [unconnectedId, stranger.id],
      dataTypes: ['activity_summary'],
      dateRange: { startDate: '2026-11-01', endDate: '2026-11-01', mode: 'single' },
      formats: ['csv'],
    });
    expect(res.statusCode).toBe(404);
    expect((res.json() as { code: string }).code).toBe('PARTICIPANT_NOT_FOUND');
    const unknown = await kit.call({
      method: 'GET',
      url: url('/00000000-0000-4000-8000-000000000000'),
      headers: owner(),
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('answers 409 EXPORT_NOT_READY for an archive not built yet', async () => {
    const queued = await kit.app.exports.start(
      {
        studyId: kit.world.study.id,
        body: {
          participantIds: [unconnectedId],
          dataTypes: ['activity_summary'],
          dateRange: { startDate: '2026-11-01', endDate: '2026-11-01', mode: 'single' },
          formats: ['csv'],
        },
        actor: { userId: kit.world.owner.user.id, label: 'Ada' },
      },
      { queue: false },
    );
    const res = await kit.call({
      method: 'GET',
      url: url(`/${queued.id}/archive`),
      headers: owner(),
    });
    expect(res.statusCode).toBe(409);
    expect((res.json() as { code: string }).code).toBe('EXPORT_NOT_READY');
  });
});

describe('a build that fails', () => {
  // The manifest is written last; a table is streamed into the bucket while DuckDB builds the next.
  it.each(['manifest.json', 'parquet/activity_summary.parquet'])(
    'is failed with the reason and leaves no files behind (%s cannot be written)',
    async (failingFile) => {
      const queued = await kit.app.exports.start(
        {
          studyId: kit.world.study.id,
          body: {
            participantIds: [connectedId],
            dataTypes: ['activity_summary', 'heartrate_intraday_1min'],
            dateRange: { startDate: '2026-11-01', endDate: '2026-11-01', mode: 'single' },
            formats: ['csv', 'parquet'],
          },
          actor: { userId: kit.world.owner.user.id, label: 'Ada' },
        },
        { queue: false },
      );
      const store = kit.app.platform.objectStore;
      const failing: ObjectStore = {
        ...store,
        ensureBucket: (b) => store.ensureBucket(b),
        listObjects: (b, o) => store.listObjects(b, o),
        deleteObject: (b, k) => store.deleteObject(b, k),
        getObject: (b, k) => store.getObject(b, k),
        putObject: async (b, k, body, o) => {
          if (k.endsWith(failingFile)) throw new Error('The disk is full');
          return store.putObject(b, k, body, o);
        },
      };
      await kit.app.exports.build(queued.id, { objectStore: failing });
      const [row] = await kit.app.platform.db
        .select()
        .from(exports)
        .where(eq(exports.id, queued.id));
      expect(row?.status).toBe('failed');
      expect(row?.error).toBe('The disk is full');
      const left = await store.listObjects(kit.bucket(), { prefix: `exports/${queued.id}/` });
      expect(left.objects).toEqual([]);
      const files = await kit.app.platform.db
        .select()
        .from(exportFiles)
        .where(eq(exportFiles.exportId, queued.id));
      expect(files).toEqual([]);
    },
  );
});

describe('a build whose worker was lost', () => {
  it('is taken up again once its heartbeat stops, and completes', async () => {
    const queued = await kit.app.exports.start(
      {
        studyId: kit.world.study.id,
        body: {
          participantIds: [connectedId],
          dataTypes: ['activity_summary'],
          dateRange: { startDate: '2026-11-01', endDate: '2026-11-02', mode: 'range' },
          formats: ['csv'],
        },
        actor: { userId: kit.world.owner.user.id, label: 'Ada' },
      },
      { queue: false },
    );
    const { db, jobs } = kit.app.platform;
    // The job as a worker left it when its process was killed mid-build: active, its last
    // heartbeat an hour old (well within its two-hour expiry), the export running.
    let jobId = '';
    await db.transaction(async (tx) => {
      jobId =
        (await jobs.boss.send(
          'export-build',
          { exportId: queued.id },
          { db: jobExecutorOn(tx) },
        )) ?? '';
      await tx.execute(
        sql`update pgboss.job set state = 'active', started_on = now() - interval '1 hour', heartbeat_on = now() - interval '1 hour' where id = ${jobId}`,
      );
      await tx.update(exports).set({ status: 'running' }).where(eq(exports.id, queued.id));
    });
    // pg-boss's supervisor, run now rather than at its next pass.
    await jobs.boss.supervise('export-build');
    const done = await finished(queued.id);
    expect(done.export.status, done.export.error ?? '').toBe('completed');
    expect(done.files.map((f) => f.path)).toContain('csv/activity_summary.csv');
    const result = await db.execute(
      sql`select state, retry_count from pgboss.job where id = ${jobId}`,
    );
    expect((result as unknown as { rows: unknown[] }).rows).toEqual([
      { state: 'completed', retry_count: 1 },
    ]);
  }, 180_000);
});
