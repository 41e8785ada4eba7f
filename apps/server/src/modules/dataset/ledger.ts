import { createHash } from 'node:crypto';
import type { DatasetPartitionKey, DataType } from '@research/contracts';
import { and, asc, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { lockParticipantData } from '../../db/locks.js';
import { datasetPartitions } from '../../db/schema/index.js';

/** The ledger's rows: one per partition, read and written under the partition's lock. */

export type LedgerRow = typeof datasetPartitions.$inferSelect;
export type LedgerInsert = typeof datasetPartitions.$inferInsert;

/**
 * A transaction holding the partition's advisory lock: writers of one partition take turns, on
 * any number of processes, whether or not its row exists yet. The lock id is the key's digest
 * (two partitions sharing one only wait for each other).
 */
export function withPartitionLock<T>(
  db: Db,
  key: DatasetPartitionKey,
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  const id = createHash('sha256')
    .update(`dataset\0${key.studyId}\0${key.participantId}\0${key.type}\0${key.date}`)
    .digest()
    .readBigInt64BE(0);
  return db.transaction(async (tx) => {
    // The participant's data shared first (a withdrawal takes it alone), then the partition.
    await lockParticipantData(tx, key.participantId, 'shared');
    await tx.execute(sql`select pg_advisory_xact_lock(${id.toString()}::bigint)`);
    return work(tx);
  });
}

const keyIs = (key: DatasetPartitionKey) =>
  and(
    eq(datasetPartitions.studyId, key.studyId),
    eq(datasetPartitions.participantId, key.participantId),
    eq(datasetPartitions.dataType, key.type),
    eq(datasetPartitions.date, key.date),
  );

export async function readRow(db: DbOrTx, key: DatasetPartitionKey): Promise<LedgerRow | null> {
  const [row] = await db.select().from(datasetPartitions).where(keyIs(key));
  return row ?? null;
}

/** Inserts or replaces the partition's row. */
export async function putRow(tx: Tx, row: LedgerInsert): Promise<LedgerRow> {
  const { studyId, participantId, dataType, date, ...rest } = row;
  const [written] = await tx
    .insert(datasetPartitions)
    .values(row)
    .onConflictDoUpdate({
      target: [
        datasetPartitions.studyId,
        datasetPartitions.participantId,
        datasetPartitions.dataType,
        datasetPartitions.date,
      ],
      set: rest,
    })
    .returning();
  return written as LedgerRow;
}

/** Deletes the partition's row (a withdrawal whose study deletes the data). */
export async function deleteRow(tx: Tx, key: DatasetPartitionKey): Promise<void> {
  await tx.delete(datasetPartitions).where(keyIs(key));
}

/** Which partitions of a study a read or a mark is about. */
export interface PartitionSelector {
  studyId: string;
  participantId?: string | undefined;
  types?: readonly DataType[] | undefined;
  /** Civil days, inclusive, yyyy-mm-dd. */
  from?: string | undefined;
  to?: string | undefined;
  /** Exactly these days (instead of, or within, from/to). */
  dates?: readonly string[] | undefined;
}

function selects(selector: PartitionSelector): SQL | undefined {
  const t = datasetPartitions;
  return and(
    eq(t.studyId, selector.studyId),
    selector.participantId === undefined ? undefined : eq(t.participantId, selector.participantId),
    selector.types === undefined ? undefined : inArray(t.dataType, [...selector.types]),
    selector.from === undefined ? undefined : gte(t.date, selector.from),
    selector.to === undefined ? undefined : lte(t.date, selector.to),
    selector.dates === undefined ? undefined : inArray(t.date, [...selector.dates]),
  );
}

export async function selectRows(db: DbOrTx, selector: PartitionSelector): Promise<LedgerRow[]> {
  const t = datasetPartitions;
  return db
    .select()
    .from(t)
    .where(selects(selector))
    .orderBy(asc(t.participantId), asc(t.dataType), asc(t.date));
}

/** Sets the state and reason of the selected rows (their files stay); returns them. */
export async function markRows(
  db: DbOrTx,
  selector: PartitionSelector,
  state: LedgerRow['state'],
  reason: string,
): Promise<LedgerRow[]> {
  return db
    .update(datasetPartitions)
    .set({ state, reason, updatedAt: new Date() })
    .where(selects(selector))
    .returning();
}

/** Rows for partitions that have none yet, in the given state; existing rows are left alone. */
export async function insertMissing(db: DbOrTx, rows: LedgerInsert[]): Promise<LedgerRow[]> {
  if (rows.length === 0) return [];
  return db.insert(datasetPartitions).values(rows).onConflictDoNothing().returning();
}

/** The columns the charts read of a participant's days (all types: the day's state needs them). */
export async function selectDayFigures(
  db: DbOrTx,
  studyId: string,
  participantId: string,
  from: string,
  to: string,
) {
  const t = datasetPartitions;
  return db
    .select({
      dataType: t.dataType,
      date: t.date,
      timeZone: t.timeZone,
      state: t.state,
      reason: t.reason,
      steps: t.steps,
      wearMinutes: t.wearMinutes,
      restingHeartRateBpm: t.restingHeartRateBpm,
      sleepMinutes: t.sleepMinutes,
      sleepStages: t.sleepStages,
    })
    .from(t)
    .where(
      and(
        eq(t.studyId, studyId),
        eq(t.participantId, participantId),
        gte(t.date, from),
        lte(t.date, to),
      ),
    )
    .orderBy(asc(t.date));
}
