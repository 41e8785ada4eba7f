import { randomUUID } from 'node:crypto';
import { rfc3339 } from './civil.js';
import { findType } from './data-types.js';
import { describeFailure } from './deliveries.js';
import { ApiError, badRequest, invalidArgument, notFound } from './errors.js';
import { readJsonFile, writeJsonFile } from './json-file.js';
import { NOTIFYING_TYPES } from './notifications.js';
import { checkFields, objectBody } from './resource-common.js';

/** A Cloud project's webhook endpoints (Google's `Subscriber` resources) and their verification. */

const SUBSCRIBERS_FILE = 'health-subscribers.json';
const MAX_SUBSCRIBERS = 100;
export const SUBSCRIBER_ID = /^[a-z][a-z0-9-]{2,34}[a-z0-9]$/;
export const VERIFIER_USER_AGENT = 'Google-Health-API-Webhooks-Verifier';
export const SUBSCRIBER_TYPE_URL =
  'type.googleapis.com/google.devicesandservices.health.v4.Subscriber';

export type CreatePolicy = 'AUTOMATIC' | 'MANUAL';

export interface SubscriberConfig {
  dataTypes: string[];
  subscriptionCreatePolicy: CreatePolicy;
}

export interface StoredSubscriber {
  /** `projects/{number}/subscribers/{id}` */
  name: string;
  endpointUri: string;
  secret: string;
  subscriberConfigs: SubscriberConfig[];
  state: 'ACTIVE';
  createTime: number;
  updateTime: number;
}

/** The resource as the API shows it: the secret only as "set". */
export function subscriberJson(s: StoredSubscriber) {
  return {
    name: s.name,
    endpointUri: s.endpointUri,
    ...(s.subscriberConfigs.length ? { subscriberConfigs: s.subscriberConfigs } : {}),
    endpointAuthorization: { secretSet: true },
    state: s.state,
    createTime: rfc3339(s.createTime),
    updateTime: rfc3339(s.updateTime),
  };
}

/** Loopback http for local runs, otherwise https only, as Google demands. */
export function parseEndpointUri(value: unknown): string {
  if (typeof value !== 'string' || !value) {
    throw invalidArgument('endpoint_uri is required.', badRequest('endpoint_uri', 'Required.'));
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidArgument(
      'endpoint_uri must be a valid HTTPS URL.',
      badRequest('endpoint_uri', 'Not a valid URL.'),
    );
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (
    !(url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) ||
    url.username ||
    url.password ||
    url.hash
  ) {
    throw invalidArgument(
      'endpoint_uri must be a valid HTTPS URL.',
      badRequest('endpoint_uri', 'The scheme must be https (http is accepted on loopback).'),
    );
  }
  return url.toString();
}

export function parseSecret(value: unknown): string {
  if (typeof value !== 'object' || value === null) {
    throw invalidArgument(
      'endpoint_authorization is required.',
      badRequest('endpoint_authorization', 'Required.'),
    );
  }
  const auth = value as Record<string, unknown>;
  checkFields(auth, ['secret', 'secretSet'], 'endpoint_authorization');
  // A header value: printable ASCII, no line breaks.
  if (typeof auth.secret !== 'string' || !/^[\x20-\x7e]{1,1024}$/.test(auth.secret)) {
    throw invalidArgument(
      'endpoint_authorization.secret is required.',
      badRequest(
        'endpoint_authorization.secret',
        'Required: the exact Authorization header value.',
      ),
    );
  }
  return auth.secret;
}

export function parseConfigs(value: unknown): SubscriberConfig[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    throw invalidArgument('subscriber_configs must be a list.');
  }
  return value.map((raw, i) => {
    const at = `subscriber_configs[${i}]`;
    const config = objectBody(raw);
    checkFields(config, ['dataTypes', 'subscriptionCreatePolicy'], at);
    const policy = config.subscriptionCreatePolicy;
    if (policy !== 'AUTOMATIC' && policy !== 'MANUAL') {
      throw invalidArgument(
        `${at}.subscription_create_policy must be AUTOMATIC or MANUAL.`,
        badRequest(`${at}.subscription_create_policy`, 'Required: AUTOMATIC or MANUAL.'),
      );
    }
    const types = config.dataTypes;
    if (!Array.isArray(types) || types.length === 0) {
      throw invalidArgument(
        `${at}.data_types is required.`,
        badRequest(`${at}.data_types`, 'Required.'),
      );
    }
    const dataTypes: string[] = [];
    for (const type of types) {
      if (typeof type !== 'string' || !findType(type)) {
        throw invalidArgument(
          `Invalid data type: ${String(type)}.`,
          badRequest(`${at}.data_types`, `Unknown data type "${String(type)}" (kebab-case).`),
        );
      }
      if (!NOTIFYING_TYPES.has(type)) {
        throw invalidArgument(
          `Data type ${type} does not support notifications.`,
          badRequest(`${at}.data_types`, `"${type}" does not send change notifications.`),
        );
      }
      if (!dataTypes.includes(type)) dataTypes.push(type);
    }
    return { dataTypes, subscriptionCreatePolicy: policy };
  });
}

