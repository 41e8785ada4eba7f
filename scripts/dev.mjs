#!/usr/bin/env node
// `npm run dev`: the sandbox, the API (reloading on change) and Vite's dev server together.
// Open the Vite address it prints; API calls are proxied to the server on port 3000.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runOnNode22 } from './node-22.mjs';

await runOnNode22();

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, INIT_CWD: process.env.INIT_CWD ?? root };
const children = ['@research/sandbox', '@research/server', '@research/web'].map((workspace) =>
  spawn('npm', ['run', 'dev', '-w', workspace], { cwd: root, stdio: 'inherit', env }),
);
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', stop);
