import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { extractionQuotaWindows } from '../../db/schema/index.js';

/**
 * Google Health's per-user and per-project request quotas, shared by every worker
 * process through the database: each call first takes a slot in the current one-minute window of
 * `user:{healthUserId}` and of `project`, with one atomic upsert each. When a window is full the
 * caller waits for the next one (plus a little jitter, so waiting workers do not all wake at once).
 */
export interface QuotaLimits {
  perUserPerMinute: number;
  perProjectPerMinute: number;
}

export interface DbQuota {
  /**
   * Resolves when a call for this Google user may go out now, with the window it counts in;
   * rejects as soon as `signal` aborts (the job failed for good: its waiting calls are dropped).
   */
  acquire(healthUserId: string, signal?: AbortSignal): Promise<number>;
  /** Drops windows older than 10 minutes. */
  prune(): Promise<void>;
}

export function createDbQuota(
  db: Db,
  limits: QuotaLimits,
  options: {
    now?: () => number;
    sleep?: (ms: number) => Promise<void>;
    random?: () => number;
    /** One minute, as Google counts; tests shorten it. */
    windowMs?: number;
  } = {},
): DbQuota {
  const WINDOW_MS = options.windowMs ?? 60_000;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const random = options.random ?? Math.random;
  const t = extractionQuotaWindows;

  /**
   * Takes a slot of the user's window and, only if that succeeded, one of the project's, in one
   * statement (a round trip per call instead of two). Each upsert is atomic; a full window takes
   * nothing.
   */
  async function take(userKey: string, window: number) {
    const result = await db.execute(sql`
      with u as (
        insert into ${t} (key, window_start, count) values (${userKey}, ${window}, 1)
        on conflict (key, window_start) do update set count = ${t}.count + 1
          where ${t}.count < ${limits.perUserPerMinute}
        returning 1
      ), p as (
        insert into ${t} (key, window_start, count)
        select 'project', ${window}, 1 where exists (select 1 from u)
        on conflict (key, window_start) do update set count = ${t}.count + 1
          where ${t}.count < ${limits.perProjectPerMinute}
        returning 1
      )
      select (select count(*) from u)::int as user_slot, (select count(*) from p)::int as project_slot`);
    // node-postgres answers a result object, PGlite its rows' holder: both carry `rows`.
    const [row] = (result as unknown as { rows: { user_slot: number; project_slot: number }[] })
      .rows;
    return { user: Number(row?.user_slot) > 0, project: Number(row?.project_slot) > 0 };
  }

  async function giveBack(key: string, window: number) {
    await db
      .update(t)
      .set({ count: sql`greatest(${t.count} - 1, 0)` })
      .where(and(eq(t.key, key), eq(t.windowStart, window)));
  }

  /** The wait for the next window, cut short when the caller gives up. */
  function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
    if (!signal) return sleep(ms);
    signal.throwIfAborted();
    return new Promise((resolve, reject) => {
      const abort = () => reject(signal.reason);
      signal.addEventListener('abort', abort, { once: true });
      sleep(ms).then(() => {
        signal.removeEventListener('abort', abort);
        resolve();
      }, reject);
    });
  }

  return {
    async acquire(healthUserId, signal) {
      const userKey = `user:${healthUserId}`;
      for (;;) {
        signal?.throwIfAborted();
        const at = now();
        const window = Math.floor(at / WINDOW_MS) * WINDOW_MS;
        const slots = await take(userKey, window);
        if (slots.user && slots.project) return window;
        // The project's window is full: the user's slot goes back for the next caller.
        if (slots.user) await giveBack(userKey, window);
        await wait(window + WINDOW_MS - at + Math.floor(random() * 250), signal);
      }
    },
    async prune() {
      await db.delete(t).where(lt(t.windowStart, now() - 10 * WINDOW_MS));
    },
  };
}
