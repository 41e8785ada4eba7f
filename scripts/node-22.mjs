#!/usr/bin/env node
// The project runs on Node 22 LTS (Node 20 reached its end of life in April 2026, and the test
// tools' current majors need 22). A machine that still has an older Node gets Node 22 from the
// npm registry (the official `node-linux-<arch>` build), unpacked once into a cache folder.
//
//   node scripts/node-22.mjs         prints the folder holding a Node 22 `node` binary
//   import { runOnNode22 } …          re-runs the calling script under Node 22 when needed
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const wanted = readFileSync(path.join(root, '.nvmrc'), 'utf8').trim();
const wantedMajor = Number(wanted.split('.')[0]);
const cacheDir = path.join(
  process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'),
  'wearable-research-platform',
  `node-${wanted}-${process.platform}-${process.arch}`,
);

const isCurrent = (version) => Number(version.replace(/^v/, '').split('.')[0]) >= wantedMajor;

/** The folder of a `node` binary of the wanted major: this one, the cached one, or a fresh one. */
export function node22BinDir() {
  if (isCurrent(process.version)) return path.dirname(process.execPath);
  const cached = path.join(cacheDir, 'bin');
  if (existsSync(path.join(cached, 'node'))) return cached;
  if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch)) {
    throw new Error(
      `Node ${wantedMajor} is required; install it (this is Node ${process.version}).`,
    );
  }
  const work = mkdtempSync(path.join(os.tmpdir(), 'node-22-'));
  try {
    const pkg = `node-linux-${process.arch}@${wanted}`;
    console.error(`Node ${process.version} is too old: fetching ${pkg} from the npm registry…`);
    // Three tries: a registry download cut short is not retried by npm itself.
    let pack;
    for (let attempt = 1; attempt <= 3; attempt++) {
      pack = spawnSync('npm', ['pack', pkg, '--silent', '--pack-destination', work], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      if (pack.status === 0) break;
      if (attempt < 3) spawnSync('sleep', ['10']);
    }
    const tarball = pack.stdout?.trim().split('\n').pop();
    if (pack.status !== 0 || !tarball) throw new Error(`npm pack ${pkg} failed`);
    const untar = spawnSync('tar', ['xzf', path.join(work, tarball), '-C', work], {
      stdio: 'inherit',
    });
    if (untar.status !== 0) throw new Error(`unpacking ${tarball} failed`);
    mkdirSync(path.dirname(cacheDir), { recursive: true });
    rmSync(cacheDir, { recursive: true, force: true });
    renameSync(path.join(work, 'package'), cacheDir);
    return cached;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Re-runs this script under Node 22 when the running Node is older: resolves at once on Node 22,
 * otherwise never (the process exits with the re-run's status; signals are passed on to it).
 */
export function runOnNode22() {
  if (isCurrent(process.version)) return Promise.resolve();
  const binDir = node22BinDir();
  const env = { ...process.env, PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}` };
  const child = spawn(path.join(binDir, 'node'), process.argv.slice(1), { stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  return new Promise(() => {});
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(node22BinDir());
}
