import type { DataType } from '@research/contracts';
import { addDays, chunks, type PlannedCall } from './plan.js';

/**
 * A run over days the study's dataset already holds, settled, reads them instead of asking
 * Google. The dataset keeps, per participant × type × day D, the answers to `callsFor(type, D, D)`:
 * the same calls a run makes, cut to one day. A run's call over [from, to) is therefore the union
 * of those one-day calls (list filters and daily roll-ups are on civil dates, 60-second roll-ups on
 * the instants of the participant's local midnights, all half-open and day-aligned), so its rows
 * are the days' rows; only the paging,
 * hence the raw pages, can differ (docs/architecture.md#reading-settled-days-from-the-dataset).
 *
 * The extraction does not import the dataset module (which reads the extraction's tidy rows):
 * app.ts hands the engine a `DatasetReader` made of the dataset's exported functions.
 */

/** One page of a stored day: the call it answered, where it is, its size and hash. */
export interface StoredDayPage {
  call: string;
  key: string;
  bytes: number;
  sha256: string;
}

/** A settled (complete or empty) partition of the dataset. */
export interface StoredDay {
  date: string;
  state: 'complete' | 'empty';
  /** The participant's time zone the day is a civil day of. */
  timeZone: string;
  /** The partition's version (a digest of its files). */
  version: string;
  fetchedAt: Date;
  pages: StoredDayPage[];
}

export interface DatasetReader {
  /** The settled days of a participant's type within [from, to] (inclusive). */
  settledDays(input: {
    studyId: string;
    participantId: string;
    dataType: DataType;
    from: string;
    to: string;
  }): Promise<StoredDay[]>;
  /** A page's bytes as stored; throws when they are gone or not the bytes listed. */
  readPage(studyId: string, page: StoredDayPage): Promise<Buffer>;
}

/** What a task does for one call: ask Google for a range, or read a stored day's pages. */
export type TaskStep =
  | { kind: 'fetch'; call: PlannedCall }
  | { kind: 'stored'; call: PlannedCall; day: StoredDay; pages: StoredDayPage[] };

/**
 * Whether a stored day answers the call for that day: it has the call's pages, and, for a call cut
 * at local midnights (60-second roll-ups), it was cut in the zone the run cuts in.
 */
function answers(
  call: PlannedCall,
  day: StoredDay | undefined,
  timeZone: string,
): day is StoredDay {
  if (!day?.pages.some((p) => p.call === call.spec.key)) return false;
  return call.spec.method !== 'rollUp' || day.timeZone === timeZone;
}

/**
 * The steps of a task's calls, given the settled days: every day of a ranged call the dataset
 * answers is read from it; the days left are fetched as calls over each run of consecutive missing
 * days, cut to the call's cap (any range within the cap is a valid request). With no day held,
 * the steps are exactly the planned calls. Calls without a range
 * (the profile, which the dataset does not keep) are fetched. Steps follow the calls' order and,
 * within a call, the days'.
 */
export function taskSteps(
  calls: readonly PlannedCall[],
  days: readonly StoredDay[],
  /** The zone the run cuts 60-second roll-ups in (the participant's, or UTC). */
  timeZone = 'UTC',
): TaskStep[] {
  const byDate = new Map(days.map((day) => [day.date, day]));
  const steps: TaskStep[] = [];
  for (const call of spans(calls)) {
    const { spec, from, to } = call;
    if (!from || !to || spec.chunkDays === null) {
      steps.push({ kind: 'fetch', call });
      continue;
    }
    let missingFrom: string | null = null;
    const flush = (end: string) => {
      if (missingFrom === null) return;
      for (const piece of chunks(missingFrom, addDays(end, -1), spec.chunkDays as number)) {
        steps.push({ kind: 'fetch', call: { spec, from: piece.from, to: piece.to } });
      }
      missingFrom = null;
    };
    for (let date = from; date < to; date = addDays(date, 1)) {
      const day = byDate.get(date);
      if (!answers(call, day, timeZone)) {
        missingFrom ??= date;
        continue;
      }
      flush(date);
      const pages = day.pages.filter((p) => p.call === spec.key);
      steps.push({ kind: 'stored', call: { spec, from: date, to: addDays(date, 1) }, day, pages });
    }
    flush(to);
  }
  return steps;
}

/**
 * The task's calls with the pieces of one spec joined again into the range they were cut from
 * (callsFor cuts each spec's range in order), so that with no day held the steps are the plan.
 */
function spans(calls: readonly PlannedCall[]): PlannedCall[] {
  const out: PlannedCall[] = [];
  for (const call of calls) {
    const last = out.at(-1);
    if (last && last.spec === call.spec && last.to && last.to === call.from) {
      out[out.length - 1] = { ...last, to: call.to };
    } else out.push(call);
  }
  return out;
}

/** Pages a task expects to fetch: those of its fetch steps. */
export const plannedPages = (steps: readonly TaskStep[]) =>
  steps.reduce((sum, step) => sum + (step.kind === 'fetch' ? step.call.spec.pagesPerChunk : 0), 0);
