import type { DataType } from '@research/contracts';
import { COLLECTION_REASONS } from '@research/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { participants, wearableConnections } from '../../db/schema/index.js';
import { startJobQueue } from '../../platform/jobs.js';
import { collectionBase } from '../../test/collection-kit.js';
import { useExtractionKit } from '../../test/extraction-kit.js';
import { createTestApp, eventually } from '../../test/test-app.js';
import {
  consentAt,
  participantSessionHeaders,
  studyWithParticipants,
} from '../../test/wearables-kit.js';
import { civilDateIn, createDataset, type LedgerRow } from '../dataset/index.js';
import { addDays } from '../extraction/index.js';
import { COLLECTED_TYPES, createCollection } from './index.js';

const DAY_MS = 86_400_000;
const TYPES: DataType[] = ['activity_steps_timeseries', 'activity_steps_intraday', 'sleep_log'];

const kit = useExtractionKit();

/** A collection of the test's own over the app's parts, counting the requests it sends Google. */
function ownCollection(
  options: {
    restatementDays?: number;
    backfillDays?: number;
    /** Requests whose path contains this answer Google's 503 (or `status`) instead. */
    failing?: string;
    status?: 403 | 503;
  } = {},
) {
  const { app, config } = kit.testApp;
  const requests: string[] = [];
  let onRequest: (n: number) => void = () => {};
  const collection = createCollection({
    ...collectionBase(app),
    config: {
      ...config,
      collection: {
        ...config.collection,
        restatementDays: options.restatementDays ?? 3,
        backfillDays: options.backfillDays ?? 14,
      },
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
    types: TYPES,
    clientOptions: { retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } },
    fetch: async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const path = new URL(url).pathname;
      requests.push(path);
      onRequest(requests.length);
      if (options.failing && path.includes(options.failing)) {
        const forbidden = options.status === 403;
        return Response.json(
          {
            error: forbidden
              ? { code: 403, status: 'PERMISSION_DENIED', message: 'Insufficient scope.' }
              : { code: 503, status: 'UNAVAILABLE', message: 'Try again later.' },
          },
          { status: forbidden ? 403 : 503 },
        );
      }
      return fetch(input, init);
    },
  });
  const dataCalls = () => requests.filter((path) => path.includes('/dataTypes/')).length;
  return {
    collection,
    requests,
    dataCalls,
    onRequest: (hook: (n: number) => void) => {
      onRequest = hook;
    },
  };
}

/** A participant connected with `account`, enrolled `daysAgo` days ago. */
async function enrolledParticipant(account: string, daysAgo: number) {
  const participant = await kit.connected(account);
  await kit.app.platform.db
    .update(participants)
    .set({ enrolledAt: new Date(Date.now() - daysAgo * DAY_MS) })
    .where(eq(participants.id, participant.id));
  return participant;
}

const ledger = (participantId: string) =>
  createDataset({
    db: kit.app.platform.db,
    objectStore: kit.app.platform.objectStore,
    bucketOf: kit.app.extraction.bucketOf,
  }).readLedger({ studyId: kit.world.study.id, participantId });

const byDay = (rows: LedgerRow[]) => {
  const out = new Map<string, LedgerRow[]>();
  for (const row of rows) out.set(row.date, [...(out.get(row.date) ?? []), row]);
  return out;
};

