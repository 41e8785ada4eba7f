import {
  type DataType,
  EXTRACTION_SERVER_MESSAGES,
  type ExtractionDateRange,
  type ExtractionJob,
} from '@research/contracts';
import type { Db } from '../../db/client.js';
import {
  type ExtractionRunParams,
  extractionJobs,
  extractionRuns,
  extractionTasks,
} from '../../db/schema/index.js';
import { AppError } from '../../errors.js';
import { recordAudit } from '../audit/index.js';
import { participantGrants } from './participant-grants.js';
import { type ExtractionPlan, planExtraction } from './plan.js';
import { runPrefix } from './records.js';

/**
 * A start writes one run, one job per participant and the planned tasks (with the audit entry, in
 * one transaction), then queues one job per participant and the run's watch.
 */

export interface StartInput {
  studyId: string;
  actorId: string;
  name: string;
  dataTypes: DataType[];
  dateRange: ExtractionDateRange;
  participantIds: string[];
  ip?: string | undefined;
}

export interface StartRunDeps {
  db: Db;
  bucketOf: (studyId: string) => string;
  listJobs: (studyId: string, options: { runId: string }) => Promise<ExtractionJob[]>;
  queueParticipant: (jobId: string) => Promise<void>;
  queueWatch: (runId: string) => Promise<void>;
}

export function createStartRun(deps: StartRunDeps) {
  const { db } = deps;

  /** The participants' granted scopes; each must be of the study and actively connected. */
  async function selectable(studyId: string, ids: string[]) {
    const found = await participantGrants(db, ids);
    const byId = new Map(found.map((p) => [p.id, p]));
    for (const id of ids) {
      const p = byId.get(id);
      if (!p || p.studyId !== studyId) {
        throw new AppError(404, 'PARTICIPANT_NOT_FOUND', 'Participant not found');
      }
      if (p.status !== 'active') {
        throw new AppError(
          400,
          'NOT_SELECTABLE',
          EXTRACTION_SERVER_MESSAGES.participantNotSelectable,
        );
      }
    }
    return ids.map((id) => ({ id, grantedScopes: byId.get(id)?.grantedScopes ?? [] }));
  }

  /** The run, its jobs and tasks, and the audit entry, all or nothing. */
  function insertRun(
    input: StartInput,
    ids: string[],
    dateRange: ExtractionRunParams['dateRange'],
    plan: ExtractionPlan,
  ) {
    return db.transaction(async (tx) => {
      const [run] = await tx
        .insert(extractionRuns)
        .values({
          studyId: input.studyId,
          name: input.name,
          createdBy: input.actorId,
          params: { dataTypes: input.dataTypes, dateRange, participantIds: ids },
          callsPlanned: plan.callsPlanned,
        })
        .returning();
      if (!run) throw new Error('run not inserted');
      const jobs = await tx
        .insert(extractionJobs)
        .values(
          ids.map((participantId) => ({
            runId: run.id,
            studyId: input.studyId,
            participantId,
            callsPlanned: plan.callsByParticipant.get(participantId) ?? 0,
          })),
        )
        .returning();
      const jobOf = new Map(jobs.map((j) => [j.participantId, j.id]));
      if (plan.tasks.length > 0) {
        await tx.insert(extractionTasks).values(
          plan.tasks.map((t) => ({
            jobId: jobOf.get(t.participantId) ?? '',
            runId: run.id,
            seq: t.seq,
            dataType: t.dataType,
            windowStart: t.windowStart,
            windowEnd: t.windowEnd,
            status: t.status,
            skipReason: t.skipReason,
            callsPlanned: t.callsPlanned,
          })),
        );
      }
      await recordAudit(tx, {
        actorId: input.actorId,
        studyId: input.studyId,
        action: 'extraction.started',
        targetType: 'study',
        targetId: input.studyId,
        details: {
          kind: 'data_access',
          runId: run.id,
          name: input.name,
          participantIds: ids,
          dataTypes: input.dataTypes,
          dateRange,
        },
        ...(input.ip ? { ip: input.ip } : {}),
      });
      return { run, jobs };
    });
  }

  return async function start(input: StartInput) {
    const ids = [...new Set(input.participantIds)];
    const chosen = await selectable(input.studyId, ids);
    const { startDate, endDate } = input.dateRange;
    const dateRange = {
      startDate,
      endDate,
      mode: input.dateRange.mode ?? (startDate === endDate ? 'single' : 'range'),
    } as const;
    const plan = planExtraction({ participants: chosen, dataTypes: input.dataTypes, dateRange });
    const created = await insertRun(input, ids, dateRange, plan);
    for (const job of created.jobs) await deps.queueParticipant(job.id);
    await deps.queueWatch(created.run.id);
    return {
      runId: created.run.id,
      bucket: deps.bucketOf(input.studyId),
      prefix: `${runPrefix(created.run.id)}/`,
      callsPlanned: plan.callsPlanned,
      jobs: await deps.listJobs(input.studyId, { runId: created.run.id }),
    };
  };
}
