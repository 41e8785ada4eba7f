import { COLLECTION_REASONS, type DataType, GOOGLE_HEALTH_READ_SCOPES } from '@research/contracts';
import { describe, expect, it } from 'vitest';
import { collectionBase } from '../../test/collection-kit.js';
import { useExtractionKit } from '../../test/extraction-kit.js';
import { civilDateIn, createDataset, type LedgerRow } from '../dataset/index.js';
import { addDays, callsFor } from '../extraction/index.js';
import { createCollection } from './index.js';

/**
 * A backfill (a sweep's run of days older than the restatement window) asks Google for ranges and
 * cuts each answer into the days' pages: every partition it writes is the one a day-at-a-time
 * fetch writes (same version, hence the same Parquet bytes and the same raw pages; same rows,
 * figures and state), with far fewer calls.
 */

const kit = useExtractionKit({ env: { EXTRACTION_PER_USER_PER_MINUTE: '100000' } });

/** The daily and summary types, and the minute series, whose calls span several days. */
const DAILY: DataType[] = [
  'activity_summary',
  'activity_steps_timeseries',
  'activity_calories_timeseries',
  'activity_distance_timeseries',
  'heartrate_summary',
  'heartrate_timeseries',
  'sleep_log',
];
const MINUTES: DataType[] = [
  'activity_steps_intraday',
  'activity_calories_intraday',
  'heartrate_intraday_1min',
];

/** A collection of the test's own, counting the requests it sends Google. */
function ownCollection(options: { restatementDays: number; failing?: string }) {
  const { app, config } = kit.testApp;
  const requests: string[] = [];
  let onRequest: (n: number) => void = () => {};
  const collection = createCollection({
    ...collectionBase(app),
    config: {
      ...config,
      collection: { ...config.collection, restatementDays: options.restatementDays },
    },
    dataset: createDataset({
      db: app.platform.db,
      objectStore: app.platform.objectStore,
      bucketOf: app.extraction.bucketOf,
    }),
    wearables: app.services.wearables,
    quota: app.extraction.quota,
    jobs: () => ({ send: async () => 'not-queued' }) as never,
    retry: { limit: 1, delaySeconds: 1 },
    clientOptions: { retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } },
    fetch: async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const path = new URL(url).pathname;
      requests.push(path);
      onRequest(requests.length);
      if (options.failing && path.includes(options.failing)) {
        return Response.json(
          { error: { code: 503, status: 'UNAVAILABLE', message: 'Try again later.' } },
          { status: 503 },
        );
      }
      return fetch(input, init);
    },
  });
  const dataCalls = () => requests.filter((path) => path.includes('/dataTypes/')).length;
  return {
    collection,
    dataCalls,
    onRequest: (hook: (n: number) => void) => {
      onRequest = hook;
    },
  };
}

const ledger = (participantId: string) =>
  createDataset({
    db: kit.app.platform.db,
    objectStore: kit.app.platform.objectStore,
    bucketOf: kit.app.extraction.bucketOf,
  }).readLedger({ studyId: kit.world.study.id, participantId });

const key = (row: LedgerRow) => `${row.dataType} ${row.date}`;
/** A row without what a new fetch of the same answers moves: when and why it was fetched. */
const contents = ({ fetchedAt, updatedAt, trigger, ...rest }: LedgerRow) => rest;

/** `n` days ending four days ago in `timeZone`, oldest first: all before a 3-day window. */
function olderDays(timeZone: string, n: number) {
  const last = addDays(civilDateIn(timeZone, new Date()), -4);
  return Array.from({ length: n }, (_, i) => addDays(last, i - n + 1));
}

/** The participant's time zone as their settings give it (the ledger's, after a first write). */
async function timeZoneOf(participantId: string) {
  return (await ledger(participantId))[0]?.timeZone ?? 'UTC';
}

