import { and, eq, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { extractionQuotaWindows } from '../../db/schema/index.js';
import { CallNotSent } from '../../platform/google-health/index.js';

/**
 * Google Health's per-user and per-project request quotas, shared by every worker
 * process through the database: each call first takes a slot in the current one-minute window of
 * `user:{healthUserId}` and then one of `project`, both of which a process reserves in blocks
 * (see `blockCounter`). When a window is full the caller waits for the next one (plus a
 * little jitter, so waiting workers do not all wake at once).
 * With a daily budget (GOOGLE_HEALTH_DAILY_CALL_BUDGET) each call also counts in the UTC day's
 * row (reserved in blocks, see `reserve`); background callers are refused once it is spent
 * (DailyBudgetSpent).
 */
export interface QuotaLimits {
  perUserPerMinute: number;
  perProjectPerMinute: number;
  /** Calls per UTC day over the whole project; null or absent: no budget (nothing counted). */
  dailyCallBudget?: number | null | undefined;
}

export interface AcquireOptions {
  /**
   * Background work (collection's sweeps and notification fetches): refused with DailyBudgetSpent
   * once the day's budget is spent. Other callers (researchers' runs) count toward it but go on.
   */
  withinDailyBudget?: boolean;
}

/** The key of the per-UTC-day counter; its window is the day's first millisecond. */
const DAY_KEY = 'project-day';
const DAY_MS = 86_400_000;
/** Day counters kept for the operator to read (minute windows go after ten minutes). */
const DAYS_KEPT = 7;

const dayOf = (at: number) => Math.floor(at / DAY_MS) * DAY_MS;
const isoDay = (day: number) => new Date(day).toISOString().slice(0, 10);

/**
 * The project's calls for the UTC day are spent: nothing was sent. Background work leaves what is
 * left for `resumesAt` (the next UTC midnight), without marking anything failed.
 */
export class DailyBudgetSpent extends CallNotSent {
  constructor(
    /** The UTC day, yyyy-mm-dd. */
    readonly day: string,
    readonly resumesAt: Date,
  ) {
    super(`The daily Google Health call budget of ${day} (UTC) is spent`);
    this.name = 'DailyBudgetSpent';
  }
}

export interface DbQuota {
  /**
   * Resolves when a call for this Google user may go out now, with the window it counts in;
   * rejects as soon as `signal` aborts (the job failed for good: its waiting calls are dropped).
   */
  acquire(healthUserId: string, signal?: AbortSignal, options?: AcquireOptions): Promise<number>;
  /** Drops windows older than 10 minutes (day counters older than a week). */
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
    /** Where the budget's end is said, once a day over all processes (the app's logger). */
    log?: { warn(details: object, message: string): void };
  } = {},
): DbQuota {
  const WINDOW_MS = options.windowMs ?? 60_000;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const random = options.random ?? Math.random;
  const t = extractionQuotaWindows;
  const budget = limits.dailyCallBudget ?? null;

  /**
   * Slots of one key's windows that this process reserves in blocks and hands out itself. A
   * window's row would otherwise take a statement a call: the project's is one row every call of
   * every process would queue on (on PostgreSQL a call waited milliseconds for it, and 20 calls in
   * flight over two processes reached only ~2,700 a second), and a user's is a statement for each
   * of their calls (10,700 of a 100-participant backfill's ~55,000). A reservation takes a whole
   * block or nothing; near the limit it takes single slots. Slots reserved and not used by the
   * window's end are counted, not made: the key never goes over its limit, and may stay below it
   * by a block a process.
   */
  function blockCounter(key: string, limit: number, block: number) {
    const state = { window: -1, left: 0, full: -1 };
    let reserving: Promise<void> | null = null;

    async function reserve(window: number, slots: number): Promise<boolean> {
      const result = await db.execute(sql`
        insert into ${t} (key, window_start, count) values (${key}, ${window}, ${slots})
        on conflict (key, window_start) do update set count = ${t}.count + ${slots}
          where ${t}.count + ${slots} <= ${limit}
        returning 1`);
      // node-postgres answers a result object, PGlite its rows' holder: both carry `rows`.
      return (result as unknown as { rows: unknown[] }).rows.length > 0;
    }

    return {
      /** Takes a slot of the window from this process's block; false when the window is full. */
      async take(window: number): Promise<boolean> {
        for (;;) {
          if (state.window === window && state.left > 0) {
            state.left -= 1;
            return true;
          }
          if (state.full === window) return false;
          if (reserving) {
            await reserving;
            continue;
          }
          reserving = (async () => {
            const granted = (await reserve(window, block))
              ? block
              : block > 1 && (await reserve(window, 1))
                ? 1
                : 0;
            if (state.window !== window) Object.assign(state, { window, left: 0 });
            state.left += granted;
            if (granted === 0) state.full = window;
          })().finally(() => {
            reserving = null;
          });
          await reserving;
        }
      },
      /** Whether the counter holds nothing for windows from `window` on (it may be dropped). */
      idleBefore: (window: number) => reserving === null && state.window < window,
    };
  }

  /** The project's block: 1/1000 of its limit (50 at most), so a small limit is counted call by call. */
  const project = blockCounter(
    'project',
    limits.perProjectPerMinute,
    Math.max(1, Math.min(50, Math.floor(limits.perProjectPerMinute / 1000))),
  );
  /**
   * A user's block: 1/30 of their limit (10 of 300), so at most a few per cent of a user's minute
   * is held back unused by another process; a limit under 60 is counted call by call.
   */
  const userBlock = Math.max(1, Math.min(10, Math.floor(limits.perUserPerMinute / 30)));
  const users = new Map<string, ReturnType<typeof blockCounter>>();
  const USERS_KEPT = 1_000;

  function userCounter(userKey: string, window: number) {
    let counter = users.get(userKey);
    if (!counter) {
      // Users seen in earlier windows only hold nothing any more: dropped before the map grows.
      if (users.size >= USERS_KEPT) {
        for (const [key, old] of users) if (old.idleBefore(window)) users.delete(key);
      }
      counter = blockCounter(userKey, limits.perUserPerMinute, userBlock);
      users.set(userKey, counter);
    }
    return counter;
  }

  /**
   * The day's counter is one row every call of every process would queue on: a process reserves
   * calls in blocks instead (one statement per block) and hands them out itself. A block is at
   * most 1/1000 of the budget (50 at most), so a small budget is counted call by call; what a
   * process has reserved and not used by the day's end (or its own end) is counted, not made.
   */
  const block = budget === null ? 0 : Math.max(1, Math.min(50, Math.floor(budget / 1000)));
  /** Reserved and not yet used, per kind: within the budget, or counted past it. */
  const reserved = { day: -1, within: 0, past: 0 };

  /**
   * Reserves the next block of the day: within the budget while any is left; past it only for
   * callers that count without being stopped. The reservation that reaches the budget says so.
   */
  async function reserve(day: number, withinBudget: boolean) {
    const cap = budget as number;
    const update = () =>
      db.execute(sql`
        update ${t} set count = ${t}.count + g.granted
        from (
          select count as before, case
            when count < ${cap}::int then least(${block}::int, ${cap}::int - count)
            when not ${withinBudget}::boolean then ${block}::int else 0 end as granted
          from ${t} where key = ${DAY_KEY} and window_start = ${day} for update
        ) g
        where ${t}.key = ${DAY_KEY} and ${t}.window_start = ${day}
        returning g.before, g.granted`);
    let result = await update();
    let [row] = (result as unknown as { rows: { before: number; granted: number }[] }).rows;
    if (!row) {
      // The day's first reservation anywhere: its row, then the reservation.
      await db.insert(t).values({ key: DAY_KEY, windowStart: day, count: 0 }).onConflictDoNothing();
      result = await update();
      [row] = (result as unknown as { rows: { before: number; granted: number }[] }).rows;
    }
    const before = Number(row?.before ?? 0);
    const granted = Number(row?.granted ?? 0);
    if (reserved.day !== day) Object.assign(reserved, { day, within: 0, past: 0 });
    if (before < cap) {
      reserved.within += granted;
      if (before + granted >= cap) {
        options.log?.warn(
          { day: isoDay(day), budget: cap, resumesAt: new Date(day + DAY_MS).toISOString() },
          'Google Health daily call budget reached: background collection waits for the next UTC day',
        );
      }
    } else reserved.past += granted;
  }

  /** One reservation at a time per process: callers that find the block used up wait for it. */
  let reserving: Promise<void> | null = null;

  /** Counts a call in the day's budget, or throws DailyBudgetSpent for a caller within it. */
  async function countCall(day: number, withinBudget: boolean) {
    for (;;) {
      if (reserved.day === day && reserved.within > 0) {
        reserved.within -= 1;
        return;
      }
      if (!withinBudget && reserved.day === day && reserved.past > 0) {
        reserved.past -= 1;
        return;
      }
      if (reserving) {
        await reserving;
        continue;
      }
      const before = reserved.day === day ? reserved.within + reserved.past : 0;
      reserving = reserve(day, withinBudget).finally(() => {
        reserving = null;
      });
      await reserving;
      const after = reserved.day === day ? reserved.within + reserved.past : 0;
      // Nothing granted to this kind of caller: the day is spent.
      if (after === before) throw new DailyBudgetSpent(isoDay(day), new Date(day + DAY_MS));
    }
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
    async acquire(healthUserId, signal, acquireOptions = {}) {
      const userKey = `user:${healthUserId}`;
      signal?.throwIfAborted();
      // The day first: a spent budget refuses before any minute's slot is taken.
      if (budget !== null) await countCall(dayOf(now()), acquireOptions.withinDailyBudget === true);
      for (;;) {
        signal?.throwIfAborted();
        const at = now();
        const window = Math.floor(at / WINDOW_MS) * WINDOW_MS;
        if (await userCounter(userKey, window).take(window)) {
          if (await project.take(window)) return window;
          // The project's window is full: the user's slot goes back for the next caller.
          await giveBack(userKey, window);
        }
        await wait(window + WINDOW_MS - at + Math.floor(random() * 250), signal);
      }
    },
    async prune() {
      const at = now();
      await db
        .delete(t)
        .where(
          or(
            and(ne(t.key, DAY_KEY), lt(t.windowStart, at - 10 * WINDOW_MS)),
            and(eq(t.key, DAY_KEY), lt(t.windowStart, dayOf(at) - DAYS_KEPT * DAY_MS)),
          ),
        );
    },
  };
}
