import { Readable } from 'node:stream';
import {
  EXPORT_SERVER_MESSAGES,
  type ExportSummary,
  STUDY_DETAIL_MESSAGES,
  type StartExportBody,
} from '@research/contracts';
import { ZipArchive } from 'archiver';
import type { Db } from '../../db/client.js';
import type { ExportRow } from '../../db/schema/index.js';
import { AppError } from '../../errors.js';
import type { JobQueue } from '../../platform/jobs.js';
import type { ObjectStore } from '../../platform/object-store/types.js';
import { recordAudit } from '../audit/index.js';
import type { CollectDaysInput, CollectResult } from '../collection/index.js';
import type { Dataset } from '../dataset/index.js';
import { studiesOfLiveParticipants } from '../participants/index.js';
import { type BuildDeps, buildExport, exportPrefix } from './build-export.js';
import { exportsRepository } from './exports.repository.js';
import { createExportJob } from './job-definitions.js';

/** Starting, listing and downloading exports; the build itself is build-export.ts. */

export interface ExportsDeps {
  db: Db;
  objectStore: ObjectStore;
  bucketOf: (studyId: string) => string;
  dataset: Dataset;
  /** Collection's fetch of a participant's days (read when a build runs). */
  collectDays: () => ((input: CollectDaysInput) => Promise<CollectResult>) | undefined;
  jobs: () => JobQueue;
  retry: { limit: number; delaySeconds: number };
  now?: () => Date;
}

export interface StartExportInput {
  studyId: string;
  body: StartExportBody;
  actor: { userId: string | null; label: string };
  ip?: string;
}

const notFound = () => new AppError(404, 'NOT_FOUND', EXPORT_SERVER_MESSAGES.exportNotFound);

export function summaryOf(row: ExportRow, bucket: string): ExportSummary {
  const total = row.progressTotal;
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    createdBy: row.createdByLabel,
    participantCount: row.participantIds.length,
    dataTypes: row.dataTypes,
    dateRange: { startDate: row.startDate, endDate: row.endDate },
    formats: row.formats,
    minuteGrid: row.minuteGrid,
    includeRaw: row.includeRaw,
    progress: {
      done: row.progressDone,
      total,
      percent:
        row.status === 'completed'
          ? 100
          : total === 0
            ? 0
            : Math.min(100, Math.floor((row.progressDone / total) * 100)),
    },
    missingPartitions: row.missingPartitions,
    bucket,
    prefix: exportPrefix(row.id),
    bytes: row.bytes,
    error: row.error,
  };
}

/** `export-2026-11-01_2026-11-07.zip`: the name, made safe for any file system. */
function archiveName(row: ExportRow) {
  const base = `${row.name}`.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
  return `${(base || 'export').slice(0, 100)}.zip`;
}

