import { expect, it } from 'vitest';
import type { ObjectStore } from '../platform/object-store/index.js';

/**
 * What every object store driver must do alike, as tests to run in each driver's file: the app
 * pages through a bucket the same way whichever driver it was started with.
 * `emptyBucket` answers the name of an existing bucket with nothing in it yet.
 */
export function objectStoreContract(store: () => ObjectStore, emptyBucket: () => Promise<string>) {
  it('lists in key order with prefix, limit and cursor', async () => {
    const bucket = await emptyBucket();
    const keys = ['b/2.csv', 'a/1.json', 'a/3.json', 'a/2.json', 'c.txt', 'ab/x.json'];
    for (const key of keys) await store().putObject(bucket, key, key);
    const keysOf = async (options: Parameters<ObjectStore['listObjects']>[1]) =>
      (await store().listObjects(bucket, options)).objects.map((o) => o.key);

    const all = await store().listObjects(bucket);
    expect(all.objects.map((o) => o.key)).toEqual([
      'a/1.json',
      'a/2.json',
      'a/3.json',
      'ab/x.json',
      'b/2.csv',
      'c.txt',
    ]);
    expect(all.nextCursor).toBeUndefined();
    expect(all.objects[0]).toMatchObject({ size: 8 });
    expect(all.objects[0]?.lastModified).toBeInstanceOf(Date);

    expect(await keysOf({ prefix: 'a/' })).toEqual(['a/1.json', 'a/2.json', 'a/3.json']);
    expect(await keysOf({ prefix: 'a' })).toEqual([
      'a/1.json',
      'a/2.json',
      'a/3.json',
      'ab/x.json',
    ]);
    expect(await keysOf({ prefix: 'a/2' })).toEqual(['a/2.json']);
    expect(await keysOf({ prefix: 'zzz/' })).toEqual([]);

    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await store().listObjects(bucket, { limit: 4, cursor });
      seen.push(...page.objects.map((o) => o.key));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(2);
    expect(seen).toEqual(all.objects.map((o) => o.key));

    const firstPage = await store().listObjects(bucket, { prefix: 'a', limit: 2 });
    expect(firstPage.objects.map((o) => o.key)).toEqual(['a/1.json', 'a/2.json']);
    const secondPage = await store().listObjects(bucket, {
      prefix: 'a',
      limit: 2,
      cursor: firstPage.nextCursor,
    });
    expect(secondPage.objects.map((o) => o.key)).toEqual(['a/3.json', 'ab/x.json']);
    expect(secondPage.nextCursor).toBeUndefined();
  });
}