describe('a backfill by range calls', () => {
  it('writes for every daily, summary and minute type the partitions a day-at-a-time fetch writes, with the calls of the ranges only', async () => {
    kit.sandbox.health.setControls({ perUserPerMinute: 100_000 });
    const account = 'backfill.ranges@gmail.test';
    const participant = await kit.connected(account);
    kit.sandbox.health.sync(account, Date.now());
    const types = [...DAILY, ...MINUTES];

    // A window as wide as the days: every day fetched on its own, pages as received.
    const daily = ownCollection({ restatementDays: 31 });
    const dates = olderDays(await probeZone(participant.id), 26);
    const input = {
      participantId: participant.id,
      types,
      dates,
      trigger: { kind: 'sweep' as const },
    };
    const before = daily.dataCalls();
    const one = await daily.collection.collectDays(input);
    expect(one.written).toBe(types.length * dates.length);
    const perDayCalls = daily.dataCalls() - before;
    expect(perDayCalls).toBe(
      types.reduce(
        (sum, type) =>
          sum +
          dates.length *
            callsFor(type, dates[0] as string, dates[0] as string, GOOGLE_HEALTH_READ_SCOPES)
              .length,
        0,
      ),
    );
    const byDay = new Map((await ledger(participant.id)).map((row) => [key(row), row]));

    // The usual window: the same days are a backfill.
    const ranged = ownCollection({ restatementDays: 3 });
    const result = await ranged.collection.collectDays(input);
    expect(result).toMatchObject({ written: types.length * dates.length, marked: { failed: 0 } });
    // Each spec's cap: a call per 90 or 14 days of daily roll-ups, per 25 nights, per 6 days of
    // minutes (the last piece of sleep, one day, is that day's own call).
    const first = dates[0] as string;
    const last = dates.at(-1) as string;
    const expected = types.reduce(
      (sum, type) => sum + callsFor(type, first, last, GOOGLE_HEALTH_READ_SCOPES).length,
      0,
    );
    expect(ranged.dataCalls()).toBe(expected);
    expect(ranged.dataCalls()).toBeLessThan(perDayCalls / 10);
    expect(result.calls).toBe(expected + 2);

    const rows = (await ledger(participant.id)).filter((row) => dates.includes(row.date));
    expect(rows).toHaveLength(types.length * dates.length);
    for (const row of rows) {
      const before = byDay.get(key(row));
      expect(before, key(row)).toBeDefined();
      // Same version: the same Parquet bytes and the same raw pages, byte for byte.
      expect(contents(row), key(row)).toEqual(contents(before as LedgerRow));
      expect(['complete', 'empty'], key(row)).toContain(row.state);
      expect(row.fetchedAt?.getTime()).toBeGreaterThan(before?.fetchedAt?.getTime() ?? 0);
      // The ledger says the pages were cut from a range's answer, and which.
      const cut = row.dataType !== 'sleep_log' || row.date !== dates.at(-1);
      if (cut)
        expect(row.trigger?.id, key(row)).toMatch(/^backfill:\d{4}-\d\d-\d\d\.\.\d{4}-\d\d-\d\d$/);
      else expect(row.trigger).toEqual({ kind: 'sweep' });
    }
    // The minute roll-ups hold their local day's minutes (a calories bucket every minute; the
    // days include the flight to Berlin and back, cut in the settings' zone), in the current format.
    for (const row of rows.filter((r) => r.dataType === 'activity_calories_intraday')) {
      expect(row.rowCount, key(row)).toBe(1440);
    }
    for (const row of rows.filter((r) => MINUTES.includes(r.dataType))) {
      expect(row.format, key(row)).toBe(2);
    }
    // Some rows of every type, so the equality says something.
    for (const type of types) {
      const total = rows.filter((r) => r.dataType === type).reduce((s, r) => s + r.rowCount, 0);
      expect(total, type).toBeGreaterThan(0);
    }
  }, 240_000);

  it('marks the days of a range failed when one of its calls fails, writing none of them', async () => {
    const account = 'backfill.failing@gmail.test';
    const participant = await kit.connected(account);
    kit.sandbox.health.sync(account, Date.now());
    // The 14-day total-calories calls fail; the 90-day ones of the summary answer.
    const own = ownCollection({ restatementDays: 3, failing: '/dataTypes/total-calories/' });
    const dates = olderDays(await probeZone(participant.id), 10);
    const result = await own.collection.collectDays({
      participantId: participant.id,
      types: ['activity_summary', 'activity_steps_timeseries'],
      dates,
      trigger: { kind: 'sweep' },
    });
    expect(result).toMatchObject({ written: 10, marked: { failed: 10 } });
    const rows = (await ledger(participant.id)).filter((row) => dates.includes(row.date));
    for (const row of rows.filter((r) => r.dataType === 'activity_summary')) {
      expect(row.state).toBe('failed');
      expect(row.reason).toBe(COLLECTION_REASONS.failed('Google Health API: 503 UNAVAILABLE'));
      expect(row.rawFiles).toEqual([]);
      expect(row.rowsFile).toBeNull();
    }
    for (const row of rows.filter((r) => r.dataType === 'activity_steps_timeseries')) {
      expect(row.state).toBe('complete');
    }
  }, 120_000);

  // Requests: settings, devices, the steps' one range call, then sleep's. The grant is withdrawn
  // as the request numbered `at` goes out.
  it.each([
    { during: 'the first range', at: 3, steps: 'revoked', written: 0, revoked: 20 },
    { during: 'a later type', at: 4, steps: 'complete', written: 10, revoked: 10 },
  ])(
    'when the grant dies during $during, keeps what was fetched before and marks the rest revoked',
    async ({ at, steps, written, revoked }) => {
      const account = `backfill.revoked.${at}@gmail.test`;
      const participant = await kit.connected(account);
      const own = ownCollection({ restatementDays: 3 });
      const dates = olderDays(await probeZone(participant.id), 10);
      own.onRequest((n) => {
        if (n === at) kit.sandbox.health.revoke(account);
      });
      const result = await own.collection.collectDays({
        participantId: participant.id,
        types: ['activity_steps_timeseries', 'sleep_log'],
        dates,
        trigger: { kind: 'sweep' },
      });
      expect(result).toMatchObject({ written, marked: { revoked } });
      const rows = (await ledger(participant.id)).filter((row) => dates.includes(row.date));
      expect(rows).toHaveLength(20);
      const stateOf = (type: DataType) =>
        new Set(rows.filter((r) => r.dataType === type).map((r) => r.state));
      expect(stateOf('activity_steps_timeseries')).toEqual(new Set([steps]));
      expect(stateOf('sleep_log')).toEqual(new Set(['revoked']));
    },
    120_000,
  );
});

/** The participant's time zone, from one partition written for yesterday. */
async function probeZone(participantId: string) {
  const own = ownCollection({ restatementDays: 3 });
  await own.collection.collectDays({
    participantId,
    types: ['activity_steps_timeseries'],
    dates: [addDays(civilDateIn('UTC', new Date()), -1)],
    trigger: { kind: 'sweep' },
  });
  return timeZoneOf(participantId);
}
