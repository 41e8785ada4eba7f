import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

// E2E_PORT moves the whole run (app, sandbox HTTP and SMTP on the next two ports), so two runs
// can happen side by side on one machine.
const PORT = Number(process.env.E2E_PORT ?? 3900);
process.env.E2E_PORT = String(PORT);
const baseURL = `http://localhost:${PORT}`;

// One fresh data directory per run. The config is evaluated again in every worker process;
// workers inherit this process's environment, so they see the same directory (specs read it to
// run the admin CLI against the same database).
if (!process.env.E2E_DATA_DIR) {
  process.env.E2E_DATA_DIR = mkdtempSync(path.join(tmpdir(), 'wrp-e2e-'));
}
const dataDir = process.env.E2E_DATA_DIR;

// E2E_BASE_URL points the specs at a server that is already running (e.g. `vite preview` while
// working on pages); otherwise Playwright starts the whole product with a fresh data directory.
const externalBaseURL = process.env.E2E_BASE_URL;

export default defineConfig({
  testDir: './e2e',
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  // Each screen and dialog is also checked with axe at two widths (about a second each on a busy
  // machine): the 30 s default is too tight for the longer journeys.
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: externalBaseURL ?? baseURL,
    headless: true,
    trace: 'retain-on-failure',
    launchOptions: {
      // Debian's Chromium: Playwright's own browser download is not available on our machines.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: externalBaseURL
    ? undefined
    : {
        command: 'node ../../scripts/start.mjs',
        url: `${baseURL}/healthz`,
        reuseExistingServer: false,
        timeout: 180_000,
        env: {
          PORT: String(PORT),
          SANDBOX_PORT: String(PORT + 1),
          SANDBOX_SMTP_PORT: String(PORT + 2),
          // A fresh database and file store per run, so runs never see each other's data.
          DATA_DIR: dataDir,
          PUBLIC_URL: baseURL,
          // Continuous collection off: a backfill on connect would race the specs that revoke a
          // grant at Google and then expect an extraction run to meet the dead grant.
          COLLECTION_ON_CONNECT: 'false',
          COLLECTION_SWEEP_CRON: 'off',
          // The participants' reminder run every minute, so the adherence spec's reminder comes
          // within a minute or two. Only studies with reminders on (off by default; no other spec
          // turns them on) are looked at. The members' digest is not scheduled: no spec awaits it.
          REMINDER_CRON: '* * * * *',
          ADHERENCE_DIGEST_CRON: 'off',
        },
      },
});
