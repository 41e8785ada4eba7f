import type { DataType } from '@research/contracts';
import { and, asc, count, eq, gt, lte } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { datasetPartitions } from '../../db/schema/index.js';

export interface FailedFetch {
  participantId: string;
  dataType: DataType;
  date: string;
  reason: string | null;
}

/**
 * The study's partitions whose last fetch, in (since, until], failed: the first `limit` by fetch
 * time, and how many there are in all (the digest lists a few and counts the rest).
 */
export async function failedFetchesBetween(
  db: DbOrTx,
  studyId: string,
  since: Date,
  until: Date,
  limit: number,
): Promise<{ rows: FailedFetch[]; totalCount: number }> {
  const t = datasetPartitions;
  const where = and(
    eq(t.studyId, studyId),
    eq(t.state, 'failed'),
    gt(t.fetchedAt, since),
    lte(t.fetchedAt, until),
  );
  const rows = await db
    .select({
      participantId: t.participantId,
      dataType: t.dataType,
      date: t.date,
      reason: t.reason,
    })
    .from(t)
    .where(where)
    .orderBy(asc(t.fetchedAt), asc(t.participantId), asc(t.dataType), asc(t.date))
    .limit(limit);
  if (rows.length < limit) return { rows, totalCount: rows.length };
  const [total] = await db.select({ value: count() }).from(t).where(where);
  return { rows, totalCount: total?.value ?? rows.length };
}
