import type { DatasetPartitionKey } from '@research/contracts';

/**
 * Where a partition's files live in the study bucket, Hive-style so query engines read the keys as
 * columns: `dataset/type=…/participant=…/date=…/v=<folder>/`. Each write goes under a folder of its
 * own (the contents' digest and a random part); the ledger row lists the files in force.
 */

export const DATASET_PREFIX = 'dataset/';

export const partitionPrefix = (key: DatasetPartitionKey) =>
  `${DATASET_PREFIX}type=${key.type}/participant=${key.participantId}/date=${key.date}/`;

export const folderPrefix = (key: DatasetPartitionKey, folder: string) =>
  `${partitionPrefix(key)}v=${folder}/`;

export const rowsKey = (key: DatasetPartitionKey, folder: string) =>
  `${folderPrefix(key, folder)}rows.parquet`;

/** The n-th page as received, named after its call (`heart-rate`, `steps`, …). */
export const rawKey = (key: DatasetPartitionKey, folder: string, n: number, call: string) =>
  `${folderPrefix(key, folder)}raw/${String(n).padStart(4, '0')}-${call}.json`;

/** The call a raw page's key names (the inverse of rawKey); null for a key rawKey did not make. */
export function callOfRawKey(key: string): string | null {
  return /\/raw\/\d{4}-([a-z0-9-]{1,64})\.json$/.exec(key)?.[1] ?? null;
}
