import { type ChildProcess, spawn } from 'node:child_process';
import { processCpuSeconds } from './cpu.js';
import { freePort } from './ports.js';

/**
 * apps/sandbox as `npm run dev -w @research/sandbox` runs it, on free ports, in a process of its
 * own: its CPU (generating tens of thousands of heart-rate samples a page) is Google's, not the
 * engine's. Resolves once it listens.
 */
export async function spawnSandbox(options: {
  dataDir: string;
  nodeArgs?: string[];
  /** Ports to listen on (default: free ones the OS picks). */
  ports?: { http: number; smtp: number };
  env?: Record<string, string>;
}) {
  const [httpPort, smtpPort] = options.ports
    ? [options.ports.http, options.ports.smtp]
    : [await freePort(), await freePort()];
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      '--import',
      'tsx',
      '--conditions=source',
      'apps/sandbox/src/main.ts',
    ],
    {
      env: {
        ...process.env,
        ...options.env,
        SANDBOX_PORT: String(httpPort),
        SANDBOX_SMTP_PORT: String(smtpPort),
        DATA_DIR: options.dataDir,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  // A bench that dies (an uncaught error) must not leave its sandbox behind holding the port.
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  child.once('exit', () => process.off('exit', orphaned));
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`sandbox exited (${code})`)));
    child.stdout?.on('data', (d: Buffer) => {
      if (d.toString().includes('sandbox:')) resolve();
    });
  });
  return {
    httpUrl: `http://127.0.0.1:${httpPort}`,
    issuer: `http://localhost:${httpPort}`,
    smtpPort,
    /** CPU seconds the sandbox process has used (user + system), from /proc. */
    cpuSeconds: () => processCpuSeconds(child.pid ?? 0),
    /** Stops the process (SIGTERM) and waits for it to exit. */
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
