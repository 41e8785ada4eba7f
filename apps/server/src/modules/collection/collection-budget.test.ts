import type { DataType } from '@research/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { extractionQuotaWindows, participants } from '../../db/schema/index.js';
import { collectionBase } from '../../test/collection-kit.js';
import { useExtractionKit } from '../../test/extraction-kit.js';
import { createDataset } from '../dataset/index.js';
import { createDbQuota, DailyBudgetSpent } from '../extraction/index.js';
import { createCollection } from './index.js';

/** Collection within the project's daily budget of Google Health calls. */

const DAY_MS = 86_400_000;
const TYPES: DataType[] = ['activity_steps_timeseries', 'activity_steps_intraday', 'sleep_log'];

const kit = useExtractionKit();

function budgetedCollection(budget: number) {
  const { app, config } = kit.testApp;
  const clock = { now: Date.now() };
  const requests: string[] = [];
  const quota = createDbQuota(
    app.platform.db,
    { ...config.extraction, dailyCallBudget: budget },
    { now: () => clock.now },
  );
  const dataset = createDataset({
    db: app.platform.db,
    objectStore: app.platform.objectStore,
    bucketOf: app.extraction.bucketOf,
  });
  const collection = createCollection({
    ...collectionBase(app),
    config: { ...config, collection: { ...config.collection, restatementDays: 3 } },
    dataset,
    wearables: app.services.wearables,
    quota,
    jobs: () => ({ send: async () => 'not-queued' }) as never,
    retry: { limit: 1, delaySeconds: 1 },
    types: TYPES,
    clientOptions: { retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } },
    fetch: async (input, init) => {
      requests.push(String(input));
      return fetch(input, init);
    },
  });
  return { collection, clock, requests, quota, dataset };
}

describe('collection within the daily call budget', () => {
  it('stops calling once the budget is spent, marks nothing failed, and finishes the next UTC day', async () => {
    const participant = await kit.connected('budget.sweep@gmail.test');
    await kit.app.platform.db
      .update(participants)
      .set({ enrolledAt: new Date(Date.now() - 2 * DAY_MS) })
      .where(eq(participants.id, participant.id));
    // Five calls left today: the settings, the devices and a few days' calls.
    const own = budgetedCollection(1_000);
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS + 3 * DAY_MS;
    own.clock.now = today + 1;
    await kit.app.platform.db
      .insert(extractionQuotaWindows)
      .values({ key: 'project-day', windowStart: today, count: 995 });

    const stopped = await own.collection.collectConnection(participant.id).catch((e) => e);
    expect(stopped).toBeInstanceOf(DailyBudgetSpent);
    expect(own.requests).toHaveLength(5);
    const partway = await own.dataset.readLedger({
      studyId: kit.world.study.id,
      participantId: participant.id,
    });
    // What was fetched is written; nothing is marked failed (or anything else) for the rest.
    expect(partway.length).toBeGreaterThan(0);
    expect(partway.every((row) => ['complete', 'partial', 'empty'].includes(row.state))).toBe(true);

    // The connection's job ends quietly (a retry would only be refused again).
    await expect(
      own.collection.connectionJob.handler({
        data: { participantId: participant.id },
      } as never),
    ).resolves.toBeUndefined();
    expect(own.requests).toHaveLength(5);

    own.clock.now += DAY_MS;
    const result = await own.collection.collectConnection(participant.id);
    expect(result.marked).toEqual({ failed: 0, scopeMissing: 0, revoked: 0 });
    const after = await own.dataset.readLedger({
      studyId: kit.world.study.id,
      participantId: participant.id,
    });
    expect(after.length).toBeGreaterThan(partway.length);
    expect(after.every((row) => ['complete', 'partial', 'empty'].includes(row.state))).toBe(true);
  });
});
