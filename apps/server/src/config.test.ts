import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('runs on the embedded defaults with nothing set', () => {
    const config = loadConfig({ INIT_CWD: '/srv/app' });
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.dataDir).toBe('/srv/app/data');
    expect(config.database).toEqual({ kind: 'pglite', dataDir: '/srv/app/data/db' });
    expect(config.storage).toEqual({ driver: 'fs', root: '/srv/app/data/storage' });
    expect(config.mail).toMatchObject({ smtpUrl: 'smtp://127.0.0.1:2525', usesSandbox: true });
    expect(config.sms).toMatchObject({ baseUrl: 'http://127.0.0.1:3100', usesSandbox: true });
    expect(config.google).toMatchObject({ issuer: 'http://localhost:3100', usesSandbox: true });
    expect(config.runWorkers).toBe(true);
  });

  it('writes the public address as Google compares callbacks: lower-case host, no default port', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://Research.Example.org:443/app/' });
    expect(config.publicUrl).toBe('https://research.example.org/app');
  });

  it('follows the sandbox ports and switches to PostgreSQL when DATABASE_URL is set', () => {
    const config = loadConfig({
      SANDBOX_PORT: '4100',
      SANDBOX_SMTP_PORT: '4525',
      DATABASE_URL: 'postgres://app@db:5432/research',
      DATA_DIR: 'var',
      INIT_CWD: '/srv/app',
    });
    expect(config.database).toEqual({
      kind: 'postgres',
      url: 'postgres://app@db:5432/research',
      poolSize: 10,
    });
    expect(
      loadConfig({ DATABASE_URL: 'postgres://app@db/research', DATABASE_POOL_SIZE: '30' }).database,
    ).toMatchObject({ poolSize: 30 });
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '1' })).toThrow(/DATABASE_POOL_SIZE/);
    expect(config.mail.smtpUrl).toBe('smtp://127.0.0.1:4525');
    expect(config.sms.baseUrl).toBe('http://127.0.0.1:4100');
    expect(config.google.issuer).toBe('http://localhost:4100');
    expect(config.dataDir).toBe(path.resolve('/srv/app/var'));
  });

  it('takes the sandbox’s webhook secret and keyset only while Google is the sandbox', () => {
    expect(loadConfig({}).healthNotifications).toEqual({
      secrets: ['Bearer sandbox-webhook-secret-not-for-production'],
      keysetUrl: 'http://localhost:3100/googlehealthapi/webhooks/webhooks_public_keyset.json',
      ratePerMinute: 6000,
    });
    const google = loadConfig({
      GOOGLE_ISSUER: 'https://accounts.google.com',
      GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: 'secret',
    }).healthNotifications;
    // No secret configured against the real Google: every notification is refused.
    expect(google.secrets).toEqual([]);
    expect(google.keysetUrl).toBe(
      'https://www.gstatic.com/googlehealthapi/webhooks/webhooks_public_keyset.json',
    );
    const rotating = loadConfig({
      GOOGLE_HEALTH_WEBHOOK_SECRET: 'Bearer new-secret-0123456789',
      GOOGLE_HEALTH_WEBHOOK_SECRET_PREVIOUS: 'Bearer old-secret-0123456789',
    }).healthNotifications;
    expect(rotating.secrets).toEqual([
      'Bearer new-secret-0123456789',
      'Bearer old-secret-0123456789',
    ]);
    expect(() => loadConfig({ GOOGLE_HEALTH_WEBHOOK_SECRET: 'short' })).toThrow(ConfigError);
  });

  it('sweeps hourly by default, also when the setting is empty, and not at all when it is off', () => {
    expect(loadConfig({}).collection.sweepCron).toBe('0 * * * *');
    expect(loadConfig({ COLLECTION_SWEEP_CRON: '' }).collection.sweepCron).toBe('0 * * * *');
    expect(loadConfig({ COLLECTION_SWEEP_CRON: 'off' }).collection.sweepCron).toBeNull();
    expect(loadConfig({ COLLECTION_SWEEP_CRON: '*/10 * * * *' }).collection.sweepCron).toBe(
      '*/10 * * * *',
    );
  });

  it('hands a dead worker’s extraction job on after 30 minutes unless told otherwise', () => {
    expect(loadConfig({}).extraction.jobExpireSeconds).toBe(1800);
    expect(loadConfig({ EXTRACTION_JOB_EXPIRE_SECONDS: '60' }).extraction.jobExpireSeconds).toBe(
      60,
    );
    expect(() => loadConfig({ EXTRACTION_JOB_EXPIRE_SECONDS: '5' })).toThrow(
      /EXTRACTION_JOB_EXPIRE_SECONDS/,
    );
  });

  it('has no daily Google Health call budget unless one is set', () => {
    expect(loadConfig({}).extraction.dailyCallBudget).toBeNull();
    expect(
      loadConfig({ GOOGLE_HEALTH_DAILY_CALL_BUDGET: '0' }).extraction.dailyCallBudget,
    ).toBeNull();
    expect(
      loadConfig({ GOOGLE_HEALTH_DAILY_CALL_BUDGET: '250000' }).extraction.dailyCallBudget,
    ).toBe(250_000);
    expect(() => loadConfig({ GOOGLE_HEALTH_DAILY_CALL_BUDGET: '-1' })).toThrow(
      /GOOGLE_HEALTH_DAILY_CALL_BUDGET/,
    );
  });

  it('collects every type but the profile unless COLLECTION_TYPES names some', () => {
    expect(loadConfig({}).collection.types).toBeNull();
    expect(
      loadConfig({ COLLECTION_TYPES: 'activity_summary, sleep_log,activity_summary' }).collection
        .types,
    ).toEqual(['activity_summary', 'sleep_log']);
    expect(() => loadConfig({ COLLECTION_TYPES: 'profile' })).toThrow(/COLLECTION_TYPES/);
    expect(() => loadConfig({ COLLECTION_TYPES: 'steps' })).toThrow(/COLLECTION_TYPES/);
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).database.kind).toBe('pglite');
  });

  it('lists every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        ENCRYPTION_KEY: 'c2hvcnQ=',
        STORAGE_DRIVER: 's3',
        TWILIO_FROM: '555-1234',
        GOOGLE_CLIENT_ID: 'only-the-id',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'ENCRYPTION_KEY',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
      'TWILIO_FROM',
      'GOOGLE_CLIENT_SECRET',
    ]) {
      expect(problems).toContain(name);
    }
    expect((error as ConfigError).message).toMatch(/^Invalid configuration:/);
  });

  it('accepts a 32-byte base64 encryption key and a list of previous keys', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    const config = loadConfig({ ENCRYPTION_KEY: key, ENCRYPTION_KEY_PREVIOUS: ` ${key} , ` });
    expect(config.encryption).toEqual({ key, previousKeys: [key] });
  });

  it('registers the webhook subscriber with the sandbox locally, and needs the real values against Google', () => {
    const local = loadConfig({ SANDBOX_PORT: '4100', PUBLIC_URL: 'https://research.example.org/' });
    expect(local.googleHealth.webhooks).toEqual({
      serviceAccount: {
        kind: 'url',
        url: 'http://localhost:4100/__admin/health/service-account.json',
      },
      projectNumber: '424242424242',
      secret: expect.stringMatching(/^Bearer /),
      endpointUrl: 'https://research.example.org/webhooks/google-health',
      usesSandbox: true,
    });
    const google = loadConfig({
      GOOGLE_ISSUER: 'https://accounts.google.com',
      GOOGLE_CLIENT_ID: 'id',
      GOOGLE_CLIENT_SECRET: 'secret',
    });
    expect(google.googleHealth.webhooks).toMatchObject({
      serviceAccount: null,
      projectNumber: null,
      secret: null,
    });
    const configured = loadConfig({
      GOOGLE_ISSUER: 'https://accounts.google.com',
      GOOGLE_CLIENT_ID: 'id',
      GOOGLE_CLIENT_SECRET: 'secret',
      GOOGLE_HEALTH_SERVICE_ACCOUNT_FILE: 'keys/health.json',
      GOOGLE_HEALTH_PROJECT_NUMBER: '123456789012',
      GOOGLE_HEALTH_WEBHOOK_SECRET: `Bearer ${'a'.repeat(32)}`,
      INIT_CWD: '/srv/app',
    });
    expect(configured.googleHealth.webhooks).toMatchObject({
      serviceAccount: { kind: 'file', path: '/srv/app/keys/health.json' },
      projectNumber: '123456789012',
      secret: `Bearer ${'a'.repeat(32)}`,
      usesSandbox: false,
    });
  });

  it('refuses a project id where the number belongs, and a short or multi-line webhook secret', () => {
    let error: unknown;
    try {
      loadConfig({
        GOOGLE_HEALTH_PROJECT_NUMBER: 'my-health-project',
        GOOGLE_HEALTH_WEBHOOK_SECRET: 'short',
      });
    } catch (e) {
      error = e;
    }
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toContain(
      'GOOGLE_HEALTH_PROJECT_NUMBER: must be the Cloud project number (digits only), not the project id',
    );
    expect(problems).toContain('GOOGLE_HEALTH_WEBHOOK_SECRET: must be 24 to 1024 printable ASCII');
    expect(() =>
      loadConfig({ GOOGLE_HEALTH_WEBHOOK_SECRET: `Bearer ${'a'.repeat(30)}\nX-Other: 1` }),
    ).toThrow(/GOOGLE_HEALTH_WEBHOOK_SECRET/);
  });
});
