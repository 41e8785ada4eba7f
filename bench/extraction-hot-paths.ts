/**
 * Micro-benchmark of the extraction's hot path per raw heart-rate sample, the bulk of
 * `bench:extraction`'s work (a day is ~29,000 samples, three pages of up to 10,000):
 *
 *   sandbox: CPU the sandbox process (started as `bench:extraction` starts it) spends answering the
 *            engine's heart-rate list calls, per sample sent;
 *   engine:  per sample, in this process: JSON.parse of the pages, tidyRows, the part CSV, SHA-256,
 *            and all of it as the engine does it a page at a time (TaskPart: the page's bytes read
 *            straight into CSV), beside the same pipeline the JSON way.
 *
 *   npm run bench:extraction-hot-paths   (BENCH_DAYS, default 7)
 */

import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Sandbox } from '@research/sandbox';
import { connect } from '../apps/sandbox/src/test/health-flow.js';
import { toCsv } from '../apps/server/src/modules/extraction/csv.js';
import { filterOf } from '../apps/server/src/modules/extraction/engine.js';
import { addDays, DATA_TYPE_CALLS } from '../apps/server/src/modules/extraction/plan.js';
import { TaskPart } from '../apps/server/src/modules/extraction/task-part.js';
import { tidyRows } from '../apps/server/src/modules/extraction/tidy.js';
import { spawnSandbox } from './lib/sandbox-process.js';

const DAYS = Number(process.env.BENCH_DAYS ?? 7);
const START = '2026-11-01';
const ACCOUNT = 'bench.hot.001@gmail.test';

const sandboxDir = await mkdtemp(path.join(os.tmpdir(), 'wrp-bench-hot-'));
const sandbox = await spawnSandbox({ dataDir: sandboxDir });
const sandboxCpu = sandbox.cpuSeconds;
const issuer = sandbox.issuer;
const fakeSandbox = {
  issuer,
  health: {
    urls: {
      authorizationUrl: `${issuer}/o/oauth2/v2/auth`,
      tokenUrl: `${issuer}/token`,
      revokeUrl: `${issuer}/revoke`,
      apiBaseUrl: issuer,
    },
  },
} as unknown as Sandbox;

try {
  const { access_token } = await connect(fakeSandbox, ACCOUNT);
  await fetch(`${issuer}/__admin/health`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ perUserPerMinute: 10_000_000 }),
  });
  const spec = DATA_TYPE_CALLS.heartrate_intraday_1sec[0];
  if (!spec) throw new Error('no heart-rate call');
  // The engine's partial response; BENCH_FIELDS='' asks for whole answers, or another selection.
  const fields = process.env.BENCH_FIELDS ?? spec.fields ?? '';

  /** Every page of the engine's heart-rate calls for the days, as text. */
  async function fetchDays(): Promise<string[][]> {
    const days: string[][] = [];
    for (let d = 0; d < DAYS; d++) {
      const from = addDays(START, d);
      const filter = filterOf({
        spec: spec as NonNullable<typeof spec>,
        from,
        to: addDays(from, 1),
      });
      const pages: string[] = [];
      let token: string | undefined;
      do {
        const params = new URLSearchParams({ filter: filter ?? '', pageSize: '10000' });
        if (token) params.set('pageToken', token);
        if (fields) params.set('fields', fields);
        const res = await fetch(`${issuer}/v4/users/me/dataTypes/heart-rate/dataPoints?${params}`, {
          headers: { authorization: `Bearer ${access_token}` },
        });
        const text = await res.text();
        if (!res.ok) throw new Error(`${res.status} ${text}`);
        pages.push(text);
        token = (JSON.parse(text) as { nextPageToken?: string }).nextPageToken;
      } while (token);
      days.push(pages);
    }
    return days;
  }

  // First round generates the days (cold); the second measures the answers alone (warm cache).
  let before = await sandboxCpu();
  const days = await fetchDays();
  const cold = (await sandboxCpu()) - before;
  before = await sandboxCpu();
  const fetching = process.cpuUsage();
  await fetchDays();
  const fetched = process.cpuUsage(fetching);
  const warm = (await sandboxCpu()) - before;
  const pages = days.flat();
  const samples = pages.reduce((n, t) => n + (t.match(/"beatsPerMinute"/g)?.length ?? 0), 0);
  const bytes = pages.reduce((n, t) => n + Buffer.byteLength(t), 0);
  const us = (seconds: number) => `${((seconds * 1e6) / samples).toFixed(2)} µs/sample`;
  console.log(
    `${DAYS} days, ${pages.length} pages, ${samples} samples, ${(bytes / 1e6).toFixed(1)} MB (fields: ${fields || 'all'})`,
  );
  console.log(`sandbox CPU: first answers (generating) ${us(cold)}; again ${us(warm)}`);
  console.log(
    `this process fetching them (fetch, text, JSON.parse): ${us((fetched.user + fetched.system) / 1e6)}`,
  );

  /** Best of five runs of `work` over all days, in CPU seconds of this process. */
  function cpuOf(work: () => void): number {
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 5; i++) {
      const start = process.cpuUsage();
      work();
      const used = process.cpuUsage(start);
      best = Math.min(best, (used.user + used.system) / 1e6);
    }
    return best;
  }
  const parsed = days.map((day) => day.map((t) => JSON.parse(t) as unknown));
  const window = (d: number) => ({ start: addDays(START, d), end: addDays(START, d) });
  const rows = parsed.map((day, d) =>
    tidyRows('heartrate_intraday_1sec', 'participant-1', window(d), [
      { key: 'heart-rate', pages: day },
    ]),
  );
  const parse = cpuOf(() => {
    for (const t of pages) JSON.parse(t);
  });
  const tidy = cpuOf(() => {
    parsed.forEach((day, d) => {
      tidyRows('heartrate_intraday_1sec', 'participant-1', window(d), [
        { key: 'heart-rate', pages: day },
      ]);
    });
  });
  const csv = cpuOf(() => {
    for (const r of rows) toCsv(r);
  });
  const hash = cpuOf(() => {
    for (const t of pages) createHash('sha256').update(t).digest('hex');
  });
  // What a task does with each page, as the engine does it: the page's bytes read by the part's
  // decoder (raw heart rate: straight into CSV), the bytes hashed for storage. With `json`, the
  // JSON way every other shape takes (JSON.parse, rows, CSV).
  const pipelineOf = (json: boolean) =>
    cpuOf(() => {
      days.forEach((day, d) => {
        const part = new TaskPart('heartrate_intraday_1sec', 'participant-1', window(d));
        const decode = json ? null : part.decoder('heart-rate');
        for (const text of day) {
          const bytes = Buffer.from(text);
          part.add('heart-rate', decode?.(bytes) ?? JSON.parse(text));
          createHash('sha256').update(bytes).digest('hex');
        }
        void part.finish(async () => []);
      });
    });
  console.log(
    `engine CPU: JSON.parse ${us(parse)}, tidyRows ${us(tidy)}, CSV ${us(csv)}, SHA-256 ${us(hash)}; ` +
      `the engine's pipeline per page (bytes read into the part, hash) ${us(pipelineOf(false))}, ` +
      `the same the JSON way ${us(pipelineOf(true))}`,
  );
} finally {
  await sandbox.stop();
  await rm(sandboxDir, { recursive: true, force: true });
}
