import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractionQuotaWindows } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { createDbQuota, type DbQuota } from './quota.js';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await createTestApp({ withoutSandbox: true });
}, 60_000);

afterAll(async () => {
  await testApp?.close();
});

const WINDOW_MS = 400;

/**
 * Two "workers" (two quota instances on one database), each with three participants' worth of
 * concurrent callers, take slots; every grant is stamped with its window.
 */
async function race(
  limits: { perUserPerMinute: number; perProjectPerMinute: number },
  users: string[],
) {
  const db = testApp.app.platform.db;
  const workers = [0, 1].map(() => createDbQuota(db, limits, { windowMs: WINDOW_MS }));
  const grants: { user: string; window: number }[] = [];
  await Promise.all(
    workers.flatMap((quota) =>
      users.flatMap((user) =>
        [0, 1, 2].map(async () => {
          for (let i = 0; i < 3; i++) {
            const window = await quota.acquire(user);
            grants.push({ user, window });
          }
        }),
      ),
    ),
  );
  return grants;
}

const countBy = <T>(items: T[], key: (item: T) => string) => {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
};

describe('the quota shared through the database', () => {
  it('never lets one Google user exceed the per-user limit in a window, across two workers', async () => {
    const users = [`u${Date.now()}a`, `u${Date.now()}b`];
    const grants = await race({ perUserPerMinute: 5, perProjectPerMinute: 1000 }, users);
    expect(grants).toHaveLength(2 * 2 * 3 * 3);
    const perUserWindow = countBy(grants, (g) => `${g.user}:${g.window}`);
    expect(Math.max(...perUserWindow.values())).toBeLessThanOrEqual(5);
    // Each user needed 18 calls at 5 per window: at least 4 windows.
    for (const user of users) {
      expect(
        new Set(grants.filter((g) => g.user === user).map((g) => g.window)).size,
      ).toBeGreaterThanOrEqual(4);
    }
  }, 30_000);

  it('keeps to the per-project limit over all users too', async () => {
    const users = [`p${Date.now()}a`, `p${Date.now()}b`, `p${Date.now()}c`];
    const grants = await race({ perUserPerMinute: 100, perProjectPerMinute: 6 }, users);
    const perWindow = countBy(grants, (g) => String(g.window));
    expect(Math.max(...perWindow.values())).toBeLessThanOrEqual(6);
    expect(grants).toHaveLength(3 * 2 * 3 * 3);
  }, 30_000);

  it('gives a user’s slot back when the project’s window is full, so it is not lost', async () => {
    const db = testApp.app.platform.db;
    const window = 7 * 60_000;
    let now = window + 1_000;
    const counts: number[] = [];
    const userB = `give-back-${Date.now()}`;
    const quota = createDbQuota(
      db,
      { perUserPerMinute: 5, perProjectPerMinute: 1 },
      {
        now: () => now,
        random: () => 0,
        // While B waits for the next window, its count in this one is what it has really used.
        sleep: async (ms) => {
          const [row] = await db
            .select({ count: extractionQuotaWindows.count })
            .from(extractionQuotaWindows)
            .where(
              and(
                eq(extractionQuotaWindows.key, `user:${userB}`),
                eq(extractionQuotaWindows.windowStart, window),
              ),
            );
          counts.push(row?.count ?? 0);
          now += ms;
        },
      },
    );
    expect(await quota.acquire(`give-back-a-${Date.now()}`)).toBe(window);
    // The project's one call of this window is used: B waits for the next one.
    expect(await quota.acquire(userB)).toBe(window + 60_000);
    expect(counts).toEqual([0]);
  });
});

