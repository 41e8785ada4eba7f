#!/usr/bin/env node
// `npm run test:faults`: the server's fault tests (`*.faults.test.ts`: database loss, a worker
// killed holding a job, job expiry, provider errors) on PostgreSQL, then one line per fault: how
// the work ended, rows lost and rows written twice against a clean run. The same files also run
// in `npm test`, with the rest of the server suite.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runOnNode22 } from './node-22.mjs';

await runOnNode22();

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const report = path.join(os.tmpdir(), `wrp-faults-${process.pid}.json`);

/** Whether something answers on host:port (PostgreSQL's default place on this machine). */
const reachable = (host, port) =>
  new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(1000);
    const answer = (answered) => {
      socket.destroy();
      resolve(answered);
    };
    socket.once('connect', () => answer(true));
    socket.once('timeout', () => answer(false));
    socket.once('error', () => answer(false));
  });

const env = { ...process.env };
if (!env.TEST_DATABASE_URL && (await reachable('127.0.0.1', 5432))) {
  env.TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
}
console.log(
  env.TEST_DATABASE_URL
    ? 'Fault tests on PostgreSQL (TEST_DATABASE_URL).'
    : 'PostgreSQL is not reachable and TEST_DATABASE_URL is not set: fault tests run on PGlite, and the database-loss tests are skipped.',
);

const result = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    'faults.test',
    '--reporter=default',
    '--reporter=json',
    `--outputFile=${report}`,
  ],
  { cwd: path.join(root, 'apps/server'), stdio: 'inherit', env },
);

if (existsSync(report)) {
  const { testResults } = JSON.parse(readFileSync(report, 'utf8'));
  const rows = [['fault', 'outcome', 'rows expected', 'rows lost', 'duplicates', 'test']];
  const others = [];
  for (const file of testResults) {
    for (const test of file.assertionResults) {
      const fault = test.meta?.fault;
      if (fault) {
        rows.push([
          fault.fault,
          fault.outcome,
          String(fault.rowsExpected),
          String(fault.rowsLost),
          String(fault.duplicates),
          test.status,
        ]);
      } else {
        others.push(`${test.status.padEnd(8)} ${test.title}`);
      }
    }
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  console.log('\nFault report');
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join('  '));
  if (others.length > 0) console.log(`\nOther fault tests:\n${others.join('\n')}`);
  rmSync(report, { force: true });
}
process.exit(result.status ?? 1);
