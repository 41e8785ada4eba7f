import type { DataType } from '@research/contracts';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { datasetPartitions } from '../../db/schema/index.js';
import { bearer } from '../../test/auth-helpers.js';
import { useExtractionKit } from '../../test/extraction-kit.js';
import { addDays } from './plan.js';

/**
 * A run over days the study's dataset holds settled reads them instead of asking Google, and
 * writes the same CSV bytes as a fresh run. "Fresh" runs go first, while the dataset is empty;
 * then the days are collected; then the same runs again. Calls are counted where Google would
 * count them: the sandbox's request log.
 */

const kit = useExtractionKit({ env: { EXTRACTION_PER_USER_PER_MINUTE: '100000' } });

// One type per call shape: list on civil dates (daily, interval start, sample time, sleep end),
// daily roll-ups with 90- and 14-day caps, and 60-second roll-ups cut at local midnights.
const TYPES: DataType[] = [
  'heartrate_summary',
  'activity_steps_intraday',
  'heartrate_intraday_1min',
  'heartrate_intraday_1sec',
  'sleep_log',
];
/** Nine days, DST end (US, 1 November) included: two 6-day chunks for the minute series. */
const COLLECTED = { start: '2026-10-31', end: '2026-11-08' };
/** Two more days the dataset does not hold. */
const WIDER = { start: '2026-10-31', end: '2026-11-10' };
/** One day: every call of the run is then the dataset's own one-day call. */
const ONE_DAY = { start: '2026-11-08', end: '2026-11-08' };
const account = 'reuse.dataset@gmail.test';

interface ManifestRequest {
  source?: 'dataset';
  call?: string;
  partition?: { type: string; date: string; version: string; object: string; state: string };
  url?: string;
  fetchedAt: string;
  object: string;
  bytes: number;
  sha256: string;
}
interface Manifest {
  participants: { tasks: { dataType: string; status: string; requests: ManifestRequest[] }[] }[];
}

let participantId = '';
const googleCalls = () => kit.sandbox.health.requests(account).length;
/**
 * A task of a minute roll-up type asks for the participant's time zone first, even when the
 * dataset holds every day: the zone says whether a held day was cut where the run cuts.
 */
const isZoneCall = (request: ManifestRequest) => request.url?.endsWith('/settings') === true;