describe('the project’s and the users’ slots, reserved in blocks', () => {
  const db = () => testApp.app.platform.db;
  const counted = async (key: string, window: number) => {
    const [row] = await db()
      .select({ count: extractionQuotaWindows.count })
      .from(extractionQuotaWindows)
      .where(
        and(eq(extractionQuotaWindows.key, key), eq(extractionQuotaWindows.windowStart, window)),
      );
    return row?.count ?? 0;
  };

  it('counts blocks for each process: 1/1000 of the project’s limit, 1/30 of the user’s', async () => {
    const window = 11 * 60_000;
    const limits = { perUserPerMinute: 300, perProjectPerMinute: 50_000 };
    const quotas = [0, 1].map(() => createDbQuota(db(), limits, { now: () => window + 5 }));
    const user = `blocks-${Date.now()}`;
    await Promise.all(
      Array.from({ length: 30 }, (_, n) => (quotas[n % 2] as DbQuota).acquire(user)),
    );
    // Each process handed out its 15 calls from two blocks of 10 of the user's window…
    expect(await counted(`user:${user}`, window)).toBe(40);
    // …and from one block of 50 of the project's.
    expect(await counted('project', window)).toBe(100);
  });

  it('never lets a user pass the limit over processes holding blocks: single slots at the edge', async () => {
    const window = 17 * 60_000;
    let now = window + 5;
    const user = `user-edge-${Date.now()}`;
    // 295 of the user's 300 are counted already: no block of 10 fits, five single slots do.
    await db()
      .insert(extractionQuotaWindows)
      .values({ key: `user:${user}`, windowStart: window, count: 295 });
    const options = {
      now: () => now,
      random: () => 0,
      sleep: async (ms: number) => {
        now += ms;
      },
    };
    const limits = { perUserPerMinute: 300, perProjectPerMinute: 50_000 };
    const quotas = [0, 1].map(() => createDbQuota(db(), limits, options));
    // One call at a time, the two processes in turn (concurrent waits would each move the clock).
    const windows: number[] = [];
    for (let n = 0; n < 8; n++) windows.push(await (quotas[n % 2] as DbQuota).acquire(user));
    expect(windows.filter((w) => w === window)).toHaveLength(5);
    expect(windows.filter((w) => w === window + 60_000)).toHaveLength(3);
    expect(await counted(`user:${user}`, window)).toBe(300);
  });

  it('takes single slots when a block would pass the limit, and never passes it', async () => {
    const window = 13 * 60_000;
    let now = window + 5;
    await db()
      .insert(extractionQuotaWindows)
      .values({ key: 'project', windowStart: window, count: 1_999 });
    const quota = createDbQuota(
      db(),
      // Blocks of 2: the window has room for one call only.
      { perUserPerMinute: 300, perProjectPerMinute: 2_000 },
      {
        now: () => now,
        random: () => 0,
        sleep: async (ms) => {
          now += ms;
        },
      },
    );
    const user = `edge-${Date.now()}`;
    expect(await quota.acquire(user)).toBe(window);
    expect(await quota.acquire(user)).toBe(window + 60_000);
    expect(await counted('project', window)).toBe(2_000);
    // The user's block of 10, less the second call's slot: it went back when the project was full.
    expect(await counted(`user:${user}`, window)).toBe(9);
    expect(await counted(`user:${user}`, window + 60_000)).toBe(10);
  });
});

describe('pruning the quota’s windows', () => {
  it('drops windows older than ten minutes and keeps the recent ones, of every key', async () => {
    const db = testApp.app.platform.db;
    const now = 1_000 * 60_000;
    const key = `prune-${Date.now()}`;
    const windows = [
      now - 11 * 60_000,
      now - 10 * 60_000 - 1,
      now - 10 * 60_000,
      now - 60_000,
      now,
    ];
    await db
      .insert(extractionQuotaWindows)
      .values(windows.map((windowStart) => ({ key, windowStart, count: 1 })));
    await createDbQuota(
      db,
      { perUserPerMinute: 5, perProjectPerMinute: 5 },
      { now: () => now },
    ).prune();
    const left = await db
      .select({ windowStart: extractionQuotaWindows.windowStart })
      .from(extractionQuotaWindows)
      .where(eq(extractionQuotaWindows.key, key));
    expect(left.map((w) => Number(w.windowStart)).sort((a, b) => a - b)).toEqual([
      now - 10 * 60_000,
      now - 60_000,
      now,
    ]);
  });
});
