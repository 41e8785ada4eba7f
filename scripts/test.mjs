#!/usr/bin/env node
// `npm test`: everything CI runs, in order — lint, the server's module boundaries, typecheck, unit
// and integration tests (PGlite, then PostgreSQL when TEST_DATABASE_URL is set), the web build,
// and the browser tests.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runOnNode22 } from './node-22.mjs';

await runOnNode22();

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reportsDir = path.join(os.tmpdir(), `wrp-test-reports-${process.pid}`);
const totals = { passed: 0, failed: 0, skipped: 0 };

function run(title, command, args, extraEnv = {}, { unset = [] } = {}) {
  console.log(`\n━━ ${title}`);
  const env = { ...process.env, ...extraEnv };
  for (const key of unset) delete env[key];
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  console.log(
    `━━ ${title}: ${result.status === 0 ? 'ok' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  if (result.status !== 0) {
    printTotals();
    process.exit(result.status ?? 1);
  }
}

function which(binary) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, binary);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return null;
}

/** Debian's Chromium drives the browser tests; test tools never download their own browser. */
function ensureChromium() {
  const found = process.env.CHROMIUM_PATH ?? which('chromium') ?? which('chromium-browser');
  if (found) return found;
  const isRoot = process.getuid?.() === 0;
  if (isRoot && which('apt-get')) {
    console.log("Chromium is missing: installing Debian's chromium package…");
    const update = spawnSync('apt-get', ['update'], { stdio: 'inherit' });
    const install =
      update.status === 0 &&
      spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    const installed = install && install.status === 0 && which('chromium');
    if (installed) return installed;
  }
  console.error(
    'The browser tests need Chromium, which is not installed.\n' +
      'Install it with `sudo apt-get install chromium` (Debian/Ubuntu), or set CHROMIUM_PATH to a Chromium binary.',
  );
  process.exit(1);
}

function collect(file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  if ('numPassedTests' in report) {
    totals.passed += report.numPassedTests;
    totals.failed += report.numFailedTests;
    totals.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  } else if (report.stats) {
    totals.passed += report.stats.expected + (report.stats.flaky ?? 0);
    totals.failed += report.stats.unexpected;
    totals.skipped += report.stats.skipped;
  }
}

function printTotals() {
  console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
}

const vitest = (workspace, report) => [
  'run',
  'test',
  '-w',
  workspace,
  '--',
  '--reporter=default',
  '--reporter=json',
  `--outputFile=${path.join(reportsDir, report)}`,
];

const chromium = ensureChromium();
rmSync(reportsDir, { recursive: true, force: true });
run('lint (biome)', 'npx', ['biome', 'check', '.']);
run('server module boundaries', 'node', ['scripts/check-imports.mjs']);
run('typecheck', 'npm', ['run', 'typecheck']);
run('contracts: unit tests', 'npm', vitest('@research/contracts', 'contracts.json'));
run('sandbox: tests', 'npm', vitest('@research/sandbox', 'sandbox.json'));
run(
  'server: unit + integration tests on PGlite',
  'npm',
  vitest('@research/server', 'server-pglite.json'),
  {},
  {
    unset: ['TEST_DATABASE_URL'],
  },
);
if (process.env.TEST_DATABASE_URL) {
  run(
    'server: integration tests on PostgreSQL',
    'npm',
    vitest('@research/server', 'server-postgres.json'),
  );
} else {
  console.log(
    '\n(TEST_DATABASE_URL is not set: the PostgreSQL pass of the server tests is skipped.)',
  );
}
run('web: unit + component tests', 'npm', vitest('@research/web', 'web.json'));
run('web: production build', 'npm', ['run', 'build', '-w', '@research/web']);
// Budget: the landing route's initial JavaScript stays within 150 KB gzip.
run('web: landing route JavaScript budget', 'node', ['apps/web/scripts/measure-landing-js.mjs']);
run(
  'web: browser tests (Playwright, Debian Chromium)',
  'npm',
  ['run', 'test:e2e', '--', '--reporter=list,json'],
  {
    CHROMIUM_PATH: chromium,
    PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(reportsDir, 'e2e.json'),
  },
);

for (const file of ['contracts', 'sandbox', 'server-pglite', 'server-postgres', 'web', 'e2e']) {
  collect(path.join(reportsDir, `${file}.json`));
}
printTotals();
