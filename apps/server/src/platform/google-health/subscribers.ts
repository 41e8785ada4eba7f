import { readFile } from 'node:fs/promises';
import { JWT } from 'google-auth-library';
import { z } from 'zod';

/**
 * The Health API's webhook subscribers of one Cloud project (`projects/{number}/subscribers`),
 * managed by an operator as the project's service account. Google has no `get` of one subscriber:
 * `get` lists and picks.
 */

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** Where google-auth-library sends every token request, whatever the key file says. */
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
/**
 * Google Health data types that send change notifications (kebab-case, as subscriber configs name
 * them). Not among them, for example: active energy, oxygen saturation, VO2 max, ECG.
 */
export const NOTIFYING_DATA_TYPES: ReadonlySet<string> = new Set([
  'active-minutes',
  'active-zone-minutes',
  'activity-level',
  'altitude',
  'blood-glucose',
  'body-fat',
  'calories-in-heart-rate-zone',
  'daily-heart-rate-variability',
  'daily-heart-rate-zones',
  'daily-oxygen-saturation',
  'daily-respiratory-rate',
  'daily-resting-heart-rate',
  'daily-sleep-temperature-derivations',
  'distance',
  'exercise',
  'floors',
  'heart-rate',
  'heart-rate-variability',
  'height',
  'hydration-log',
  'nutrition-log',
  'respiratory-rate-sleep-summary',
  'run-vo2-max',
  'sedentary-period',
  'sleep',
  'steps',
  'time-in-heart-rate-zone',
  'total-calories',
  'weight',
]);

/** The subscriber id `admin health-subscriber` registers unless told another. */
export const DEFAULT_SUBSCRIBER_ID = 'research-platform';

/** Google's rule for subscriber ids. */
export const SUBSCRIBER_ID = /^[a-z][a-z0-9-]{2,34}[a-z0-9]$/;

const keyFileSchema = z.object({
  type: z.literal('service_account'),
  client_email: z.string().min(1),
  private_key: z.string().min(1),
  private_key_id: z.string().optional(),
  token_uri: z.url().default(GOOGLE_TOKEN_URL),
  project_id: z.string().optional(),
});
export type ServiceAccountKey = z.infer<typeof keyFileSchema>;

/** Where the key file comes from: a path, or (locally) the sandbox that issues it. */
export type ServiceAccountSource = { kind: 'file'; path: string } | { kind: 'url'; url: string };

export type SubscriptionCreatePolicy = 'AUTOMATIC' | 'MANUAL';

export interface SubscriberConfig {
  dataTypes: string[];
  subscriptionCreatePolicy: SubscriptionCreatePolicy;
}

export interface Subscriber {
  /** `projects/{number}/subscribers/{id}` */
  name: string;
  id: string;
  endpointUri: string;
  subscriberConfigs: SubscriberConfig[];
  secretSet: boolean;
  state: string;
  createTime: string | null;
  updateTime: string | null;
}

export type SubscriberErrorKind =
  | 'key_file'
  | 'token'
  | 'unauthenticated'
  | 'permission_denied'
  | 'verification_failed'
  | 'not_found'
  | 'already_exists'
  | 'invalid_argument'
  | 'unavailable'
  | 'invalid_response';

/** What went wrong, said so an operator knows what to change. Never carries a token or secret. */
export class SubscriberApiError extends Error {
  constructor(
    readonly kind: SubscriberErrorKind,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'SubscriberApiError';
  }
}

const envelopeSchema = z.object({
  error: z.object({
    code: z.number().optional(),
    message: z.string().optional(),
    status: z.string().optional(),
  }),
});

const subscriberSchema = z.object({
  name: z.string().regex(/^projects\/[^/]+\/subscribers\/[^/]+$/),
  endpointUri: z.string(),
  subscriberConfigs: z
    .array(
      z.object({
        dataTypes: z.array(z.string()).default([]),
        subscriptionCreatePolicy: z.string(),
      }),
    )
    .default([]),
  // Google has called this flag both ways.
  endpointAuthorization: z
    .object({ secretSet: z.boolean().optional(), authorizationTokenSet: z.boolean().optional() })
    .optional(),
  state: z.string().default('STATE_UNSPECIFIED'),
  createTime: z.string().optional(),
  updateTime: z.string().optional(),
});

