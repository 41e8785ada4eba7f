import type { DataType, ExtractionDateRange } from '@research/contracts';
import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { participantGrants } from './participant-grants.js';
import { type ExtractionPlan, type PlannedTask, planExtraction } from './plan.js';

/**
 * How long a run should take, before it is started: the calls come from the same plan a start
 * writes, and the time from how the engine spends them (participants side by side, each with a
 * few tasks in flight making their calls in turn, every call first taking a slot of the
 * per-minute quotas).
 *
 * The per-call and per-run times were measured against the sandbox with
 * estimate-calibration.test.ts (selections run through the app's queue, timing each job, started →
 * completed over its calls, and each run, start request → files written): a light call (a daily roll-up,
 * the profile, sleep) took 25–80 ms with its page stored and tidied, a bulk page of per-second or
 * per-minute points 0.4–1.3 s (its tidying is CPU work, slower with other jobs on the same
 * cores), and a run's fixed part (the queue's pick-up, which polls every 2 s, and the run's files)
 * 0.5–4 s. Google answers more slowly than the sandbox on loopback, so the upper bounds allow for
 * it.
 */
export const CALL_MS = {
  light: { min: 40, max: 500 },
  bulk: { min: 300, max: 1_500 },
} as const;
export const RUN_OVERHEAD_MS = { min: 500, max: 4_000 } as const;

const MINUTE_MS = 60_000;

export interface EstimateLimits {
  perUserPerMinute: number;
  perProjectPerMinute: number;
  /** Participants one worker extracts at once. */
  concurrency: number;
  /** Calls in flight per participant (their tasks side by side). */
  callsPerParticipant: number;
}

type Bound = 'min' | 'max';

/**
 * What a per-minute quota adds to `calls` calls: a full window is waited out before the next one
 * opens. Where in its first window a run starts is unknown, so the wait is one window less at
 * best than at worst.
 */
export function quotaWaitMs(calls: number, perMinute: number, bound: Bound): number {
  const windows = Math.ceil(calls / perMinute);
  return Math.max(0, windows - (bound === 'min' ? 2 : 1)) * MINUTE_MS;
}

/** A task's calls one after another: bulk pages (a partial response of many points) weigh more. */
function taskMs(task: PlannedTask, bound: Bound): number {
  return task.calls.reduce(
    (sum, call) =>
      sum + call.spec.pagesPerChunk * CALL_MS[call.spec.fields ? 'bulk' : 'light'][bound],
    0,
  );
}

/** One participant's job: its tasks in lanes, each making its calls in turn, within its quota. */
function jobMs(tasks: PlannedTask[], limits: EstimateLimits, bound: Bound): number {
  if (tasks.length === 0) return 0;
  const times = tasks.map((task) => taskMs(task, bound));
  const lanes = Math.max(1, Math.min(limits.callsPerParticipant, tasks.length));
  const inLanes = Math.max(Math.max(...times), times.reduce((a, b) => a + b, 0) / lanes);
  const calls = tasks.reduce((sum, task) => sum + task.callsPlanned, 0);
  return Math.max(inLanes, quotaWaitMs(calls, limits.perUserPerMinute, bound));
}

/** The run's expected duration in seconds, from start to its files, as a range. */
export function estimateRunSeconds(
  plan: ExtractionPlan,
  limits: EstimateLimits,
): { min: number; max: number } {
  const tasksOf = new Map<string, PlannedTask[]>();
  for (const task of plan.tasks) {
    if (task.status !== 'pending') continue;
    tasksOf.set(task.participantId, [...(tasksOf.get(task.participantId) ?? []), task]);
  }
  const seconds = (bound: Bound) => {
    // Jobs run `concurrency` at a time: the longest first, so each round lasts as long as its
    // first job.
    const jobs = [...tasksOf.values()].map((tasks) => jobMs(tasks, limits, bound));
    jobs.sort((a, b) => b - a);
    let jobsMs = 0;
    for (let i = 0; i < jobs.length; i += Math.max(1, limits.concurrency)) jobsMs += jobs[i] ?? 0;
    const projectMs = quotaWaitMs(plan.callsPlanned, limits.perProjectPerMinute, bound);
    return (Math.max(jobsMs, projectMs) + RUN_OVERHEAD_MS[bound]) / 1000;
  };
  return { min: seconds('min'), max: seconds('max') };
}

export interface EstimateInput {
  studyId: string;
  participantIds: string[];
  dataTypes: DataType[];
  dateRange: ExtractionDateRange;
}

export function createEstimate(deps: { db: Db; config: AppConfig }) {
  const { db, config } = deps;

  /** Each participant's granted scopes; none for one without an active connection. */
  async function grantsOf(studyId: string, ids: string[]) {
    const found = (await participantGrants(db, ids)).filter((p) => p.studyId === studyId);
    if (found.length !== ids.length) {
      throw new AppError(404, 'PARTICIPANT_NOT_FOUND', 'Participant not found');
    }
    return found.map((p) => ({
      id: p.id,
      grantedScopes: p.status === 'active' ? (p.grantedScopes ?? []) : [],
    }));
  }

  return async function estimate(input: EstimateInput) {
    const ids = [...new Set(input.participantIds)];
    const { startDate, endDate } = input.dateRange;
    const plan = planExtraction({
      participants: await grantsOf(input.studyId, ids),
      dataTypes: [...new Set(input.dataTypes)],
      dateRange: {
        startDate,
        endDate,
        mode: input.dateRange.mode ?? (startDate === endDate ? 'single' : 'range'),
      },
    });
    return { calls: plan.callsPlanned, seconds: estimateRunSeconds(plan, config.extraction) };
  };
}
