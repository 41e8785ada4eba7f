import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractionQuotaWindows } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { createDbQuota, DailyBudgetSpent } from './quota.js';

/** The project's daily budget of Google Health calls (GOOGLE_HEALTH_DAILY_CALL_BUDGET). */

let testApp: TestApp;

beforeAll(async () => {
  testApp = await createTestApp({ withoutSandbox: true });
}, 60_000);

afterAll(async () => {
  await testApp?.close();
});

const DAY_MS = 86_400_000;
const LIMITS = { perUserPerMinute: 1_000, perProjectPerMinute: 10_000 };
const background = { withinDailyBudget: true };

/** A quota on the test database with its own clock and log; each test uses days of its own. */
function quotaAt(clock: { now: number }, dailyCallBudget: number | null) {
  const said: { details: object; message: string }[] = [];
  const quota = createDbQuota(
    testApp.app.platform.db,
    { ...LIMITS, dailyCallBudget },
    {
      now: () => clock.now,
      log: { warn: (details, message) => said.push({ details, message }) },
    },
  );
  return { quota, said };
}

async function counted(key: string, windowStart: number) {
  const [row] = await testApp.app.platform.db
    .select({ count: extractionQuotaWindows.count })
    .from(extractionQuotaWindows)
    .where(
      and(eq(extractionQuotaWindows.key, key), eq(extractionQuotaWindows.windowStart, windowStart)),
    );
  return row?.count;
}

describe('the daily call budget', () => {
  it('refuses background callers once spent; researchers’ runs go on and count; said once', async () => {
    const day = 20_400 * DAY_MS; // 2025-11-08
    const clock = { now: day + 23 * 3_600_000 };
    const { quota, said } = quotaAt(clock, 3);
    for (let i = 0; i < 3; i++) await quota.acquire('bg-user', undefined, background);

    const refused = await quota.acquire('bg-user', undefined, background).catch((e) => e);
    expect(refused).toBeInstanceOf(DailyBudgetSpent);
    expect(refused).toMatchObject({ day: '2025-11-08', resumesAt: new Date(day + DAY_MS) });
    // The refused call took nothing: the user's minute holds the one block of 10 (1/30 of 1,000,
    // at most 10) the three calls made were handed out from.
    const minute = Math.floor(clock.now / 60_000) * 60_000;
    expect(await counted('user:bg-user', minute)).toBe(10);
    // The project's minute holds the one block this process reserved (1/1000 of 10,000).
    expect(await counted('project', minute)).toBe(10);

    // A researcher's run is not stopped by the budget, and its calls are counted too.
    await quota.acquire('researcher-user');
    await quota.acquire('researcher-user');
    expect(await counted('project-day', day)).toBe(5);
    await expect(quota.acquire('other-user', undefined, background)).rejects.toBeInstanceOf(
      DailyBudgetSpent,
    );

    expect(said).toEqual([
      {
        details: { day: '2025-11-08', budget: 3, resumesAt: '2025-11-09T00:00:00.000Z' },
        message:
          'Google Health daily call budget reached: background collection waits for the next UTC day',
      },
    ]);
  });

  it('allows background calls again on the next UTC day', async () => {
    const day = 20_410 * DAY_MS;
    const clock = { now: day + DAY_MS - 1 };
    const { quota } = quotaAt(clock, 1);
    await quota.acquire('next-day-user', undefined, background);
    await expect(quota.acquire('next-day-user', undefined, background)).rejects.toBeInstanceOf(
      DailyBudgetSpent,
    );
    clock.now = day + DAY_MS;
    expect(await quota.acquire('next-day-user', undefined, background)).toBe(day + DAY_MS);
    expect(await counted('project-day', day + DAY_MS)).toBe(1);
  });

  it('is one budget for every process: two quotas on one database grant it exactly once', async () => {
    const day = 20_420 * DAY_MS;
    const clock = { now: day + 3_600_000 };
    const workers = [quotaAt(clock, 7), quotaAt(clock, 7)];
    const outcomes = await Promise.all(
      workers.flatMap(({ quota }, w) =>
        Array.from({ length: 6 }, (_, n) =>
          quota.acquire(`shared-${w}-${n}`, undefined, background).then(
            () => 'granted',
            (error) => (error instanceof DailyBudgetSpent ? 'refused' : error),
          ),
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'granted')).toHaveLength(7);
    expect(outcomes.filter((o) => o === 'refused')).toHaveLength(5);
    expect(await counted('project-day', day)).toBe(7);
    // The last call was taken in one process: it alone said so.
    expect(workers.flatMap((w) => w.said)).toHaveLength(1);
  });

  it('reserves a large budget in blocks: a process’s unused calls are counted, never more than a block', async () => {
    const day = 20_425 * DAY_MS;
    const clock = { now: day + 1 };
    const { quota } = quotaAt(clock, 100_000);
    for (let i = 0; i < 60; i++) await quota.acquire(`block-${i % 3}`, undefined, background);
    // Two blocks of 50 (a thousandth of the budget, 50 at most) for 60 calls.
    expect(await counted('project-day', day)).toBe(100);
  });

  it('counts nothing without a budget', async () => {
    const day = 20_430 * DAY_MS;
    const { quota } = quotaAt({ now: day + 1 }, null);
    for (let i = 0; i < 3; i++) await quota.acquire('unbudgeted', undefined, background);
    expect(await counted('project-day', day)).toBeUndefined();
  });

  it('keeps a week of day counters when the minute windows are pruned', async () => {
    const day = 20_440 * DAY_MS;
    const db = testApp.app.platform.db;
    await db.insert(extractionQuotaWindows).values(
      [8, 7, 1, 0].map((back) => ({
        key: 'project-day',
        windowStart: day - back * DAY_MS,
        count: 1,
      })),
    );
    await quotaAt({ now: day + 12 * 3_600_000 }, 10).quota.prune();
    const kept = await Promise.all(
      [8, 7, 1, 0].map((back) => counted('project-day', day - back * DAY_MS)),
    );
    expect(kept).toEqual([undefined, 1, 1, 1]);
  });
});
