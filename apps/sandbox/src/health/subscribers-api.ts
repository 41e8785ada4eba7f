import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GrantStore } from '../oidc-grants.js';
import type { Clock } from './clock.js';
import type { HealthControls } from './controls.js';
import { ApiError, invalidArgument, notFound, sendApiError, unauthenticated } from './errors.js';
import {
  checkFields,
  objectBody,
  pageSizeOf,
  pageToken,
  queryHash,
  queryParam,
  readPageToken,
  scopeError,
} from './resource-common.js';
import { CLOUD_PLATFORM_SCOPE, type ServiceAccount } from './service-account.js';
import {
  parseConfigs,
  parseEndpointUri,
  parseSecret,
  type StoredSubscriber,
  SUBSCRIBER_TYPE_URL,
  type SubscriberStore,
  subscriberJson,
  verificationFailed,
  verifyEndpoint,
} from './subscribers.js';

/**
 * `projects.subscribers` of the Health API: create, list, patch and delete webhook endpoints of
 * the Cloud project, called with a service account's token carrying the cloud-platform scope.
 */

export interface SubscribersApiOptions {
  serviceAccount: ServiceAccount;
  grants: GrantStore;
  store: SubscriberStore;
  clock: Clock;
  controls: () => HealthControls;
  /** A subscriber is gone: its undelivered notifications go with it. */
  onDeleted: (name: string) => void;
}

const UPDATABLE: Record<string, 'endpointUri' | 'subscriberConfigs' | 'endpointAuthorization'> = {
  endpointUri: 'endpointUri',
  endpoint_uri: 'endpointUri',
  subscriberConfigs: 'subscriberConfigs',
  subscriber_configs: 'subscriberConfigs',
  endpointAuthorization: 'endpointAuthorization',
  endpoint_authorization: 'endpointAuthorization',
};

const permissionDenied = () =>
  new ApiError(403, 'PERMISSION_DENIED', 'The caller does not have permission');

function bearer(request: FastifyRequest, query: URLSearchParams): string | null {
  const header = request.headers.authorization;
  if (header && /^Bearer\s+/i.test(header)) return header.replace(/^Bearer\s+/i, '').trim();
  return query.get('access_token') ?? query.get('oauth_token');
}

function operation(subscriber: StoredSubscriber) {
  return {
    name: `operations/${randomUUID()}`,
    done: true,
    response: { '@type': SUBSCRIBER_TYPE_URL, ...subscriberJson(subscriber) },
  };
}

