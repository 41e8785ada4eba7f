import type { DatasetPartitionKey } from '@research/contracts';

/**
 * Where a partition's files live in the study bucket, Hive-style so query engines read the keys as
 * columns: `dataset/type=…/participant=…/date=…/`. Each write's files carry a version of their own
 * in their names (the contents' digest and a random part), side by side in the day's folder: the
 * ledger row lists the files in force. One folder a partition, not one a write: a backfill makes
 * tens of thousands of partitions, and each folder is a file-system call and a block of its own.
 * Partitions written before 2026-12 have their files under `v=<version>/` (`rows.parquet`,
 * `raw/0000-<call>.json`); their rows list them, and everything here reads both.
 */

export const DATASET_PREFIX = 'dataset/';

export const partitionPrefix = (key: DatasetPartitionKey) =>
  `${DATASET_PREFIX}type=${key.type}/participant=${key.participantId}/date=${key.date}/`;

/** The partition folder an object of the dataset is in (`…/date=…/`), either layout. */
export function partitionPrefixOfKey(objectKey: string): string {
  const date = objectKey.indexOf('/date=');
  return date < 0 ? '' : objectKey.slice(0, objectKey.indexOf('/', date + 1) + 1);
}

/** `writeName` is the write's own part of its file names: its version and a random part. */
export const rowsKey = (key: DatasetPartitionKey, writeName: string) =>
  `${partitionPrefix(key)}rows-${writeName}.parquet`;

/** The n-th page as received, named after its call (`heart-rate`, `steps`, …). */
export const rawKey = (key: DatasetPartitionKey, writeName: string, n: number, call: string) =>
  `${partitionPrefix(key)}raw-${writeName}-${String(n).padStart(4, '0')}-${call}.json`;

/** The call a raw page's key names (the inverse of rawKey, or the older layout's); else null. */
export function callOfRawKey(key: string): string | null {
  return /\/raw(?:\/|-[0-9a-f]+-[0-9a-f]+-)\d{4}-([a-z0-9-]{1,64})\.json$/.exec(key)?.[1] ?? null;
}
