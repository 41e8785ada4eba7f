import { COLLECTION_REASONS, type DataType } from '@research/contracts';
import type { Db } from '../../db/client.js';
import { recordAudit } from '../audit/index.js';
import { civilDateIn, type Dataset } from '../dataset/index.js';
import { researchTypesOf } from '../extraction/index.js';
import type { PendingWork } from '../health-notifications/index.js';
import type { CollectionTarget } from '../wearables/index.js';
import type { Collect, CollectResult, Session } from './collect.js';

/**
 * A participant's notification work done: the days Google said changed are fetched again (each
 * Google type maps to the research types that read it), days Google said were deleted are marked
 * `deleted_at_source` (and removed from the dataset where the study says so), and each work row
 * is ended only if no newer notification came for it meanwhile.
 */

export interface NotifiedWork {
  pending: (connectionId: string) => Promise<PendingWork[]>;
  finish: (id: string, generation: number, state: 'done' | 'failed') => Promise<boolean>;
  /** Connections with work pending since before `before`. */
  connectionsWithPendingWork: (before: Date) => Promise<string[]>;
}

export interface NotifiedDeps {
  db: Db;
  dataset: Dataset;
  collect: Collect;
  work: NotifiedWork;
  types: readonly DataType[];
  /** Whether the study removes data its participants deleted at the source (default: keep). */
  removesDeletedData: (studyId: string) => Promise<boolean>;
  /** The days a whole-range notification means: the connection's sweep days. */
  sweepPlan: (session: Session) => Promise<Map<DataType, string[]>>;
}

export interface NotifiedResult extends CollectResult {
  /** Work rows ended (a row notified again meanwhile stays pending). */
  finished: number;
  deletedPartitions: number;
}

export function createNotified(deps: NotifiedDeps) {
  const typesOf = (apiType: string) =>
    researchTypesOf(apiType).filter((type) => deps.types.includes(type));

  async function markDeleted(target: CollectionTarget, rows: PendingWork[]): Promise<number> {
    const remove = rows.length > 0 && (await deps.removesDeletedData(target.studyId));
    let marked = 0;
    for (const row of rows) {
      const types = typesOf(row.dataType);
      if (types.length === 0) continue;
      const selector = {
        studyId: target.studyId,
        participantId: target.participantId,
        types,
        ...(row.day ? { dates: [row.day] } : {}),
      };
      // Only partitions held are marked: a day never collected has nothing to mark.
      const partitions = await deps.dataset.markPartitions(
        selector,
        'deleted_at_source',
        COLLECTION_REASONS.deletedAtSource,
      );
      if (partitions.length === 0) continue;
      if (remove) {
        await deps.dataset.removePartitions(selector);
      }
      await recordAudit(deps.db, {
        actorId: null,
        studyId: target.studyId,
        action: remove ? 'dataset.removed_at_source' : 'dataset.deleted_at_source',
        targetType: 'participant',
        targetId: target.participantId,
        details: {
          studyId: target.studyId,
          googleType: row.dataType,
          day: row.day,
          partitions: partitions.map((p) => `${p.dataType}/${p.date}`),
        },
      });
      marked += partitions.length;
    }
    return marked;
  }

  /** Does the participant's pending notification work; answers what was fetched and ended. */
  return async function collectNotified(
    target: CollectionTarget,
    signal?: AbortSignal,
  ): Promise<NotifiedResult> {
    const rows = await deps.work.pending(target.connectionId);
    const upserts = rows.filter((row) => !row.deleted);
    const deletedPartitions = await markDeleted(
      target,
      rows.filter((row) => row.deleted),
    );

    let result: CollectResult = {
      written: 0,
      marked: { failed: 0, scopeMissing: 0, revoked: 0 },
      calls: 0,
    };
    if (upserts.length > 0) {
      const latest = upserts[upserts.length - 1] as PendingWork;
      result = await deps.collect(
        target.participantId,
        async (session) => {
          const plan = new Map<DataType, Set<string>>();
          const add = (type: DataType, dates: Iterable<string>) => {
            const set = plan.get(type) ?? new Set<string>();
            for (const date of dates) set.add(date);
            plan.set(type, set);
          };
          const whole = upserts.filter((row) => row.day === null);
          if (whole.length > 0) {
            const sweep = await deps.sweepPlan(session);
            for (const row of whole) {
              for (const type of typesOf(row.dataType)) add(type, sweep.get(type) ?? []);
            }
          }
          // Days before enrolment are not the study's: a late sync of older days is left out.
          const enrolled = civilDateIn(session.timeZone, session.target.enrolledAt);
          for (const row of upserts) {
            if (!row.day || row.day < enrolled) continue;
            for (const type of typesOf(row.dataType)) add(type, [row.day]);
          }
          return new Map([...plan].map(([type, dates]) => [type, [...dates].sort()]));
        },
        { kind: 'notification', id: latest.lastNotificationId ?? latest.id },
        signal,
      );
    }

    // Every day asked for is now written or marked with why not: the ledger says which.
    let finished = 0;
    for (const row of rows) {
      if (await deps.work.finish(row.id, row.generation, 'done')) finished += 1;
    }
    return { ...result, finished, deletedPartitions };
  };
}
