import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GrantStore } from '../oidc-grants.js';
import type { Clock } from './clock.js';
import type { HealthControls } from './controls.js';
import { hasHealthProfile, healthIdentity } from './data-generator.js';
import { ApiError, errorInfo, notFound, sendApiError, unauthenticated } from './errors.js';
import type { Faults } from './faults.js';
import { applyFieldMask, type FieldMask, parseFieldMask } from './field-mask.js';
import { getSleep, listPoints } from './list-points.js';
import type { Quota } from './quota.js';
import type { HealthRequest, RequestLog } from './request-log.js';
import { access, type Caller, requireType } from './resource-common.js';
import { dailyRollUp, rollUp } from './roll-up.js';
import type { SyncHorizons } from './sync-horizons.js';
import { identity, pairedDevices, profile, settings } from './user-resources.js';

export { type ListCaller, listPoints, UNBOUNDED_LOOKBACK_DAYS } from './list-points.js';

export interface ResourceServerOptions {
  clock: Clock;
  grants: GrantStore;
  controls: () => HealthControls;
  quota: Quota;
  faults: Faults;
  horizons: SyncHorizons;
  /** Every request to `/v4/…` is noted here (method, path, account). */
  log: RequestLog;
}

interface Call {
  method: string;
  /** The path segments after `/v4/users/{user}/`. */
  rest: string[];
  query: URLSearchParams;
  body: unknown;
  caller: Caller;
  fields: FieldMask | null;
}

function bearer(request: FastifyRequest, query: URLSearchParams): string | null {
  const header = request.headers.authorization;
  if (header && /^Bearer\s+/i.test(header)) return header.replace(/^Bearer\s+/i, '').trim();
  return query.get('access_token') ?? query.get('oauth_token');
}

/** The decoded path and the query of a request; `:rollUp` may arrive as `%3ArollUp`. */
function splitUrl(raw: string): { path: string; query: URLSearchParams } {
  const q = raw.indexOf('?');
  let path: string;
  try {
    path = decodeURIComponent(q < 0 ? raw : raw.slice(0, q));
  } catch {
    throw notFound();
  }
  return { path, query: new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)) };
}

/** The caller behind the bearer token, after the quota, the injected faults and the profile check. */
function callerOf(
  options: ResourceServerOptions,
  knobs: HealthControls,
  request: FastifyRequest,
  query: URLSearchParams,
): Caller {
  const token = bearer(request, query);
  const found = token ? options.grants.lookupAccessToken(token) : null;
  if (!found) throw unauthenticated();
  const { grant } = found;
  const ids = healthIdentity(grant.account.email);
  options.quota.check(ids.healthUserId, grant.clientId, {
    perUser: knobs.perUserPerMinute,
    perProject: knobs.perProjectPerMinute,
  });
  options.faults.check(knobs);
  if (!hasHealthProfile(grant.account.email)) {
    throw new ApiError(
      400,
      'FAILED_PRECONDITION',
      'The Google account is not linked to a Google Health (Fitbit) profile.',
      [errorInfo('ACCOUNT_NOT_LINKED', { redirect_uri: 'https://fitbit.google.com/auth/signup' })],
    );
  }
  const email = grant.account.email;
  return {
    grant,
    email,
    ...ids,
    now: options.horizons.visibleUntil(email, options.clock.now()),
    syncedAt: options.horizons.syncedAt(email),
  };
}

/** `dataTypes/{type}/dataPoints…`: list, reconcile, rollUp, dailyRollUp and get. */
function dataPoints(call: Call): unknown {
  const { method, caller, query, body } = call;
  const [, second, third, fourth] = call.rest;
  if (!second || !third?.startsWith('dataPoints')) return undefined;
  if (!fourth) {
    const type = requireType(second);
    const verb = third.slice('dataPoints'.length);
    const self =
      access(caller.grant, type.area, `DataPointService.${verb || 'List'}`) === 'self-only';
    if (method === 'GET' && (verb === '' || verb === ':reconcile')) {
      return listPoints(caller, type, query, verb === ':reconcile', self, { fields: call.fields });
    }
    if (method === 'POST' && verb === ':rollUp') return rollUp(caller, type, body, self);
    if (method === 'POST' && verb === ':dailyRollUp') return dailyRollUp(caller, type, body, self);
    return undefined;
  }
  if (method === 'GET' && third === 'dataPoints') {
    const type = requireType(second);
    access(caller.grant, type.area, 'DataPointService.GetDataPoint');
    return getSleep(caller, type, fourth);
  }
  return undefined;
}

function route(call: Call): unknown {
  const { method, rest, caller } = call;
  const [head, second] = rest;
  if (method === 'GET' && rest.length === 1 && head === 'identity') return identity(caller);
  if (method === 'GET' && rest.length === 1 && head === 'profile') return profile(caller);
  if (method === 'GET' && rest.length === 1 && head === 'settings') return settings(caller);
  if (method === 'GET' && head === 'pairedDevices' && rest.length <= 2) {
    return pairedDevices(caller, call.query, second);
  }
  const answer = head === 'dataTypes' ? dataPoints(call) : undefined;
  if (answer === undefined) throw notFound();
  return answer;
}

/** Google's Health API at `/v4/users/{me|healthUserId}/…`. */
export function registerResourceServer(app: FastifyInstance, options: ResourceServerOptions): void {
  async function answer(request: FastifyRequest, reply: FastifyReply, knobs: HealthControls) {
    const { path, query } = splitUrl(request.raw.url ?? '');
    const entry: HealthRequest = {
      at: options.clock.now(),
      method: request.method,
      path,
      email: null,
    };
    options.log.add(entry);
    const caller = callerOf(options, knobs, request, query);
    entry.email = caller.email;
    // Partial responses: a malformed selection is refused before any work.
    const fieldsText = query.get('fields');
    const fields = fieldsText ? parseFieldMask(fieldsText) : null;
    const [root, user, ...rest] = path.replace(/^\/v4\//, '').split('/');
    if (root !== 'users' || !user) throw notFound();
    if (user !== 'me' && user !== caller.healthUserId) {
      throw new ApiError(403, 'PERMISSION_DENIED', 'The caller does not have permission');
    }
    const result = route({
      method: request.method,
      rest,
      query,
      body: request.body,
      caller,
      fields,
    });
    if (typeof result === 'string') {
      // Already JSON text, the mask applied: Fastify sends a string with a JSON type as it is.
      reply.type('application/json; charset=utf-8');
      return result;
    }
    return fields ? applyFieldMask(result, fields) : result;
  }

  async function handle(request: FastifyRequest, reply: FastifyReply) {
    const knobs = options.controls();
    if (knobs.latencyMs > 0) await sleep(knobs.latencyMs);
    reply.header('Cache-Control', 'private');
    try {
      return await answer(request, reply, knobs);
    } catch (error) {
      if (error instanceof ApiError) return sendApiError(reply, error);
      throw error;
    }
  }

  app.get('/v4/*', handle);
  app.post('/v4/*', handle);
}