describe('the sweep', () => {
  it('writes complete partitions for the days the device synced and partial for today; a second sweep fetches only the restatement window', async () => {
    const account = 'sweep.synced@gmail.test';
    const participant = await enrolledParticipant(account, 5);
    kit.sandbox.health.sync(account, Date.now());
    const own = ownCollection({ restatementDays: 3 });

    const first = await own.collection.collectConnection(participant.id);
    expect(first.marked).toEqual({ failed: 0, scopeMissing: 0, revoked: 0 });
    const rows = await ledger(participant.id);
    const timeZone = rows[0]?.timeZone ?? 'UTC';
    const today = civilDateIn(timeZone, new Date());
    const enrolled = civilDateIn(timeZone, new Date(Date.now() - 5 * DAY_MS));
    const days = byDay(rows);
    // Every day from enrolment to today, every type, one row each.
    expect([...days.keys()]).toEqual(
      Array.from({ length: days.size }, (_, n) => addDays(enrolled, n)),
    );
    expect(days.get(today)?.map((r) => r.state)).toEqual(['partial', 'partial', 'partial']);
    for (const [date, dayRows] of days) {
      if (date === today) continue;
      expect(dayRows.map((r) => r.dataType).sort()).toEqual([...TYPES].sort());
      // Steps are there every day the sandbox's person wore the device; sleep may be empty.
      const steps = dayRows.find((r) => r.dataType === 'activity_steps_timeseries');
      expect(steps?.state, date).toBe('complete');
      for (const row of dayRows) expect(['complete', 'empty']).toContain(row.state);
    }
    expect(first.written).toBe(rows.length);
    // The days before the window are a backfill: one range call a type (each type's cap holds
    // them), each day's pages cut from it; the window's days a call a type each.
    const windowDays = [...days.keys()].filter((d) => d >= addDays(today, -2)).length;
    const perDay = TYPES.length;
    expect(own.dataCalls()).toBe(TYPES.length + windowDays * perDay);
    for (const [date, dayRows] of days) {
      const older = date < addDays(today, -2);
      for (const row of dayRows) {
        expect(row.trigger?.kind).toBe('sweep');
        expect(row.trigger?.id?.startsWith('backfill:') ?? false, date).toBe(older);
      }
    }

    // Again: the days before the window are settled and not asked for; the window is.
    const before = own.dataCalls();
    const second = await own.collection.collectConnection(participant.id);
    expect(second.written).toBe(windowDays * TYPES.length);
    expect(own.dataCalls() - before).toBe(windowDays * perDay);
    const again = byDay(await ledger(participant.id));
    for (const [date, dayRows] of days) {
      if (date >= addDays(today, -2)) continue;
      expect(again.get(date)?.map((r) => r.fetchedAt?.getTime())).toEqual(
        dayRows.map((r) => r.fetchedAt?.getTime()),
      );
    }
  });

  it('keeps a day the device has not synced past partial', async () => {
    const account = 'sweep.behind@gmail.test';
    const participant = await enrolledParticipant(account, 3);
    // The tracker last synced two days ago: what came since is not all there yet.
    kit.sandbox.health.sync(account, Date.now() - 2 * DAY_MS);
    const own = ownCollection();
    await own.collection.collectConnection(participant.id);
    const rows = await ledger(participant.id);
    const timeZone = rows[0]?.timeZone ?? 'UTC';
    const synced = civilDateIn(timeZone, new Date(Date.now() - 2 * DAY_MS));
    for (const row of rows) {
      if (row.date >= synced) expect(row.state, row.date).toBe('partial');
      else expect(['complete', 'empty'], row.date).toContain(row.state);
    }
  });

  it('backfills at most the configured number of older days per sweep, oldest first', async () => {
    const account = 'sweep.bounded@gmail.test';
    const participant = await enrolledParticipant(account, 8);
    const own = ownCollection({ restatementDays: 1, backfillDays: 2 });
    await own.collection.collectConnection(participant.id);
    const rows = await ledger(participant.id);
    const timeZone = rows[0]?.timeZone ?? 'UTC';
    const enrolled = civilDateIn(timeZone, new Date(Date.now() - 8 * DAY_MS));
    const today = civilDateIn(timeZone, new Date());
    expect([...byDay(rows).keys()]).toEqual([enrolled, addDays(enrolled, 1), today]);
    await own.collection.collectConnection(participant.id);
    expect([...byDay(await ledger(participant.id)).keys()]).toEqual([
      enrolled,
      addDays(enrolled, 1),
      addDays(enrolled, 2),
      addDays(enrolled, 3),
      today,
    ]);
  });

  it('marks the days revoked when the grant is dead, and asks Google nothing more afterwards', async () => {
    const account = 'sweep.revoked@gmail.test';
    const participant = await enrolledParticipant(account, 2);
    const own = ownCollection();
    await own.collection.collectConnection(participant.id);
    kit.sandbox.health.revoke(account);

    const before = own.requests.length;
    const result = await own.collection.collectConnection(participant.id);
    expect(result.written).toBe(0);
    expect(result.marked.revoked).toBeGreaterThan(0);
    // At most the call that met the dead token (the refresh goes to the token endpoint).
    expect(own.requests.length - before).toBeLessThanOrEqual(1);
    const rows = await ledger(participant.id);
    const timeZone = rows[0]?.timeZone ?? 'UTC';
    const windowStart = addDays(civilDateIn(timeZone, new Date()), -2);
    for (const row of rows.filter((r) => r.date >= windowStart)) {
      expect(row.state).toBe('revoked');
      expect(row.reason).toBe(COLLECTION_REASONS.revoked);
    }
    const [connection] = await kit.app.platform.db
      .select()
      .from(wearableConnections)
      .where(eq(wearableConnections.participantId, participant.id));
    expect(connection?.status).not.toBe('active');

    // The next sweep neither lists the connection nor calls Google for it.
    const targets = await kit.app.services.wearables.collectionTargets();
    expect(targets.map((t) => t.participantId)).not.toContain(participant.id);
    const after = own.requests.length;
    await own.collection.collectConnection(participant.id);
    expect(own.requests.length).toBe(after);
  });

  it('marks a type whose scope was not granted scope_missing, without calling for it', async () => {
    const account = 'sweep.noscope@gmail.test';
    const participant = await kit.connected(account, [
      'https://www.googleapis.com/auth/googlehealth.activity_and_fitness.readonly',
      'https://www.googleapis.com/auth/googlehealth.settings.readonly',
    ]);
    const own = ownCollection();
    const today = civilDateIn('UTC', new Date());
    const result = await own.collection.collectDays({
      participantId: participant.id,
      types: ['sleep_log'],
      dates: [addDays(today, -1)],
      trigger: { kind: 'sweep' },
    });
    expect(result.marked.scopeMissing).toBe(1);
    expect(own.dataCalls()).toBe(0);
    const [row] = await ledger(participant.id);
    expect(row?.state).toBe('scope_missing');
    expect(row?.reason).toMatch(/^Scope not granted: /);
  });

  it('marks a partition failed with the reason when Google keeps failing, and writes the others', async () => {
    const account = 'sweep.failing@gmail.test';
    const participant = await enrolledParticipant(account, 1);
    const own = ownCollection({ failing: '/dataTypes/sleep/' });
    const today = civilDateIn('UTC', new Date());
    const result = await own.collection.collectDays({
      participantId: participant.id,
      types: ['sleep_log', 'activity_steps_timeseries'],
      dates: [today],
      trigger: { kind: 'notification', id: 'n-1' },
    });
    expect(result).toMatchObject({ written: 1, marked: { failed: 1 } });
    const rows = await ledger(participant.id);
    const sleep = rows.find((r) => r.dataType === 'sleep_log');
    expect(sleep?.state).toBe('failed');
    expect(sleep?.reason).toBe(COLLECTION_REASONS.failed('Google Health API: 503 UNAVAILABLE'));
    expect(rows.find((r) => r.dataType === 'activity_steps_timeseries')?.state).toBe('partial');
  });

  it('marks a type Google refuses for its scope scope_missing, naming the scope', async () => {
    const account = 'sweep.forbidden@gmail.test';
    const participant = await enrolledParticipant(account, 1);
    const own = ownCollection({ failing: '/dataTypes/sleep/', status: 403 });
    await own.collection.collectDays({
      participantId: participant.id,
      types: ['sleep_log'],
      dates: [civilDateIn('UTC', new Date())],
      trigger: { kind: 'sweep' },
    });
    const [row] = await ledger(participant.id);
    expect(row?.state).toBe('scope_missing');
    expect(row?.reason).toBe(COLLECTION_REASONS.scopeMissing('Sleep'));
  });

  it('marks the days failed when the participant’s settings cannot be read, for the next sweep', async () => {
    const account = 'sweep.nosettings@gmail.test';
    const participant = await enrolledParticipant(account, 1);
    const own = ownCollection({ failing: '/settings' });
    const result = await own.collection.collectConnection(participant.id);
    expect(result.written).toBe(0);
    expect(result.marked.failed).toBeGreaterThan(0);
    const rows = await ledger(participant.id);
    expect(rows.length).toBe(result.marked.failed);
    for (const row of rows) expect(row.state).toBe('failed');
  });

  it('a collect killed part-way and run again leaves every partition complete, once, with the same checksums', async () => {
    const account = 'sweep.killed@gmail.test';
    const participant = await enrolledParticipant(account, 4);
    kit.sandbox.health.sync(account, Date.now());
    const own = ownCollection();
    const dates = [2, 3, 4].map((n) => addDays(civilDateIn('UTC', new Date()), -n));
    const input = {
      participantId: participant.id,
      types: TYPES,
      dates,
      trigger: { kind: 'sweep' as const },
    };
    // The worker dies after its fifth request: the job is handed out again.
    const killed = new AbortController();
    own.onRequest((n) => {
      if (n === 5) killed.abort(new Error('worker killed'));
    });
    await expect(own.collection.collectDays({ ...input, signal: killed.signal })).rejects.toThrow(
      'worker killed',
    );
    own.onRequest(() => {});
    await own.collection.collectDays(input);
    const retried = await ledger(participant.id);
    expect(retried).toHaveLength(TYPES.length * dates.length);
    // A duplicate copy of the job changes nothing.
    await own.collection.collectDays(input);
    const twice = await ledger(participant.id);
    const sums = (rows: LedgerRow[]) =>
      rows.map((r) => [r.dataType, r.date, r.state, r.version, r.rowsFile?.sha256, r.rawFiles]);
    expect(sums(twice)).toEqual(sums(retried));
    for (const row of twice) expect(['complete', 'empty']).toContain(row.state);
    // Exactly the files the ledger names are stored: nothing left over from the killed copy.
    const listed = new Set(
      twice.flatMap((r) => [
        ...(r.rowsFile ? [r.rowsFile.key] : []),
        ...r.rawFiles.map((f) => f.key),
      ]),
    );
    const stored = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await kit.app.platform.objectStore.listObjects(kit.bucket(), {
        prefix: 'dataset/',
        cursor,
      });
      for (const object of page.objects) {
        if (object.key.includes(participant.id)) stored.add(object.key);
      }
      cursor = page.nextCursor;
    } while (cursor);
    expect(stored).toEqual(listed);
  });
});

