#!/usr/bin/env node
// `npm start`: builds what is missing or stale, then runs the API (with in-process job workers)
// and the sandbox as one process tree. `--api-only` runs the API alone, without workers or sandbox.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runOnNode22 } from './node-22.mjs';

await runOnNode22();

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const apiOnly = process.argv.includes('--api-only');
// Settings from ./.env, if present; variables already set in the environment win.
if (existsSync(path.join(root, '.env'))) process.loadEnvFile(path.join(root, '.env'));
const withSandbox = !apiOnly && process.env.START_SANDBOX !== 'false';
const env = { ...process.env, INIT_CWD: process.env.INIT_CWD ?? root };
if (apiOnly) env.RUN_WORKERS = 'false';

function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// TypeScript project references rebuild only what changed and return at once when nothing did.
run('npx', ['tsc', '-b', 'apps/server', 'apps/sandbox']);
const webIndex = path.join(root, 'apps/web/dist/index.html');
const webSources = Math.max(
  newestMtime(path.join(root, 'apps/web/src')),
  newestMtime(path.join(root, 'apps/web/public')),
  newestMtime(path.join(root, 'packages/contracts/src')),
  statSync(path.join(root, 'apps/web/index.html')).mtimeMs,
);
if (!existsSync(webIndex) || statSync(webIndex).mtimeMs < webSources) {
  console.log('Building the web app…');
  run('npm', ['run', 'build', '-w', '@research/web']);
}

const children = [];
function start(name, script) {
  const child = spawn(process.execPath, [script], { cwd: root, stdio: 'inherit', env });
  child.on('exit', (code, signal) => {
    children.splice(children.indexOf(child), 1);
    if (!stopping) {
      console.error(`${name} stopped (${signal ?? `exit ${code}`}); stopping the rest.`);
      stop(code ?? 1);
    } else if (children.length === 0) {
      process.exit(exitCode);
    }
  });
  children.push(child);
}

let stopping = false;
let exitCode = 0;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  exitCode = code;
  if (children.length === 0) process.exit(exitCode);
  for (const child of children) child.kill('SIGTERM');
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

if (withSandbox) start('sandbox', path.join(root, 'apps/sandbox/dist/main.js'));
start('server', path.join(root, 'apps/server/dist/main.js'));