/**
 * The two requests Google makes before it accepts an endpoint: with the secret as the
 * Authorization header (must answer 200 or 201), then without it (must answer 401 or 403).
 * Returns why verification failed, or null.
 */
export async function verifyEndpoint(
  uri: string,
  secret: string,
  timeoutMs: number,
): Promise<string | null> {
  const probe = async (withSecret: boolean): Promise<number | string> => {
    try {
      const response = await fetch(uri, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': VERIFIER_USER_AGENT,
          ...(withSecret ? { authorization: secret } : {}),
        },
        body: JSON.stringify({ type: 'verification' }),
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel();
      return response.status;
    } catch (error) {
      return describeFailure(error);
    }
  };
  const authorized = await probe(true);
  if (authorized !== 200 && authorized !== 201) {
    return `the verification request with the Authorization header got ${answer(authorized)}, expected 200 or 201`;
  }
  const anonymous = await probe(false);
  if (anonymous !== 401 && anonymous !== 403) {
    return `the verification request without the Authorization header got ${answer(anonymous)}, expected 401 or 403`;
  }
  return null;
}

function answer(result: number | string): string {
  return typeof result === 'number' ? `HTTP ${result}` : `no answer (${result})`;
}

export function verificationFailed(reason: string): ApiError {
  return new ApiError(400, 'FAILED_PRECONDITION', `Endpoint verification failed: ${reason}.`);
}

export class SubscriberStore {
  private readonly byName = new Map<string, StoredSubscriber>();

  constructor(private readonly dataDir: string | undefined) {
    for (const s of readJsonFile<StoredSubscriber[]>(dataDir, SUBSCRIBERS_FILE) ?? []) {
      if (s?.name && s.endpointUri && s.secret) this.byName.set(s.name, s);
    }
  }

  private save(): void {
    writeJsonFile(this.dataDir, SUBSCRIBERS_FILE, [...this.byName.values()]);
  }

  list(project?: string): StoredSubscriber[] {
    return [...this.byName.values()]
      .filter((s) => !project || s.name.startsWith(`projects/${project}/`))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): StoredSubscriber | undefined {
    return this.byName.get(name);
  }

  require(name: string): StoredSubscriber {
    const found = this.byName.get(name);
    if (!found) throw notFound(`Subscriber ${name} not found.`);
    return found;
  }

  newName(project: string, id: string | null): string {
    if (id !== null && !SUBSCRIBER_ID.test(id)) {
      throw invalidArgument(
        'subscriber_id must be 4-36 characters: a lower-case letter, then lower-case letters, digits or hyphens, not ending with a hyphen.',
        badRequest('subscriber_id', 'Must match [a-z]([a-z0-9-]{2,34}[a-z0-9]).'),
      );
    }
    const name = `projects/${project}/subscribers/${id ?? randomUUID()}`;
    if (this.byName.has(name)) {
      throw new ApiError(409, 'ALREADY_EXISTS', `Subscriber ${name} already exists.`);
    }
    if (this.byName.size >= MAX_SUBSCRIBERS) {
      throw new ApiError(429, 'RESOURCE_EXHAUSTED', 'Too many subscribers in this project.');
    }
    return name;
  }

  put(subscriber: StoredSubscriber): void {
    this.byName.set(subscriber.name, subscriber);
    this.save();
  }

  delete(name: string): boolean {
    const had = this.byName.delete(name);
    if (had) this.save();
    return had;
  }
}
