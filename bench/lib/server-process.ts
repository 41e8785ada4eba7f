import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Starts the API as `npm start` does (its workers too, unless `RUN_WORKERS` says otherwise) and
 * resolves once it answers /readyz. BENCH_PROFILE=1: the server writes a CPU profile to
 * bench-profiles/ when it stops.
 */
export async function startServer(
  env: Record<string, string>,
  port: number,
): Promise<ChildProcess> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--conditions=source',
      ...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=bench-profiles'] : []),
      'apps/server/src/main.ts',
    ],
    { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error('server did not start');
}