export function createExportsService(deps: ExportsDeps) {
  const repo = exportsRepository(deps.db);
  const now = deps.now ?? (() => new Date());
  const buildDeps = (overrides: Partial<BuildDeps>): BuildDeps => ({
    db: deps.db,
    objectStore: deps.objectStore,
    bucketOf: deps.bucketOf,
    dataset: deps.dataset,
    collectDays: deps.collectDays(),
    now,
    ...overrides,
  });
  /**
   * Builds one queued export now, in this process and to its end (the job's work; a benchmark
   * calls it directly, after `start(..., { queue: false })`). `overrides` swap a part (tests).
   */
  const build = (exportId: string, overrides: Partial<BuildDeps> = {}) =>
    buildExport(buildDeps(overrides), exportId);
  const job = createExportJob({ retry: deps.retry, build: (exportId) => build(exportId) });

  /** Every participant must be a live participant of this study; any other answers 404. */
  async function assertParticipants(studyId: string, ids: string[]) {
    const rows = await studiesOfLiveParticipants(deps.db, ids);
    if (rows.length !== ids.length || rows.some((r) => r.studyId !== studyId)) {
      throw new AppError(404, 'PARTICIPANT_NOT_FOUND', STUDY_DETAIL_MESSAGES.participantNotFound);
    }
  }

  /** Records the export and queues its job; answers its summary. */
  async function start(input: StartExportInput, options: { queue?: boolean } = {}) {
    const body = input.body;
    const participantIds = [...new Set(body.participantIds)].sort();
    await assertParticipants(input.studyId, participantIds);
    const { startDate, endDate } = body.dateRange;
    const row = await deps.db.transaction(async (tx) => {
      const created = await exportsRepository(tx).insert({
        studyId: input.studyId,
        createdByUserId: input.actor.userId,
        createdByLabel: input.actor.label,
        name:
          body.name?.trim() ||
          `Export ${startDate}${endDate === startDate ? '' : ` to ${endDate}`}`,
        participantIds,
        dataTypes: [...new Set(body.dataTypes)].sort(),
        startDate,
        endDate,
        formats: [...new Set(body.formats)].sort(),
        minuteGrid: body.minuteGrid ?? true,
        includeRaw: body.includeRaw ?? false,
        progressTotal:
          participantIds.length * new Set(body.dataTypes).size * dayCount(startDate, endDate),
      });
      await recordAudit(tx, {
        actorId: input.actor.userId,
        studyId: input.studyId,
        action: 'export.start',
        targetType: 'export',
        targetId: created.id,
        details: {
          studyId: input.studyId,
          participants: participantIds.length,
          dataTypes: created.dataTypes,
          dateRange: { startDate, endDate },
          formats: created.formats,
        },
        ...(input.ip ? { ip: input.ip } : {}),
      });
      return created;
    });
    if (options.queue !== false) await deps.jobs().send(job, { exportId: row.id });
    return summaryOf(row, deps.bucketOf(input.studyId));
  }

  async function list(studyId: string) {
    const bucket = deps.bucketOf(studyId);
    return (await repo.list(studyId)).map((row) => summaryOf(row, bucket));
  }

  async function get(studyId: string, exportId: string) {
    const row = await repo.ofStudy(studyId, exportId);
    if (!row) throw notFound();
    const files =
      row.status === 'completed'
        ? (await repo.files(exportId)).map(({ exportId: _id, ...file }) => file)
        : [];
    return { export: summaryOf(row, deps.bucketOf(studyId)), files };
  }

  /** The completed export as a ZIP stream of its stored files (audited). */
  async function archive(
    studyId: string,
    exportId: string,
    actor: { userId: string | null; ip?: string },
  ) {
    const row = await repo.ofStudy(studyId, exportId);
    if (!row) throw notFound();
    if (row.status !== 'completed') {
      throw new AppError(409, 'EXPORT_NOT_READY', EXPORT_SERVER_MESSAGES.notReady);
    }
    const files = await repo.files(exportId);
    const bucket = deps.bucketOf(studyId);
    await recordAudit(deps.db, {
      actorId: actor.userId,
      studyId,
      action: 'export.download',
      targetType: 'export',
      targetId: exportId,
      details: { studyId, files: files.length, bytes: row.bytes },
      ...(actor.ip ? { ip: actor.ip } : {}),
    });
    const zip = new ZipArchive({ zlib: { level: 6 } });
    // Objects are opened one after another as the ZIP is written, never all at once.
    (async () => {
      try {
        const date = row.completedAt ?? row.createdAt;
        for (const file of files) {
          const { body } = await deps.objectStore.getObject(bucket, file.key);
          zip.append(Readable.from(body as AsyncIterable<Buffer>), { name: file.path, date });
          await new Promise<void>((resolve, reject) => {
            const done = () => {
              zip.off('entry', done);
              zip.off('error', reject);
              resolve();
            };
            zip.on('entry', done);
            zip.on('error', reject);
          });
        }
        await zip.finalize();
      } catch (error) {
        zip.destroy(error as Error);
      }
    })();
    return { stream: zip, fileName: archiveName(row) };
  }

  return { start, list, get, archive, build, job, jobs: [job] };
}

function dayCount(start: string, end: string) {
  return (
    Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1
  );
}

export type ExportsService = ReturnType<typeof createExportsService>;

declare module 'fastify' {
  interface FastifyInstance {
    exports: ExportsService;
  }
}