describe('a new connection', () => {
  it('queues its backfill at once, and a sweep meanwhile adds no second job', async () => {
    const testApp = await createTestApp({
      env: { COLLECTION_ON_CONNECT: 'true', RUN_WORKERS: 'false' },
    });
    try {
      const { app } = testApp;
      const world = await studyWithParticipants(app);
      const participant = await world.addParticipant();
      const url = await app.inject({
        method: 'GET',
        url: '/api/fitbit/auth-url',
        headers: await participantSessionHeaders(app, world.study.studyCode, participant),
        query: { participantId: participant.id, studyCode: world.study.studyCode },
      });
      expect(url.statusCode, url.body).toBe(200);
      const consent = await consentAt((url.json() as { authUrl: string }).authUrl, {
        account: 'sweep.new@gmail.test',
      });
      const callback = await app.inject({
        method: 'POST',
        url: '/api/fitbit/callback',
        payload: { code: consent.code, state: consent.state, participantId: participant.id },
      });
      expect(callback.statusCode, callback.body).toBe(200);
      expect(await app.collection.sweep()).toBe(0);
      const jobs = await app.platform.jobs.boss.findJobs('collection-connection', {
        key: `collection:${participant.id}`,
      });
      expect(jobs.map((j) => j.data)).toEqual([{ participantId: participant.id }]);
    } finally {
      await testApp.close();
    }
  });
});

