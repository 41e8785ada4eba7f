import path from 'node:path';
import { DATA_TYPES, type DataType } from '@research/contracts';
import { z } from 'zod';

/**
 * Every setting the server reads, parsed once from the environment. Defaults run the product
 * locally against the sandbox (see apps/sandbox); production sets the real endpoints.
 * `.env.example` documents each variable for operators.
 */

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const port = z.coerce
  .number({ error: 'must be a port number (0-65535)' })
  .int('must be a port number (0-65535)')
  .min(0, 'must be a port number (0-65535)')
  .max(65535, 'must be a port number (0-65535)');
const url = z.url({ protocol: /^https?$/ });

const envSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: url.optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(10),
  ENCRYPTION_KEY: z
    .string()
    .refine(
      (v) => Buffer.from(v, 'base64').length === 32,
      'must be 32 random bytes in base64 (openssl rand -base64 32)',
    )
    .optional(),
  ENCRYPTION_KEY_PREVIOUS: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: bool.default(false),
  RATE_LIMIT_MAX: z.coerce.number().int().positive().default(1500),
  /** Calls per minute one personal access token may make, whatever address it comes from. */
  ACCESS_TOKEN_RATE_LIMIT: z.coerce.number().int().positive().default(120),
  RUN_WORKERS: bool.default(true),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).default(120),
  SESSION_MAX_HOURS: z.coerce.number().int().min(1).default(24),
  WEB_DIST_DIR: z.string().optional(),

  SANDBOX_PORT: port.default(3100),
  SANDBOX_SMTP_PORT: port.default(2525),

  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().min(3).default('Wearable Health Research Platform <no-reply@localhost>'),

  TWILIO_BASE_URL: url.optional(),
  TWILIO_ACCOUNT_SID: z
    .string()
    .regex(/^AC[0-9a-fA-F]{32}$/)
    .optional(),
  TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
  TWILIO_FROM: z
    .string()
    .regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 number such as +15551234567')
    .default('+15005550006'),

  STORAGE_DRIVER: z.enum(['fs', 's3']).default('fs'),
  S3_ENDPOINT: url.optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool.default(false),
  S3_BUCKET_PREFIX: z
    .string()
    .regex(/^[a-z0-9-]*$/)
    .default(''),

  GOOGLE_ISSUER: url.optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),

  GOOGLE_HEALTH_AUTH_URL: url.optional(),
  GOOGLE_HEALTH_TOKEN_URL: url.optional(),
  GOOGLE_HEALTH_REVOKE_URL: url.optional(),
  GOOGLE_HEALTH_API_URL: url.optional(),
  GOOGLE_HEALTH_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_HEALTH_CLIENT_SECRET: z.string().min(1).optional(),
  /** Change notifications: the service account that manages the project's webhook subscriber. */
  GOOGLE_HEALTH_SERVICE_ACCOUNT_FILE: z.string().min(1).optional(),
  GOOGLE_HEALTH_PROJECT_NUMBER: z
    .string()
    .regex(/^\d{6,20}$/, 'must be the Cloud project number (digits only), not the project id')
    .optional(),
  /** The exact Authorization header Google sends with each notification (e.g. "Bearer …"). */
  GOOGLE_HEALTH_WEBHOOK_SECRET: z
    .string()
    .regex(
      /^[\x20-\x7e]{24,1024}$/,
      'must be 24 to 1024 printable ASCII characters (e.g. "Bearer " + openssl rand -hex 32)',
    )
    .optional(),
  /** The secret before the current one, accepted too while a rotation is under way. */
  GOOGLE_HEALTH_WEBHOOK_SECRET_PREVIOUS: z
    .string()
    .regex(/^[\x20-\x7e]{24,1024}$/, 'must be 24 to 1024 printable ASCII characters')
    .optional(),
  /** Google's public Tink keyset that signs the notifications. */
  GOOGLE_HEALTH_WEBHOOK_KEYSET_URL: url.optional(),
  /** Notifications per sending address per minute: Google delivers in bursts (a backlog after an outage). */
  GOOGLE_HEALTH_WEBHOOK_RATE_LIMIT: z.coerce.number().int().positive().default(6000),

  /** Google Health quotas the extraction engine keeps to, across all workers. */
  EXTRACTION_PER_USER_PER_MINUTE: z.coerce.number().int().positive().default(300),
  EXTRACTION_PER_PROJECT_PER_MINUTE: z.coerce.number().int().positive().default(120_000),
  /**
   * Google Health calls per UTC day over the whole project, all processes together; 0 (default):
   * no budget. Once spent, background collection waits for the next day; researchers' runs go on.
   */
  GOOGLE_HEALTH_DAILY_CALL_BUDGET: z.coerce.number().int().min(0).default(0),
  /**
   * Participants one worker process extracts at the same time: a run's participants all at once
   * (up to this many), so the run ends with its busiest participant's quota, not in rounds.
   */
  EXTRACTION_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(20),
  /**
   * Calls in flight per participant (their tasks run side by side, each making its calls in turn):
   * one call at a time cannot use Google's 300 a minute when an answer takes longer than 0.2 s.
   */
  EXTRACTION_CALLS_PER_PARTICIPANT: z.coerce.number().int().min(1).max(16).default(3),
  /**
   * pg-boss has no heartbeat: a participant job whose worker died is handed to another worker
   * this long after it started (plus pg-boss's maintenance interval, 2 minutes).
   */
  EXTRACTION_JOB_EXPIRE_SECONDS: z.coerce
    .number()
    .int()
    .min(30)
    .max(24 * 3600)
    .default(30 * 60),
  /**
   * Continuous collection: when the sweep runs (cron, UTC; empty turns it off), how many recent
   * days every sweep fetches again (Google restates them as the device syncs), how many older
   * days still missing one connection's sweep fetches, and connections collected at once per
   * worker process.
   */
  COLLECTION_SWEEP_CRON: z.string().trim().default('0 * * * *'),
  /**
   * Adherence alerts (cron, UTC; `off` turns a job off): the members' daily digest, and the
   * participants' reminders (a run sends only what is due, so running it more often is safe).
   */
  ADHERENCE_DIGEST_CRON: z.string().trim().default('0 7 * * *'),
  REMINDER_CRON: z.string().trim().default('0 16 * * *'),
  COLLECTION_RESTATEMENT_DAYS: z.coerce.number().int().min(1).max(31).default(3),
  COLLECTION_BACKFILL_DAYS: z.coerce.number().int().min(0).max(366).default(14),
  COLLECTION_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** Whether a new connection queues its backfill from enrolment at once (else: next sweep). */
  COLLECTION_ON_CONNECT: bool.default(true),
  /** The research types collected (comma-separated); unset: every type but the profile. */
  COLLECTION_TYPES: z
    .string()
    .trim()
    .transform((v) => [
      ...new Set(
        v
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(
      z
        .array(
          z.enum(
            DATA_TYPES.filter((t) => t !== 'profile'),
            {
              error: `must list research types (${DATA_TYPES.filter((t) => t !== 'profile').join(', ')})`,
            },
          ),
        )
        .min(1),
    )
    .optional(),
});

export type Env = z.input<typeof envSchema>;

/** Rules across variables; checked on the raw input so they are listed with every other problem. */
function crossVariableProblems(env: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  if (env.STORAGE_DRIVER === 's3') {
    for (const key of ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']) {
      if (!env[key]) problems.push(`${key}: required when STORAGE_DRIVER=s3`);
    }
  }
  if ((env.GOOGLE_CLIENT_ID === undefined) !== (env.GOOGLE_CLIENT_SECRET === undefined)) {
    problems.push('GOOGLE_CLIENT_SECRET: set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET together');
  }
  if (
    (env.GOOGLE_HEALTH_CLIENT_ID === undefined) !==
    (env.GOOGLE_HEALTH_CLIENT_SECRET === undefined)
  ) {
    problems.push(
      'GOOGLE_HEALTH_CLIENT_SECRET: set GOOGLE_HEALTH_CLIENT_ID and GOOGLE_HEALTH_CLIENT_SECRET together',
    );
  }
  return problems;
}

// The sandbox's well-known credentials (apps/sandbox SANDBOX_DEFAULTS); used only when the
// operator has not configured the real provider.
const SANDBOX_TWILIO_SID = 'AC00000000000000000000000000000000';
const SANDBOX_TWILIO_TOKEN = 'sandbox-auth-token';
const SANDBOX_GOOGLE_CLIENT_ID = 'sandbox-client-id.apps.googleusercontent.com';
const SANDBOX_GOOGLE_CLIENT_SECRET = 'sandbox-client-secret';
const SANDBOX_PROJECT_NUMBER = '424242424242';
const SANDBOX_WEBHOOK_SECRET = 'Bearer sandbox-webhook-secret-not-for-production';
/** Where the server receives Google Health change notifications, under PUBLIC_URL. */
export const GOOGLE_HEALTH_WEBHOOK_PATH = '/webhooks/google-health';

export interface AppConfig {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  database:
    | { kind: 'pglite'; dataDir: string }
    | {
        kind: 'postgres';
        url: string;
        /** Connections per process (default 10). */
        poolSize?: number;
      };
  encryption: { key?: string; previousKeys: string[] };
  logLevel: string;
  trustProxy: boolean;
  rateLimitMax: number;
  accessTokenRateLimit: number;
  runWorkers: boolean;
  sessions: { idleMinutes: number; maxHours: number };
  webDistDir: string;
  mail: { smtpUrl: string; from: string; usesSandbox: boolean };
  sms: {
    baseUrl: string;
    accountSid: string;
    authToken: string;
    from: string;
    usesSandbox: boolean;
  };
  storage:
    | { driver: 'fs'; root: string }
    | {
        driver: 's3';
        endpoint?: string;
        region: string;
        accessKeyId: string;
        secretAccessKey: string;
        forcePathStyle: boolean;
        bucketPrefix: string;
      };
  google: { issuer: string; clientId: string; clientSecret: string; usesSandbox: boolean };
  /** Google Health API and the Google OAuth endpoints for its grants. */
  googleHealth: {
    authUrl: string;
    tokenUrl: string;
    revokeUrl: string;
    apiUrl: string;
    clientId: string;
    clientSecret: string;
    /**
     * The project's webhook subscriber. Locally (GOOGLE_ISSUER unset) everything points at the
     * sandbox; against Google, the values left unset are null and the operator commands say so.
     */
    webhooks: {
      /** The service-account key: a file, or the sandbox's download URL. */
      serviceAccount: { kind: 'file'; path: string } | { kind: 'url'; url: string } | null;
      projectNumber: string | null;
      secret: string | null;
      /** PUBLIC_URL + /webhooks/google-health */
      endpointUrl: string;
      usesSandbox: boolean;
    };
  };
  /** The receiving side of Google Health's change notifications. */
  healthNotifications: {
    /** Accepted `Authorization` values (current first); none configured refuses every call. */
    secrets: string[];
    keysetUrl: string;
    ratePerMinute: number;
  };
  extraction: {
    perUserPerMinute: number;
    perProjectPerMinute: number;
    /** Calls per UTC day over the project; null: no budget. */
    dailyCallBudget: number | null;
    concurrency: number;
    callsPerParticipant: number;
    jobExpireSeconds: number;
  };
  collection: {
    /** Cron expression (UTC) of the sweep; null: no sweep. */
    sweepCron: string | null;
    restatementDays: number;
    backfillDays: number;
    concurrency: number;
    onConnect: boolean;
    /** The research types collected; null: every type but the profile. */
    types: DataType[] | null;
  };
  reminders: {
    /** Cron expressions (UTC) of the daily digest and the reminder run; null: off. */
    digestCron: string | null;
    reminderCron: string | null;
  };
}

const GOOGLE_ACCOUNTS = 'https://accounts.google.com';

/**
 * Health endpoints default to where sign-in goes: Google's real hosts when the issuer is Google,
 * otherwise the same paths on the issuer (the sandbox serves Google's paths on one host).
 */
function googleHealthDefaults(issuer: string) {
  if (issuer === GOOGLE_ACCOUNTS) {
    return {
      authUrl: `${GOOGLE_ACCOUNTS}/o/oauth2/v2/auth`,
      tokenUrl: 'https://oauth2.googleapis.com/token',
      revokeUrl: 'https://oauth2.googleapis.com/revoke',
      apiUrl: 'https://health.googleapis.com',
      webhookKeysetUrl:
        'https://www.gstatic.com/googlehealthapi/webhooks/webhooks_public_keyset.json',
    };
  }
  return {
    authUrl: `${issuer}/o/oauth2/v2/auth`,
    tokenUrl: `${issuer}/token`,
    revokeUrl: `${issuer}/revoke`,
    apiUrl: issuer,
    webhookKeysetUrl: `${issuer}/googlehealthapi/webhooks/webhooks_public_keyset.json`,
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const defaultWebDist = () =>
  path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../web/dist');

/** Parses the environment; throws ConfigError listing every bad variable at once. */
export function loadConfig(source: Record<string, string | undefined> = process.env): AppConfig {
  // Empty strings in an .env file mean "not set".
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = envSchema.safeParse(cleaned);
  const problems = [
    ...(parsed.success
      ? []
      : parsed.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`)),
    ...crossVariableProblems(cleaned),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const env = parsed.data;
  // npm runs workspace scripts inside the workspace; relative paths mean where npm was invoked.
  const baseDir = source.INIT_CWD ?? process.cwd();
  const dataDir = path.resolve(baseDir, env.DATA_DIR);
  const sandboxHttp = `http://localhost:${env.SANDBOX_PORT}`;
  const googleIssuer = (env.GOOGLE_ISSUER ?? sandboxHttp).replace(/\/$/, '');
  const healthDefaults = googleHealthDefaults(googleIssuer);
  const trim = (value: string) => value.replace(/\/$/, '');
  const publicUrl = trim(new URL(env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).href);
  const webhooksOnSandbox = env.GOOGLE_ISSUER === undefined;
  // The sandbox's well-known secret only while Google itself is the sandbox: a real deployment
  // without a secret refuses every notification rather than trusting any.
  const webhookSecret =
    env.GOOGLE_HEALTH_WEBHOOK_SECRET ?? (webhooksOnSandbox ? SANDBOX_WEBHOOK_SECRET : null);

  return {
    port: env.PORT,
    host: env.HOST,
    // Written the way URL parsing writes it (lower-case host, no default port): Google compares
    // the callback of the consent request with that of the code exchange, which openid-client
    // sends in this form.
    publicUrl,
    dataDir,
    database: env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL, poolSize: env.DATABASE_POOL_SIZE }
      : { kind: 'pglite', dataDir: path.join(dataDir, 'db') },
    encryption: {
      ...(env.ENCRYPTION_KEY ? { key: env.ENCRYPTION_KEY } : {}),
      previousKeys: (env.ENCRYPTION_KEY_PREVIOUS ?? '')
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean),
    },
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    rateLimitMax: env.RATE_LIMIT_MAX,
    accessTokenRateLimit: env.ACCESS_TOKEN_RATE_LIMIT,
    runWorkers: env.RUN_WORKERS,
    sessions: { idleMinutes: env.SESSION_IDLE_MINUTES, maxHours: env.SESSION_MAX_HOURS },
    webDistDir: env.WEB_DIST_DIR ? path.resolve(baseDir, env.WEB_DIST_DIR) : defaultWebDist(),
    mail: {
      smtpUrl: env.SMTP_URL ?? `smtp://127.0.0.1:${env.SANDBOX_SMTP_PORT}`,
      from: env.MAIL_FROM,
      usesSandbox: env.SMTP_URL === undefined,
    },
    sms: {
      baseUrl: (env.TWILIO_BASE_URL ?? `http://127.0.0.1:${env.SANDBOX_PORT}`).replace(/\/$/, ''),
      accountSid: env.TWILIO_ACCOUNT_SID ?? SANDBOX_TWILIO_SID,
      authToken: env.TWILIO_AUTH_TOKEN ?? SANDBOX_TWILIO_TOKEN,
      from: env.TWILIO_FROM,
      usesSandbox: env.TWILIO_BASE_URL === undefined,
    },
    storage:
      env.STORAGE_DRIVER === 's3'
        ? {
            driver: 's3',
            ...(env.S3_ENDPOINT ? { endpoint: env.S3_ENDPOINT } : {}),
            region: env.S3_REGION,
            accessKeyId: env.S3_ACCESS_KEY_ID ?? '',
            secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? '',
            forcePathStyle: env.S3_FORCE_PATH_STYLE,
            bucketPrefix: env.S3_BUCKET_PREFIX,
          }
        : { driver: 'fs', root: path.join(dataDir, 'storage') },
    google: {
      issuer: googleIssuer,
      clientId: env.GOOGLE_CLIENT_ID ?? SANDBOX_GOOGLE_CLIENT_ID,
      clientSecret: env.GOOGLE_CLIENT_SECRET ?? SANDBOX_GOOGLE_CLIENT_SECRET,
      usesSandbox: env.GOOGLE_ISSUER === undefined,
    },
    googleHealth: {
      authUrl: env.GOOGLE_HEALTH_AUTH_URL ?? healthDefaults.authUrl,
      tokenUrl: env.GOOGLE_HEALTH_TOKEN_URL ?? healthDefaults.tokenUrl,
      revokeUrl: env.GOOGLE_HEALTH_REVOKE_URL ?? healthDefaults.revokeUrl,
      apiUrl: trim(env.GOOGLE_HEALTH_API_URL ?? healthDefaults.apiUrl),
      // One Google Cloud project usually holds both the sign-in and the health OAuth client.
      clientId: env.GOOGLE_HEALTH_CLIENT_ID ?? env.GOOGLE_CLIENT_ID ?? SANDBOX_GOOGLE_CLIENT_ID,
      clientSecret:
        env.GOOGLE_HEALTH_CLIENT_SECRET ?? env.GOOGLE_CLIENT_SECRET ?? SANDBOX_GOOGLE_CLIENT_SECRET,
      webhooks: {
        serviceAccount: env.GOOGLE_HEALTH_SERVICE_ACCOUNT_FILE
          ? { kind: 'file', path: path.resolve(baseDir, env.GOOGLE_HEALTH_SERVICE_ACCOUNT_FILE) }
          : webhooksOnSandbox
            ? { kind: 'url', url: `${sandboxHttp}/__admin/health/service-account.json` }
            : null,
        projectNumber:
          env.GOOGLE_HEALTH_PROJECT_NUMBER ?? (webhooksOnSandbox ? SANDBOX_PROJECT_NUMBER : null),
        secret: webhookSecret,
        endpointUrl: `${publicUrl}${GOOGLE_HEALTH_WEBHOOK_PATH}`,
        usesSandbox: webhooksOnSandbox && env.GOOGLE_HEALTH_SERVICE_ACCOUNT_FILE === undefined,
      },
    },
    healthNotifications: {
      secrets: [webhookSecret, env.GOOGLE_HEALTH_WEBHOOK_SECRET_PREVIOUS ?? null].filter(
        (secret): secret is string => secret !== null,
      ),
      keysetUrl: env.GOOGLE_HEALTH_WEBHOOK_KEYSET_URL ?? healthDefaults.webhookKeysetUrl,
      ratePerMinute: env.GOOGLE_HEALTH_WEBHOOK_RATE_LIMIT,
    },
    extraction: {
      perUserPerMinute: env.EXTRACTION_PER_USER_PER_MINUTE,
      perProjectPerMinute: env.EXTRACTION_PER_PROJECT_PER_MINUTE,
      dailyCallBudget: env.GOOGLE_HEALTH_DAILY_CALL_BUDGET || null,
      concurrency: env.EXTRACTION_CONCURRENCY,
      callsPerParticipant: env.EXTRACTION_CALLS_PER_PARTICIPANT,
      jobExpireSeconds: env.EXTRACTION_JOB_EXPIRE_SECONDS,
    },
    collection: {
      // `off` turns the sweep off (an empty value is "not set", hence the default).
      sweepCron: env.COLLECTION_SWEEP_CRON === 'off' ? null : env.COLLECTION_SWEEP_CRON,
      restatementDays: env.COLLECTION_RESTATEMENT_DAYS,
      backfillDays: env.COLLECTION_BACKFILL_DAYS,
      concurrency: env.COLLECTION_CONCURRENCY,
      onConnect: env.COLLECTION_ON_CONNECT,
      types: env.COLLECTION_TYPES ?? null,
    },
    reminders: {
      digestCron: env.ADHERENCE_DIGEST_CRON === 'off' ? null : env.ADHERENCE_DIGEST_CRON,
      reminderCron: env.REMINDER_CRON === 'off' ? null : env.REMINDER_CRON,
    },
  };
}