/** Runs the owner's extraction over `range` to its end: its id and the calls it made Google. */
async function runOver(name: string, range: { start: string; end: string }) {
  const before = googleCalls();
  const res = await kit.call({
    method: 'POST',
    url: '/api/data-extraction/extract-participant-data',
    headers: bearer(kit.world.owner.token),
    payload: {
      participantIds: [participantId],
      extractionName: name,
      dataTypes: TYPES,
      dateRange: { startDate: range.start, endDate: range.end, mode: 'range' },
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const { runId } = res.json() as { runId: string };
  const run = await kit.finished(runId);
  expect(run?.status).toBe('completed');
  const manifest = JSON.parse(
    (await kit.readObject(`extractions/${runId}/manifest.json`)).toString(),
  ) as Manifest;
  for (const task of manifest.participants[0]?.tasks ?? []) expect(task.status).toBe('completed');
  return { runId, calls: googleCalls() - before, manifest };
}

const csvOf = (runId: string, name: string) => kit.readObject(`extractions/${runId}/${name}.csv`);
const requestsOf = (manifest: Manifest) =>
  manifest.participants.flatMap((p) => p.tasks.flatMap((t) => t.requests));

describe('an extraction run over days the dataset holds', () => {
  let fresh: Awaited<ReturnType<typeof runOver>>;
  let freshWider: Awaited<ReturnType<typeof runOver>>;
  let freshDay: Awaited<ReturnType<typeof runOver>>;

  beforeAll(async () => {
    kit.sandbox.health.setControls({ perUserPerMinute: 100_000 });
    participantId = (await kit.connected(account)).id;
    kit.sandbox.health.sync(account, Date.now());
    fresh = await runOver('Fresh', COLLECTED);
    freshWider = await runOver('Fresh, wider', WIDER);
    freshDay = await runOver('Fresh, one day', ONE_DAY);
    const dates: string[] = [];
    for (let d = COLLECTED.start; d <= COLLECTED.end; d = addDays(d, 1)) dates.push(d);
    const collected = await kit.app.collection.collectDays({
      participantId,
      types: TYPES,
      dates,
      trigger: { kind: 'sweep' },
    });
    expect(collected.written).toBe(TYPES.length * dates.length);
  }, 180_000);

  it('asks Google only for the time zone and writes the same CSV bytes as the fresh run', async () => {
    expect(fresh.calls).toBeGreaterThan(0);
    const again = await runOver('From the dataset', COLLECTED);
    // Two 6-day tasks of one-minute heart rate: one settings call each.
    expect(again.calls).toBe(2);
    expect(requestsOf(again.manifest).filter(isZoneCall)).toHaveLength(2);
    for (const name of [...TYPES, 'data_dictionary']) {
      const [a, b] = [await csvOf(fresh.runId, name), await csvOf(again.runId, name)];
      expect(b.equals(a), name).toBe(true);
    }
    // Some rows of every type, so the equality says something.
    for (const type of TYPES) {
      expect((await kit.csvRows(again.runId, type)).length, type).toBeGreaterThan(0);
    }

    // Each page says where it came from: the partition, when that was fetched, its hash.
    const ledger = await kit.app.platform.db
      .select()
      .from(datasetPartitions)
      .where(eq(datasetPartitions.participantId, participantId));
    const files = new Map(
      ledger.flatMap((row) => row.rawFiles.map((f) => [f.key, { row, file: f }] as const)),
    );
    const requests = requestsOf(again.manifest).filter((r) => !isZoneCall(r));
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) {
      expect(request.source).toBe('dataset');
      expect(request.url).toBeUndefined();
      const stored = files.get(request.partition?.object ?? '');
      expect(stored, request.object).toBeDefined();
      expect(request.partition?.date).toBe(stored?.row.date);
      expect(request.partition?.version).toBe(stored?.row.version);
      expect(request.fetchedAt).toBe(stored?.row.fetchedAt?.toISOString());
      expect(request.sha256).toBe(stored?.file.sha256);
      // The run's copy is the dataset's bytes.
      const copy = await kit.readObject(request.object);
      expect(copy.length).toBe(request.bytes);
    }

    // Raw pages: one-day calls (raw heart rate) are the same requests, hence the same objects;
    // the others are the dataset's one-day pages where the fresh run asked for several days.
    const [freshObjects, againObjects] = [
      await kit.objectsOf(fresh.runId),
      await kit.objectsOf(again.runId),
    ];
    const raw = (objects: Map<string, { sha256: string }>, type: string) =>
      [...objects]
        .filter(([key]) => key.startsWith(`raw/${participantId}/${type}/`))
        .map(([key, o]) => [key, o.sha256]);
    expect(raw(againObjects, 'heartrate_intraday_1sec')).toEqual(
      raw(freshObjects, 'heartrate_intraday_1sec'),
    );
    expect(raw(againObjects, 'activity_steps_intraday').map(([key]) => key)).not.toEqual(
      raw(freshObjects, 'activity_steps_intraday').map(([key]) => key),
    );
  }, 120_000);

  it('over one day writes every file but the manifest as the same object, raw pages included', async () => {
    const again = await runOver('One day from the dataset', ONE_DAY);
    expect(again.calls).toBe(1);
    const [a, b] = [await kit.objectsOf(freshDay.runId), await kit.objectsOf(again.runId)];
    const digests = (objects: Map<string, { sha256: string }>) =>
      [...objects]
        .filter(([key]) => key !== 'manifest.json')
        .map(([key, o]) => [key, o.sha256])
        .sort();
    expect(digests(b)).toEqual(digests(a));
    expect([...a.keys()].filter((key) => key.startsWith('raw/')).length).toBeGreaterThan(0);
  }, 120_000);

  it('over a wider range fetches only the days the dataset lacks, and still writes the fresh bytes', async () => {
    const wider = await runOver('Partly from the dataset', WIDER);
    const requests = requestsOf(wider.manifest);
    const fetched = requests.filter((r) => r.source === undefined);
    const stored = requests.filter((r) => r.source === 'dataset');
    expect(stored.length).toBeGreaterThan(0);
    // Every call it made is in the manifest, and each is for the two missing days only.
    expect(wider.calls).toBe(fetched.length);
    for (const request of fetched.filter((r) => !isZoneCall(r))) {
      const from = /_(\d{4}-\d{2}-\d{2})_p\d+\.json$/.exec(request.object)?.[1] ?? '';
      expect(from > COLLECTED.end, request.object).toBe(true);
    }
    expect(wider.calls).toBeLessThan(freshWider.calls);
    for (const name of [...TYPES, 'data_dictionary']) {
      const [a, b] = [await csvOf(freshWider.runId, name), await csvOf(wider.runId, name)];
      expect(b.equals(a), name).toBe(true);
    }
  }, 120_000);
});
