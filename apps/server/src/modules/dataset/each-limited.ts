/**
 * Runs `work` over `items`, at most `limit` at a time. On the first failure no more are started,
 * those under way are waited for, and that failure is thrown: when it returns, nothing it started
 * is still writing (a failed partition write leaves no put landing after it).
 */
export async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (!failure && next < items.length) {
      const item = items[next++] as T;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failure) throw failure.error;
}