export function registerSubscribersApi(app: FastifyInstance, options: SubscribersApiOptions) {
  const { store, serviceAccount } = options;
  const project = serviceAccount.project;

  /** Only the project's service account holding a Google Health API role may manage subscribers. */
  function authorize(request: FastifyRequest, query: URLSearchParams, method: string): void {
    const token = bearer(request, query);
    if (!token) throw unauthenticated();
    const account = serviceAccount.lookup(token);
    if (account) {
      if (!account.scopes.includes(CLOUD_PLATFORM_SCOPE)) throw scopeError(method);
      if (!options.controls().serviceAccountHasRole) throw permissionDenied();
      return;
    }
    const person = options.grants.lookupAccessToken(token);
    if (!person) throw unauthenticated();
    // A person's token: without the scope it is refused as such; with it, they hold no role.
    if (!person.grant.scopes.includes(CLOUD_PLATFORM_SCOPE)) throw scopeError(method);
    throw permissionDenied();
  }

  /**
   * The project segment must be the project's number. Create and list answer an id (or someone
   * else's project) with 403; patch and delete reject a non-number as a malformed name.
   */
  function checkProject(segment: string, kind: 'collection' | 'item'): void {
    if (kind === 'item' && !/^\d+$/.test(segment)) {
      throw invalidArgument('Invalid project number in resource name');
    }
    if (segment !== project.number) throw permissionDenied();
  }

  async function create(query: URLSearchParams, rawBody: unknown) {
    const body = objectBody(rawBody ?? {});
    checkFields(body, ['endpointUri', 'subscriberConfigs', 'endpointAuthorization']);
    const name = store.newName(project.number, queryParam(query, 'subscriberId'));
    const endpointUri = parseEndpointUri(body.endpointUri);
    const secret = parseSecret(body.endpointAuthorization);
    const subscriberConfigs = parseConfigs(body.subscriberConfigs);
    const failure = await verifyEndpoint(endpointUri, secret, options.controls().webhookTimeoutMs);
    if (failure) throw verificationFailed(failure);
    const now = options.clock.now();
    const subscriber: StoredSubscriber = {
      name,
      endpointUri,
      secret,
      subscriberConfigs,
      state: 'ACTIVE',
      createTime: now,
      updateTime: now,
    };
    store.put(subscriber);
    return operation(subscriber);
  }

  function list(query: URLSearchParams) {
    const size = pageSizeOf(queryParam(query, 'pageSize'), 50, 1000);
    const hash = queryHash(['subscribers', project.number, size]);
    const cursor = readPageToken(queryParam(query, 'pageToken'), hash) ?? 0;
    const all = store.list(project.number);
    const page = all.slice(cursor, cursor + size);
    return {
      ...(page.length ? { subscribers: page.map(subscriberJson) } : {}),
      ...(cursor + size < all.length ? { nextPageToken: pageToken(hash, cursor + size) } : {}),
      ...(all.length ? { totalSize: all.length } : {}),
    };
  }

  async function patch(name: string, query: URLSearchParams, rawBody: unknown) {
    const existing = store.require(name);
    const body = objectBody(rawBody ?? {});
    checkFields(body, [
      'name',
      'endpointUri',
      'subscriberConfigs',
      'endpointAuthorization',
      'state',
      'createTime',
      'updateTime',
    ]);
    const maskText = queryParam(query, 'updateMask');
    const paths = maskText
      ? maskText.split(',').map((p) => p.trim())
      : Object.keys(body).filter((k) => k in UPDATABLE);
    const fields = new Set<string>();
    for (const path of paths) {
      const field = UPDATABLE[path];
      if (!field) {
        throw invalidArgument(
          `Invalid update mask path: ${path}. Supported: endpoint_uri, subscriber_configs, endpoint_authorization.`,
        );
      }
      fields.add(field);
    }
    const next: StoredSubscriber = { ...existing };
    if (fields.has('endpointUri')) next.endpointUri = parseEndpointUri(body.endpointUri);
    if (fields.has('endpointAuthorization')) next.secret = parseSecret(body.endpointAuthorization);
    // The configs are replaced as a whole, never merged.
    if (fields.has('subscriberConfigs'))
      next.subscriberConfigs = parseConfigs(body.subscriberConfigs);
    if (fields.has('endpointUri') || fields.has('endpointAuthorization')) {
      const failure = await verifyEndpoint(
        next.endpointUri,
        next.secret,
        options.controls().webhookTimeoutMs,
      );
      if (failure) throw verificationFailed(failure);
    }
    next.updateTime = options.clock.now();
    store.put(next);
    return operation(next);
  }

  function remove(name: string) {
    store.require(name);
    // Automatic subscriptions are not stored, so there are no children for `force` to remove.
    store.delete(name);
    options.onDeleted(name);
    return {};
  }

  async function answer(request: FastifyRequest) {
    if (request.body === MALFORMED) {
      throw invalidArgument('Invalid JSON payload received. Unexpected token.');
    }
    const raw = request.raw.url ?? '';
    const q = raw.indexOf('?');
    const query = new URLSearchParams(q < 0 ? '' : raw.slice(q + 1));
    let path: string;
    try {
      path = decodeURIComponent(q < 0 ? raw : raw.slice(0, q));
    } catch {
      throw notFound();
    }
    const [, , projectSegment = '', collection, id, ...rest] = path.split('/').slice(1);
    if (collection !== 'subscribers' || rest.length > 0 || id === '') throw notFound();
    const method = request.method;
    if (id === undefined) {
      if (method === 'POST') {
        authorize(request, query, 'SubscriberService.CreateSubscriber');
        checkProject(projectSegment, 'collection');
        return create(query, request.body);
      }
      if (method === 'GET') {
        authorize(request, query, 'SubscriberService.ListSubscribers');
        checkProject(projectSegment, 'collection');
        return list(query);
      }
      throw notFound();
    }
    const name = `projects/${projectSegment}/subscribers/${id}`;
    if (method === 'PATCH') {
      authorize(request, query, 'SubscriberService.UpdateSubscriber');
      checkProject(projectSegment, 'item');
      return patch(name, query, request.body);
    }
    if (method === 'DELETE') {
      authorize(request, query, 'SubscriberService.DeleteSubscriber');
      checkProject(projectSegment, 'item');
      return remove(name);
    }
    // There is no `get` of one subscriber: list and pick.
    throw notFound();
  }

  async function handle(request: FastifyRequest, reply: FastifyReply) {
    reply.header('Cache-Control', 'private');
    try {
      return await answer(request);
    } catch (error) {
      if (error instanceof ApiError) return sendApiError(reply, error);
      throw error;
    }
  }

  // In a scope of their own: a DELETE that says `Content-Type: application/json` without a body
  // (as some client libraries send) is fine, and malformed JSON gets Google's error envelope.
  app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'string' },
      (_request, body, done) => {
        const text = String(body);
        if (text.trim() === '') return done(null, undefined);
        try {
          done(null, JSON.parse(text));
        } catch {
          done(null, MALFORMED);
        }
      },
    );
    scope.route({
      method: ['GET', 'POST', 'PATCH', 'DELETE'],
      url: '/v4/projects/*',
      handler: handle,
    });
  });
}

const MALFORMED = Symbol('malformed JSON');
