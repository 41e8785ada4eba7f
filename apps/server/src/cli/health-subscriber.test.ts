import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type Sandbox, startSandbox } from '@research/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookEndpoint, type TestWebhookEndpoint } from '../test/webhook-endpoint.js';

const run = promisify(execFile);
const serverDir = path.resolve(import.meta.dirname, '../..');
const SECRET = 'Bearer cli-test-webhook-secret-0123456789';
/** What the 12 research types read that notifies (active energy does not). */
const TYPES =
  'active-minutes, active-zone-minutes, altitude, calories-in-heart-rate-zone, daily-resting-heart-rate, distance, floors, heart-rate, sedentary-period, sleep, steps, time-in-heart-rate-zone, total-calories';

let sandbox: Sandbox;
let endpoint: TestWebhookEndpoint;
let dataDir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ httpPort: 0, smtpPort: 0 });
  endpoint = await startWebhookEndpoint(SECRET);
  dataDir = await mkdtemp(path.join(tmpdir(), 'health-subscriber-'));
});
afterAll(async () => {
  await endpoint.close();
  await sandbox.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** `npm run admin -- health-subscriber …` with the local defaults pointing at this sandbox. */
async function admin(args: string[], env: Record<string, string> = {}) {
  const result = await run(
    process.execPath,
    ['--import', 'tsx', '--conditions=source', 'src/cli/admin.ts', 'health-subscriber', ...args],
    {
      cwd: serverDir,
      env: {
        ...process.env,
        INIT_CWD: dataDir,
        DATA_DIR: dataDir,
        SANDBOX_PORT: new URL(sandbox.httpUrl).port,
        PUBLIC_URL: endpoint.baseUrl,
        GOOGLE_HEALTH_WEBHOOK_SECRET: SECRET,
        LOG_LEVEL: 'silent',
        ...env,
      },
    },
  ).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
  return result;
}

const NAME = 'projects/424242424242/subscribers/research-platform';

describe('npm run admin -- health-subscriber', () => {
  it('registers, shows, updates and deletes the subscriber on the sandbox', async () => {
    const created = await admin(['create']);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout).toContain(`Registered subscriber ${NAME}.`);
    expect(created.stdout).toContain('state:    ACTIVE');
    expect(created.stdout).toContain(`endpoint: ${endpoint.url}`);
    expect(created.stdout).toContain(`types (AUTOMATIC, 13): ${TYPES}`);
    expect(endpoint.received).toEqual([SECRET, null]);

    const shown = await admin(['show']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`Subscriber ${NAME}`);
    expect(shown.stdout).toContain('secret:   set');
    expect(shown.stdout).toContain(`types (AUTOMATIC, 13): ${TYPES}`);
    expect(shown.stdout).not.toContain('Note:');
    const elsewhere = await admin(['show'], { PUBLIC_URL: 'https://elsewhere.example.org' });
    expect(elsewhere.stdout).toContain(
      "Note: its endpoint is not this server's (https://elsewhere.example.org/webhooks/google-health). Run health-subscriber create to bring it up to date.",
    );

    // Running create again brings the registered subscriber up to date instead of failing.
    const again = await admin(['create']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`Updated subscriber ${NAME}.`);

    const refused = await admin(['delete']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Run again with --force to delete it.');
    expect((await admin(['show'])).stdout).toContain(`Subscriber ${NAME}`);

    const deleted = await admin(['delete', '--force']);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toContain(`Deleted subscriber ${NAME}.`);
    const gone = await admin(['show']);
    expect(gone.code).toBe(0);
    expect(gone.stdout).toContain(`No subscriber ${NAME}`);
    expect((await admin(['delete', '--force'])).stderr).toContain(
      `No subscriber ${NAME}: nothing to delete.`,
    );
  }, 120_000);

  it('says the handshake failed when the endpoint answers wrongly', async () => {
    const wrong = await startWebhookEndpoint(SECRET, 'wrong');
    try {
      const result = await admin(['create', '--id', 'wrong-endpoint'], {
        PUBLIC_URL: wrong.baseUrl,
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`Google could not verify the endpoint ${wrong.url}`);
      expect(result.stderr).toContain(
        'answer Google\'s POST {"type":"verification"} with 201 when the Authorization header is the configured secret (GOOGLE_HEALTH_WEBHOOK_SECRET) and with 401 without it.',
      );
    } finally {
      await wrong.close();
    }
  }, 60_000);

  it('points at the IAM role and the project number when Google refuses, and at missing settings', async () => {
    const byId = await admin(['show'], { GOOGLE_HEALTH_PROJECT_NUMBER: '123456789' });
    expect(byId.code).toBe(1);
    expect(byId.stderr).toContain('holds a Google Health API IAM role in the project');
    expect(byId.stderr).toContain(
      "GOOGLE_HEALTH_PROJECT_NUMBER (123456789) is the project's number, not its id",
    );

    const google = await admin(['create'], {
      GOOGLE_ISSUER: 'https://accounts.google.com',
      GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: 'client-secret',
      GOOGLE_HEALTH_WEBHOOK_SECRET: '',
    });
    expect(google.code).toBe(1);
    expect(google.stderr.trim().split('\n')).toEqual([
      'GOOGLE_HEALTH_SERVICE_ACCOUNT_FILE is not set: the JSON key of a service account holding a Google Health API IAM role.',
      'GOOGLE_HEALTH_PROJECT_NUMBER is not set: the Cloud project number (digits, not the project id).',
      'GOOGLE_HEALTH_WEBHOOK_SECRET is not set: the Authorization header Google sends with each notification.',
    ]);

    const http = await admin(['create'], {
      GOOGLE_HEALTH_SERVICE_ACCOUNT_FILE: path.join(dataDir, 'missing.json'),
      PUBLIC_URL: 'http://research.example.org',
    });
    expect(http.code).toBe(1);
    expect(http.stderr).toContain(
      'The webhook endpoint http://research.example.org/webhooks/google-health is not https',
    );

    const unknown = await admin(['register']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Unknown action "register": use create, show or delete.');
  }, 120_000);
});
