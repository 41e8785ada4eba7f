import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CpuProfile } from './profile.js';

/**
 * Worker processes as `npm run start:worker` runs them (apps/server/src/worker.ts), optionally
 * under `node --cpu-prof` (the profile is written when the process exits).
 */
export function createWorkerPool(env: Record<string, string>) {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const workers = new Set<ChildProcess>();
  // A bench that dies (an uncaught error) must not leave workers behind: they would hold
  // connections and CPU through the next run.
  process.once('exit', () => {
    for (const child of workers) child.kill('SIGKILL');
  });

  /** Starts one; resolves once it consumes jobs. */
  async function start(name: string, options: { profileDir?: string } = {}) {
    const child = spawn(
      process.execPath,
      [
        ...(options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : []),
        '--import',
        'tsx',
        '--conditions=source',
        'apps/server/src/worker.ts',
      ],
      {
        cwd: root,
        env: { ...process.env, ...env, RUN_WORKERS: 'true', LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stderr?.on('data', (d: Buffer) => process.stderr.write(`[${name}] ${d}`));
    workers.add(child);
    child.on('exit', () => workers.delete(child));
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`${name} exited (${code})`)));
      let seen = '';
      child.stdout?.on('data', (d: Buffer) => {
        seen = (seen + d.toString()).slice(-4000);
        if (seen.includes('worker started')) resolve();
      });
    });
    // BENCH_WORKER_LOG_DIR keeps each worker's log (its jobs' failures and retries) in a file.
    const logDir = process.env.BENCH_WORKER_LOG_DIR;
    if (logDir) {
      mkdirSync(logDir, { recursive: true });
      child.stdout?.pipe(createWriteStream(path.join(logDir, `${name}.log`)));
    } else child.stdout?.resume();
    return child;
  }

  /** SIGTERM to each, and waits for them to exit (profiles are written then). */
  async function stopAll() {
    await Promise.all(
      [...workers].map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
  }

  return {
    start,
    stopAll,
    kill: () => {
      for (const child of workers) child.kill('SIGKILL');
    },
  };
}

/** The .cpuprofile files a folder holds (one per profiled process). */
export async function readProfiles(dir: string) {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.cpuprofile'));
  return Promise.all(
    names.map(async (name) => ({
      file: path.join(dir, name),
      profile: JSON.parse(await readFile(path.join(dir, name), 'utf8')) as CpuProfile & {
        startTime: number;
        endTime: number;
      },
    })),
  );
}