const operationSchema = z.object({
  name: z.string().optional(),
  done: z.boolean().optional(),
  response: z.unknown().optional(),
  error: z.object({ code: z.number().optional(), message: z.string().optional() }).optional(),
});

function toSubscriber(raw: unknown): Subscriber {
  const parsed = subscriberSchema.safeParse(raw);
  if (!parsed.success) {
    throw new SubscriberApiError(
      'invalid_response',
      'Google answered with an unreadable subscriber.',
    );
  }
  const s = parsed.data;
  return {
    name: s.name,
    id: s.name.slice(s.name.lastIndexOf('/') + 1),
    endpointUri: s.endpointUri,
    subscriberConfigs: s.subscriberConfigs.map((c) => ({
      dataTypes: c.dataTypes,
      subscriptionCreatePolicy: c.subscriptionCreatePolicy as SubscriptionCreatePolicy,
    })),
    secretSet: Boolean(
      s.endpointAuthorization?.secretSet || s.endpointAuthorization?.authorizationTokenSet,
    ),
    state: s.state,
    createTime: s.createTime ?? null,
    updateTime: s.updateTime ?? null,
  };
}

/** Reads and checks the key file. */
export async function loadServiceAccountKey(
  source: ServiceAccountSource,
): Promise<ServiceAccountKey> {
  let text: string;
  const where = source.kind === 'file' ? source.path : source.url;
  try {
    if (source.kind === 'file') {
      text = await readFile(source.path, 'utf8');
    } else {
      const response = await fetch(source.url, { signal: AbortSignal.timeout(10_000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      text = await response.text();
    }
  } catch (error) {
    throw new SubscriberApiError(
      'key_file',
      `Could not read the service-account key file at ${where} (${error instanceof Error ? error.message : String(error)}). Set GOOGLE_HEALTH_SERVICE_ACCOUNT_FILE to the JSON key downloaded from the Cloud console${source.kind === 'url' ? ', or start the sandbox (npm start)' : ''}.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  const parsed = keyFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new SubscriberApiError(
      'key_file',
      `${where} is not a service-account key file (JSON with type "service_account", client_email, private_key and token_uri).`,
    );
  }
  return parsed.data;
}

export interface SubscribersClientOptions {
  /** Health API base URL, without `/v4`. */
  apiUrl: string;
  /** The Cloud project's number (the subscriber paths refuse its id). */
  projectNumber: string;
  key: ServiceAccountKey;
  timeoutMs?: number;
}

export interface SubscriberFields {
  endpointUri: string;
  /** The exact Authorization header value Google will send. */
  secret: string;
  subscriberConfigs: SubscriberConfig[];
}

export interface SubscribersClient {
  readonly serviceAccountEmail: string;
  create(id: string, fields: SubscriberFields): Promise<Subscriber>;
  list(): Promise<Subscriber[]>;
  get(id: string): Promise<Subscriber | null>;
  patch(id: string, fields: Partial<SubscriberFields>): Promise<Subscriber>;
  delete(id: string): Promise<void>;
}

export function createSubscribersClient(options: SubscribersClientOptions): SubscribersClient {
  const { key } = options;
  const apiUrl = options.apiUrl.replace(/\/$/, '');
  const timeoutMs = options.timeoutMs ?? 60_000;
  const project = options.projectNumber;
  const jwt = new JWT({
    email: key.client_email,
    key: key.private_key,
    ...(key.private_key_id ? { keyId: key.private_key_id } : {}),
    scopes: [CLOUD_PLATFORM_SCOPE],
  });
  // The library ignores the key file's token_uri: send the token request where the file says
  // (the same URL for Google's own keys, the sandbox's /token locally).
  if (key.token_uri !== GOOGLE_TOKEN_URL) {
    const tokenUri = new URL(key.token_uri);
    jwt.transporter.interceptors.request.add({
      resolved: async (config) => {
        if (config.url instanceof URL && config.url.href === GOOGLE_TOKEN_URL) {
          config.url = tokenUri;
        } else if (String(config.url) === GOOGLE_TOKEN_URL) {
          config.url = tokenUri;
        }
        return config;
      },
    });
  }

  async function accessToken(): Promise<string> {
    try {
      const { token } = await jwt.getAccessToken();
      if (!token) throw new Error('no access token in the answer');
      return token;
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new SubscriberApiError(
        'token',
        `The token endpoint ${key.token_uri} did not give ${key.client_email} an access token (${detail}). Check that the key file is current (keys can be deleted in the Cloud console).`,
      );
    }
  }

  const collection = `/v4/projects/${encodeURIComponent(project)}/subscribers`;
  const item = (id: string) => `${collection}/${encodeURIComponent(id)}`;

  function failure(status: number, body: unknown, context: { endpointUri?: string }): never {
    const envelope = envelopeSchema.safeParse(body);
    const code = envelope.success ? (envelope.data.error.status ?? '') : '';
    const message = envelope.success ? (envelope.data.error.message ?? '') : '';
    const said = message ? ` ("${message}")` : '';
    if (status === 401 || code === 'UNAUTHENTICATED') {
      throw new SubscriberApiError(
        'unauthenticated',
        `Google did not accept the service account's access token${said}.`,
        status,
      );
    }
    if (status === 403 || code === 'PERMISSION_DENIED') {
      if (/scope/i.test(message)) {
        throw new SubscriberApiError(
          'permission_denied',
          `Google refused the call${said}: the access token lacks the cloud-platform scope.`,
          status,
        );
      }
      throw new SubscriberApiError(
        'permission_denied',
        `Google refused the call${said}. Check that the service account ${key.client_email} holds a Google Health API IAM role in the project, and that GOOGLE_HEALTH_PROJECT_NUMBER (${project}) is the project's number, not its id: the subscriber paths take the number.`,
        status,
      );
    }
    if (code === 'FAILED_PRECONDITION') {
      throw new SubscriberApiError(
        'verification_failed',
        `Google could not verify the endpoint ${context.endpointUri ?? ''}${said}. It must be reachable from the internet and answer Google's POST {"type":"verification"} with 201 when the Authorization header is the configured secret (GOOGLE_HEALTH_WEBHOOK_SECRET) and with 401 without it.`,
        status,
      );
    }
    if (status === 404 || code === 'NOT_FOUND') {
      throw new SubscriberApiError('not_found', `Google knows no such subscriber${said}.`, status);
    }
    if (status === 409 || code === 'ALREADY_EXISTS') {
      throw new SubscriberApiError(
        'already_exists',
        `The subscriber already exists${said}.`,
        status,
      );
    }
    if (status === 400 || code === 'INVALID_ARGUMENT') {
      throw new SubscriberApiError(
        'invalid_argument',
        `Google refused the request as invalid${said}.`,
        status,
      );
    }
    throw new SubscriberApiError(
      'unavailable',
      `Google ${status > 0 ? `answered HTTP ${status}` : 'reported an error'}${said}; try again later.`,
      status > 0 ? status : null,
    );
  }

  async function call(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    context: { endpointUri?: string } = {},
  ): Promise<unknown> {
    const token = await accessToken();
    let response: Response;
    try {
      response = await fetch(`${apiUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new SubscriberApiError(
        'unavailable',
        `No answer from ${apiUrl} (${error instanceof Error ? error.message : String(error)}).`,
      );
    }
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : {};
    } catch {
      json = null;
    }
    if (!response.ok) failure(response.status, json, context);
    if (json === null) {
      throw new SubscriberApiError('invalid_response', `Google answered ${path} with no JSON.`);
    }
    return json;
  }

  /** An Operation (done, or polled until it is) or a bare Subscriber. */
  async function subscriberOf(answer: unknown, context: { endpointUri?: string }) {
    let current = answer;
    for (let attempt = 0; ; attempt++) {
      const op = operationSchema.safeParse(current);
      const isOperation =
        op.success &&
        (op.data.done !== undefined || op.data.name?.startsWith('operations/') === true);
      if (!isOperation) return toSubscriber(current);
      const { done, response, error, name } = op.data;
      if (error) {
        failure(0, { error: { ...error, status: statusOf(error) } }, context);
      }
      if (done) return toSubscriber(stripType(response));
      if (!name || attempt >= 20) {
        throw new SubscriberApiError(
          'unavailable',
          'Google has not finished the operation yet; run the command again in a minute.',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(500 * 2 ** attempt, 5_000)));
      current = await call('GET', `/v4/${name}`, undefined, context);
    }
  }

  async function list(): Promise<Subscriber[]> {
    const out: Subscriber[] = [];
    let pageToken: string | undefined;
    do {
      const query = new URLSearchParams({ pageSize: '100' });
      if (pageToken) query.set('pageToken', pageToken);
      const page = z
        .object({
          subscribers: z.array(z.unknown()).default([]),
          nextPageToken: z.string().optional(),
        })
        .safeParse(await call('GET', `${collection}?${query}`));
      if (!page.success) {
        throw new SubscriberApiError('invalid_response', 'Google answered the list unreadably.');
      }
      out.push(...page.data.subscribers.map(toSubscriber));
      pageToken = page.data.nextPageToken || undefined;
    } while (pageToken);
    return out;
  }

  return {
    serviceAccountEmail: key.client_email,
    async create(id, fields) {
      const query = new URLSearchParams({ subscriberId: id });
      const context = { endpointUri: fields.endpointUri };
      const answer = await call(
        'POST',
        `${collection}?${query}`,
        {
          endpointUri: fields.endpointUri,
          subscriberConfigs: fields.subscriberConfigs,
          endpointAuthorization: { secret: fields.secret },
        },
        context,
      );
      return subscriberOf(answer, context);
    },
    list,
    async get(id) {
      return (await list()).find((s) => s.id === id) ?? null;
    },
    async patch(id, fields) {
      const mask: string[] = [];
      const body: Record<string, unknown> = {};
      if (fields.endpointUri !== undefined) {
        mask.push('endpointUri');
        body.endpointUri = fields.endpointUri;
      }
      if (fields.subscriberConfigs !== undefined) {
        mask.push('subscriberConfigs');
        body.subscriberConfigs = fields.subscriberConfigs;
      }
      if (fields.secret !== undefined) {
        mask.push('endpointAuthorization');
        body.endpointAuthorization = { secret: fields.secret };
      }
      const query = new URLSearchParams({ updateMask: mask.join(',') });
      const context = fields.endpointUri ? { endpointUri: fields.endpointUri } : {};
      return subscriberOf(await call('PATCH', `${item(id)}?${query}`, body, context), context);
    },
    async delete(id) {
      const answer = await call('DELETE', item(id));
      // `{}` or an Operation; an Operation that failed says why.
      const op = operationSchema.safeParse(answer);
      if (op.success && op.data.error) {
        failure(0, { error: { ...op.data.error, status: statusOf(op.data.error) } }, {});
      }
    },
  };
}

/** An Operation's error carries a numeric code only: the RPC status it stands for. */
function statusOf(error: { code?: number | undefined }): string {
  const names: Record<number, string> = {
    3: 'INVALID_ARGUMENT',
    5: 'NOT_FOUND',
    6: 'ALREADY_EXISTS',
    7: 'PERMISSION_DENIED',
    9: 'FAILED_PRECONDITION',
    16: 'UNAUTHENTICATED',
  };
  return names[error.code ?? 0] ?? 'UNKNOWN';
}

/** A packed `Any` carries its `@type` beside the fields. */
function stripType(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const { '@type': _type, ...rest } = value as Record<string, unknown>;
  return rest;
}
