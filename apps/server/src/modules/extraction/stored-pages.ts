import type { ObjectStore } from '../../platform/object-store/types.js';
import type { RequestRecord } from './records.js';
import type { CallPages } from './tidy.js';

async function readText(body: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/** A task's raw pages read back from the bucket, by call key in the order they were fetched. */
export function createStoredPages(objectStore: ObjectStore) {
  return async function storedPages(
    bucket: string,
    requests: RequestRecord[],
  ): Promise<CallPages[]> {
    const byCall = new Map<string, unknown[]>();
    for (const record of requests) {
      const { body } = await objectStore.getObject(bucket, record.object);
      const text = await readText(body);
      const pages = byCall.get(record.callKey) ?? [];
      pages.push(text ? JSON.parse(text) : {});
      byCall.set(record.callKey, pages);
    }
    return [...byCall.entries()].map(([key, pages]) => ({ key, pages }));
  };
}

export type StoredPages = ReturnType<typeof createStoredPages>;