describe('the sweep on its schedule', () => {
  it('is scheduled hourly, and its job collects every active connection through the workers', async () => {
    const testApp = await createTestApp({ env: { COLLECTION_SWEEP_CRON: '0 * * * *' } });
    try {
      const { app } = testApp;
      const schedules = await app.platform.jobs.boss.getSchedules('collection-sweep');
      expect(schedules.map((s) => [s.cron, s.timezone])).toEqual([['0 * * * *', 'UTC']]);

      const world = await studyWithParticipants(app);
      const participant = await world.addParticipant();
      const url = await app.inject({
        method: 'GET',
        url: '/api/fitbit/auth-url',
        headers: await participantSessionHeaders(app, world.study.studyCode, participant),
        query: { participantId: participant.id, studyCode: world.study.studyCode },
      });
      const consent = await consentAt((url.json() as { authUrl: string }).authUrl, {
        account: 'sweep.scheduled@gmail.test',
      });
      const callback = await app.inject({
        method: 'POST',
        url: '/api/fitbit/callback',
        payload: { code: consent.code, state: consent.state, participantId: participant.id },
      });
      expect(callback.statusCode, callback.body).toBe(200);

      await app.platform.jobs.send(app.collection.sweepJob, {});
      const dataset = createDataset({
        db: app.platform.db,
        objectStore: app.platform.objectStore,
        bucketOf: app.extraction.bucketOf,
      });
      // Enrolled today: today's partition of every collected type, partial.
      const rows = await eventually(async () => {
        const found = await dataset.readLedger({
          studyId: world.study.id,
          participantId: participant.id,
        });
        return found.length === COLLECTED_TYPES.length ? found : undefined;
      }, 60_000);
      expect(rows.map((r) => r.dataType).sort()).toEqual([...COLLECTED_TYPES].sort());
      for (const row of rows) expect(row.state).toBe('partial');
      expect(rows.every((r) => r.trigger?.kind === 'sweep')).toBe(true);
    } finally {
      await testApp.close();
    }
  }, 90_000);
});

