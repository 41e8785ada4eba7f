import { join, resolve } from 'node:path';
import { SANDBOX_DEFAULTS, setGeneratedDaysCache, startSandbox } from './index.js';

function port(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65_535) {
    throw new Error(`${name} must be a port number between 0 and 65535, got "${raw}"`);
  }
  return value;
}

async function main(): Promise<void> {
  let httpPort: number;
  let smtpPort: number;
  try {
    httpPort = port('SANDBOX_PORT', SANDBOX_DEFAULTS.httpPort);
    smtpPort = port('SANDBOX_SMTP_PORT', SANDBOX_DEFAULTS.smtpPort);
  } catch (error) {
    console.error(`sandbox: ${(error as Error).message}`);
    process.exit(1);
  }
  // Benchmarks of many people over months keep more generated days (about 180 KB each).
  if (process.env.SANDBOX_GENERATED_DAYS_CACHE) {
    setGeneratedDaysCache(Number(process.env.SANDBOX_GENERATED_DAYS_CACHE));
  }
  const dataDir = join(resolve(process.env.DATA_DIR || './data'), 'sandbox');
  const sandbox = await startSandbox({
    host: process.env.SANDBOX_HOST || '127.0.0.1',
    httpPort,
    smtpPort,
    dataDir,
    // "true" simulates an unpublished (Testing) Google client: health refresh tokens last 7 days.
    google: { testingMode: process.env.SANDBOX_GOOGLE_TESTING_MODE === 'true' },
    ...(process.env.SANDBOX_PUBLIC_URL ? { publicUrl: process.env.SANDBOX_PUBLIC_URL } : {}),
  });
  console.log(
    `sandbox: inbox ${sandbox.issuer}/inbox · OIDC issuer ${sandbox.issuer} · Google Health API ${sandbox.health.urls.apiBaseUrl}/v4 (admin ${sandbox.httpUrl}/__admin/health, service-account key ${sandbox.httpUrl}/__admin/health/service-account.json, webhook keyset ${sandbox.health.urls.webhookKeysetUrl}) · Twilio ${sandbox.httpUrl}/2010-04-01 · SMTP smtp://127.0.0.1:${sandbox.smtpPort} · data ${dataDir}`,
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`sandbox: error while stopping on ${signal}:`, error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error('sandbox: failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
