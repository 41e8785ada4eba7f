import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';

/**
 * Connections per run: the API budget (docs/architecture.md#performance-budgets) is stated at 50
 * concurrent connections.
 */
export const CONNECTIONS = 50;
export const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

const CLI = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

interface AutocannonResult {
  non2xx: number;
  errors: number;
  requests: { average: number };
  latency: { p50: number; p99: number };
}

export interface Measurement {
  rps: number;
  p50: number;
  p99: number;
}

/** autocannon in its own process, so the load generator does not share the server's event loop. */
export function autocannon(
  url: string,
  seconds: number,
  headers: Record<string, string> = {},
  connections = CONNECTIONS,
): Promise<AutocannonResult> {
  const args = [CLI, '-j', '-c', String(connections), '-d', String(seconds)];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      if (error) reject(error);
      else resolve(JSON.parse(stdout) as AutocannonResult);
    });
  });
}

/** A short warm-up (caches, pools, JIT), then the measured run; any non-2xx answer fails it. */
export async function measure(
  url: string,
  headers: Record<string, string> = {},
  connections = CONNECTIONS,
): Promise<Measurement> {
  await autocannon(url, 2, headers, connections);
  const result = await autocannon(url, DURATION_SECONDS, headers, connections);
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/** The API budget: p99 ≤ 50 ms and at least a quarter of the bare route's throughput. */
export const P99_BUDGET_MS = 50;
export const RATIO_BUDGET = 0.25;

/** The Markdown table the README quotes, with the budget verdict per row. */
export function printTable(rows: ReadonlyArray<readonly [string, Measurement]>, bare: Measurement) {
  console.log('\n| endpoint | req/s | p50 ms | p99 ms | vs bare | budget |');
  console.log('| --- | ---: | ---: | ---: | ---: | --- |');
  for (const [name, r] of rows) {
    const ratio = r.rps / bare.rps;
    const verdict =
      r === bare ? '' : r.p99 <= P99_BUDGET_MS && ratio >= RATIO_BUDGET ? 'met' : 'not met';
    console.log(
      `| ${name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${ratio.toFixed(3)} | ${verdict} |`,
    );
  }
}
