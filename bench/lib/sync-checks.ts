import { DATA_TYPE_SCOPES, type DataType } from '@research/contracts';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { DatasetFile } from '../../apps/server/src/db/schema/dataset.js';
import { DATASET_PREFIX } from '../../apps/server/src/modules/dataset/paths.js';
import { callsFor, researchTypesOf } from '../../apps/server/src/modules/extraction/index.js';
import { DATA_TYPE_CALLS } from '../../apps/server/src/modules/extraction/plan.js';

/** Helpers of bench/sync.ts: the ledger read by key, latencies, planned calls, the bucket. */

export interface Partition {
  participantId: string;
  dataType: DataType;
  date: string;
  state: string;
  version: string | null;
  rowCount: number;
  rowsFile: DatasetFile | null;
  rawFiles: DatasetFile[];
  fetchedAt: Date | null;
  updatedAt: Date;
  trigger: { kind: string } | null;
}

export const keyOf = (p: { participantId: string; dataType: string; date: string }) =>
  `${p.participantId}/${p.dataType}/${p.date}`;

export async function readPartitions(pool: pg.Pool, studyId: string): Promise<Partition[]> {
  const { rows } = await pool.query(
    `select participant_id, data_type, date::text as date, state, version, row_count, rows_file,
            raw_files, fetched_at, updated_at, trigger
       from dataset_partitions where study_id = $1`,
    [studyId],
  );
  return rows.map((r) => ({
    participantId: r.participant_id,
    dataType: r.data_type,
    date: r.date,
    state: r.state,
    version: r.version,
    rowCount: r.row_count,
    rowsFile: r.rows_file,
    rawFiles: r.raw_files,
    fetchedAt: r.fetched_at,
    updatedAt: r.updated_at,
    trigger: r.trigger,
  }));
}

/** The bench's participants grant every scope asked (the settings scope among them). */
export const ALL_SCOPES: string[] = [
  ...new Set([
    ...Object.values(DATA_TYPE_SCOPES).flat(),
    'https://www.googleapis.com/auth/googlehealth.settings.readonly',
  ]),
];

/** The planned calls of one type over [from, to] (before paging), as the extraction plans them. */
export const plannedCalls = (type: DataType, from: string, to: string) =>
  callsFor(type, from, to, ALL_SCOPES).length;

/** The Google Health types a research type reads. */
export const googleTypesOf = (type: DataType) =>
  new Set(DATA_TYPE_CALLS[type].map((spec) => spec.apiType).filter(Boolean) as string[]);

/**
 * The partitions the notification work names: each (connection, Google type, day) row reaches
 * every collected research type reading that Google type.
 */
export async function notifiedPartitions(
  pool: pg.Pool,
  studyId: string,
  collected: readonly DataType[],
) {
  const { rows } = await pool.query(
    `select c.participant_id, w.data_type, w.day::text as day, w.state
       from health_notification_work w join wearable_connections c on c.id = w.connection_id
      where w.study_id = $1`,
    [studyId],
  );
  const keys = new Map<string, { participantId: string; dataType: DataType; date: string }>();
  let wholeRange = 0;
  let notDone = 0;
  for (const row of rows) {
    if (row.state !== 'done') notDone += 1;
    if (!row.day) {
      wholeRange += 1;
      continue;
    }
    for (const dataType of researchTypesOf(row.data_type)) {
      if (!collected.includes(dataType)) continue;
      const key = { participantId: row.participant_id, dataType, date: row.day };
      keys.set(keyOf(key), key);
    }
  }
  return { keys, workRows: rows.length, wholeRange, notDone };
}

/** Each notification's receipt, by participant. */
export async function notificationsByParticipant(pool: pg.Pool, studyId: string) {
  const { rows } = await pool.query(
    `select c.participant_id, n.data_type, n.received_at, n.resolved_at
       from health_notifications n
       join wearable_connections c on c.health_user_id = n.health_user_id and c.study_id = $1`,
    [studyId],
  );
  const out = new Map<string, { dataType: string; receivedAt: Date }[]>();
  for (const row of rows) {
    const list = out.get(row.participant_id) ?? [];
    list.push({ dataType: row.data_type, receivedAt: row.received_at });
    out.set(row.participant_id, list);
  }
  return out;
}

export function percentile(sorted: readonly number[], p: number) {
  if (sorted.length === 0) return Number.NaN;
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[at] as number;
}

/** Object keys of the study's dataset, against the files the ledger lists. */
export async function bucketCheck(app: FastifyInstance, studyId: string, ledger: Partition[]) {
  const bucket = app.extraction.bucketOf(studyId);
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await app.platform.objectStore.listObjects(bucket, {
      prefix: DATASET_PREFIX,
      cursor,
    });
    keys.push(...page.objects.map((o) => o.key));
    cursor = page.nextCursor;
  } while (cursor);
  const present = new Set(keys);
  const listed = new Map<string, number>();
  for (const p of ledger) {
    for (const file of [...(p.rowsFile ? [p.rowsFile] : []), ...p.rawFiles]) {
      listed.set(file.key, (listed.get(file.key) ?? 0) + 1);
    }
  }
  return {
    objects: keys.length,
    listedTwice: [...listed.values()].filter((n) => n > 1).length,
    missing: [...listed.keys()].filter((key) => !present.has(key)).length,
    unlisted: keys.filter((key) => !listed.has(key)).length,
  };
}

/** The UTC instant of a civil day's midnight in a time zone. */
export function midnightIn(timeZone: string, date: string): number {
  const offsetMinutes = (ms: number) => {
    const name =
      new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
        .formatToParts(ms)
        .find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
    const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
    return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  };
  const guess = Date.parse(`${date}T00:00:00Z`);
  const first = guess - offsetMinutes(guess) * 60_000;
  return guess - offsetMinutes(first) * 60_000;
}
