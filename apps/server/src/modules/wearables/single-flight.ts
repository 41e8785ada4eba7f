/**
 * Single flight per connection inside this process. PGlite is one process's database, so this
 * is the whole story there; on PostgreSQL a `select … for update` row lock adds the guarantee
 * across API and worker processes.
 */
export function createSerializer() {
  const inFlight = new Map<string, Promise<unknown>>();

  return async function serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = inFlight.get(key) ?? Promise.resolve();
    const run = previous.catch(() => {}).then(work);
    const tail = run.catch(() => {});
    inFlight.set(key, tail);
    try {
      return await run;
    } finally {
      if (inFlight.get(key) === tail) inFlight.delete(key);
    }
  };
}

export type Serialized = ReturnType<typeof createSerializer>;
