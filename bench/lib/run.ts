import path from 'node:path';
import { CONNECTIONS, DURATION_SECONDS, type Measurement, measure, printTable } from './load.js';
import { printSummary, profileDuring, summarize } from './profile.js';

export interface Target {
  name: string;
  url: string;
  headers?: Record<string, string>;
}

/**
 * Measures each target in turn (the first is the bare baseline) and prints the table. With
 * BENCH_PROFILE=<substring of a target name> (or `all`) it instead profiles those targets under
 * the same load and prints their top entries; throughput while profiling is not a result.
 */
export async function runTargets(targets: Target[]) {
  const profileFilter = process.env.BENCH_PROFILE;
  if (profileFilter) {
    for (const target of targets) {
      if (profileFilter !== 'all' && !target.name.includes(profileFilter)) continue;
      const file = path.join(
        process.cwd(),
        `bench-${target.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.cpuprofile`,
      );
      let result: Measurement | undefined;
      const { profile } = await profileDuring(file, async () => {
        result = await measure(target.url, target.headers);
      });
      printSummary(
        `${target.name} — ${result?.rps.toFixed(0)} req/s while profiling; ${path.basename(file)}`,
        summarize(profile),
      );
    }
    return;
  }
  console.log(`Measuring ${DURATION_SECONDS} s each at ${CONNECTIONS} connections…`);
  const rows: Array<readonly [string, Measurement]> = [];
  for (const target of targets) rows.push([target.name, await measure(target.url, target.headers)]);
  const bare = rows[0]?.[1];
  if (bare) printTable(rows, bare);
}