describe('a connection job whose worker dies', () => {
  it('is retried by pg-boss and leaves every partition written once, as a clean run would', async () => {
    const testApp = await createTestApp({ env: { RUN_WORKERS: 'false' } });
    const { app, config } = testApp;
    let queue: Awaited<ReturnType<typeof startJobQueue>> | undefined;
    try {
      const world = await studyWithParticipants(app);
      const participant = await world.addParticipant({
        enrolledAt: new Date(Date.now() - 3 * DAY_MS),
      });
      const url = await app.inject({
        method: 'GET',
        url: '/api/fitbit/auth-url',
        headers: await participantSessionHeaders(app, world.study.studyCode, participant),
        query: { participantId: participant.id, studyCode: world.study.studyCode },
      });
      const consent = await consentAt((url.json() as { authUrl: string }).authUrl, {
        account: 'sweep.crash@gmail.test',
      });
      const callback = await app.inject({
        method: 'POST',
        url: '/api/fitbit/callback',
        payload: { code: consent.code, state: consent.state, participantId: participant.id },
      });
      expect(callback.statusCode, callback.body).toBe(200);

      const dataset = createDataset({
        db: app.platform.db,
        objectStore: app.platform.objectStore,
        bucketOf: app.extraction.bucketOf,
      });
      let requests = 0;
      const collection = createCollection({
        ...collectionBase(app),
        config,
        dataset,
        wearables: app.services.wearables,
        quota: app.extraction.quota,
        jobs: () => queue as NonNullable<typeof queue>,
        retry: { limit: 2, delaySeconds: 1 },
        types: TYPES,
        // The first attempt's process dies at its eighth request, part-way through the days.
        fetch: async (input, init) => {
          requests += 1;
          if (requests === 8) throw new DOMException('worker killed', 'AbortError');
          return fetch(input, init);
        },
      });
      queue = await startJobQueue({
        executor: app.platform.database.executor,
        definitions: collection.jobs,
        pollingIntervalSeconds: 0.5,
      });
      await queue.startWorkers();
      const id = await queue.send(collection.connectionJob, { participantId: participant.id });
      const job = await eventually(async () => {
        const [found] = await (queue as NonNullable<typeof queue>).boss.findJobs(
          'collection-connection',
          { id },
        );
        return found?.state === 'completed' ? found : undefined;
      }, 30_000);
      expect(job.retryCount).toBe(1);

      const rows = await dataset.readLedger({
        studyId: world.study.id,
        participantId: participant.id,
      });
      const timeZone = rows[0]?.timeZone ?? 'UTC';
      const today = civilDateIn(timeZone, new Date());
      const enrolled = civilDateIn(timeZone, new Date(Date.now() - 3 * DAY_MS));
      expect(rows).toHaveLength(TYPES.length * (1 + daysBetween(enrolled, today)));
      for (const row of rows) {
        const settled = row.date === today ? ['partial'] : ['complete', 'empty'];
        expect(settled, `${row.dataType} ${row.date}`).toContain(row.state);
      }
      // A clean run over the same days finds the same contents: no version moves.
      await collection.collectDays({
        participantId: participant.id,
        types: TYPES,
        dates: rows.map((r) => r.date).filter((d) => d !== today),
        trigger: { kind: 'sweep' },
      });
      const clean = await dataset.readLedger({
        studyId: world.study.id,
        participantId: participant.id,
      });
      const versions = (list: LedgerRow[]) =>
        list
          .filter((r) => r.date !== today)
          .map((r) => [r.dataType, r.date, r.version, r.rowsFile?.sha256]);
      expect(versions(clean)).toEqual(versions(rows));
      // Exactly the files the ledger names are stored.
      const listed = new Set(
        clean.flatMap((r) => [
          ...(r.rowsFile ? [r.rowsFile.key] : []),
          ...r.rawFiles.map((f) => f.key),
        ]),
      );
      const page = await app.platform.objectStore.listObjects(
        app.extraction.bucketOf(world.study.id),
        { prefix: 'dataset/' },
      );
      expect(new Set(page.objects.map((o) => o.key))).toEqual(listed);
    } finally {
      await queue?.stop(1000);
      await testApp.close();
    }
  }, 90_000);
});

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
