import { createHash, randomBytes } from 'node:crypto';
import type {
  DailyRollUpRequest,
  DailyRollUpResponse,
  DataPointPage,
  GoogleHealthIdentity,
  ListDataPointsQuery,
  RollUpRequest,
  RollUpResponse,
  TokenSet,
} from './types.js';

/**
 * Google Health API and its Google OAuth endpoints, over plain fetch.
 *
 * Why not a library: `google-auth-library` brings its own token cache and retry policy and cannot
 * persist a refreshed token before use under our row lock; `openid-client` v6 is built around
 * OpenID discovery and ID tokens, which these grants do not have (no `openid` scope). What is left
 * is three form POSTs and JSON GETs, where owning the retry policy (429/5xx with Retry-After,
 * never other 4xx) and the error mapping (`invalid_grant`) matters more than the code saved.
 * Tokens pass through here but are never logged or put into error messages.
 */

export interface GoogleHealthEndpoints {
  authUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  apiUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface GoogleHealthClientOptions {
  retry?: Partial<RetryPolicy>;
  /** Per-request timeout (30 s). */
  timeoutMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** 0 ≤ x < 1; injectable so back-off tests are deterministic. */
  random?: () => number;
  /**
   * Sees each 2xx answer's bytes and its parsed JSON (extraction stores the bytes as received and
   * tidies the JSON, neither made twice).
   */
  onBody?: (bytes: Buffer, body: unknown) => void;
  /**
   * Reads a 2xx answer's bytes in place of JSON.parse, null to parse them as usual (extraction
   * tidies raw heart-rate pages straight from the bytes; the methods then resolve with its value).
   */
  decode?: (bytes: Buffer) => unknown;
}

export type GoogleHealthErrorKind =
  | 'invalid_grant'
  | 'unauthenticated'
  | 'permission_denied'
  | 'account_not_linked'
  | 'rate_limited'
  | 'unavailable'
  | 'bad_request'
  /** A 2xx answer we cannot read (not JSON). */
  | 'invalid_response';

/** A provider answer we could not use; the message never contains a token. */
export class GoogleHealthError extends Error {
  constructor(
    readonly kind: GoogleHealthErrorKind,
    readonly status: number,
    /** OAuth `error` or the RPC `status`/ErrorInfo reason. */
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'GoogleHealthError';
  }
}

/** Hosts of the Fitbit Web API and Fitbit OAuth, switched off on 2 Nov 2026. */
const FITBIT_HOST = /(?:^|\.)fitbit\.com$/;

export function isFitbitHost(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return false;
  }
  return FITBIT_HOST.test(host);
}

class FitbitHostRefused extends Error {
  constructor(url: string) {
    super(`Refusing a Fitbit host (${new URL(url).hostname}): the Fitbit Web API is switched off`);
    this.name = 'FitbitHostRefused';
  }
}

const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 64_000 };
const RETRYABLE = new Set([429, 500, 502, 503, 504]);

/** PKCE S256 (RFC 7636): 32 random bytes as base64url (43 characters) and its challenge. */
export function createPkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** `Retry-After` as seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Exponential back-off with "equal jitter": half fixed, half random, capped. */
export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

interface RpcErrorBody {
  error?:
    | string
    | {
        code?: number;
        message?: string;
        status?: string;
        details?: { reason?: string }[];
      };
  error_description?: string;
}

function toError(status: number, body: RpcErrorBody | null): GoogleHealthError {
  const err = body?.error;
  if (typeof err === 'string') {
    // OAuth endpoint shape.
    const kind: GoogleHealthErrorKind =
      err === 'invalid_grant'
        ? 'invalid_grant'
        : status === 429
          ? 'rate_limited'
          : status >= 500
            ? 'unavailable'
            : 'bad_request';
    return new GoogleHealthError(kind, status, err, `Google OAuth: ${err}`);
  }
  const rpcStatus = err?.status ?? `HTTP_${status}`;
  const reason = err?.details?.find((d) => d.reason)?.reason ?? rpcStatus;
  const kind: GoogleHealthErrorKind =
    status === 401
      ? 'unauthenticated'
      : status === 403
        ? 'permission_denied'
        : status === 429
          ? 'rate_limited'
          : status >= 500
            ? 'unavailable'
            : reason === 'ACCOUNT_NOT_LINKED'
              ? 'account_not_linked'
              : 'bad_request';
  return new GoogleHealthError(kind, status, reason, `Google Health API: ${status} ${reason}`);
}

/** `?fields=…` of a partial response (a query parameter on POST calls too), or nothing. */
export const fieldsQuery = (fields: string | undefined) =>
  fields ? `?${new URLSearchParams({ fields })}` : '';

/** The parsed body; `{}` for an empty one, undefined when it is not JSON. */
function readJson(text: string): unknown {
  if (!text) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function tokenSetFrom(body: Record<string, unknown>, now: number): TokenSet {
  const accessToken = body.access_token;
  if (typeof accessToken !== 'string' || accessToken === '') {
    throw new GoogleHealthError('bad_request', 200, 'no_access_token', 'Google OAuth: no token');
  }
  const expiresIn = Number(body.expires_in ?? 3600);
  const refreshExpiresIn =
    body.refresh_token_expires_in === undefined ? null : Number(body.refresh_token_expires_in);
  return {
    accessToken,
    refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : null,
    expiresAt: new Date(now + expiresIn * 1000),
    refreshExpiresAt: refreshExpiresIn === null ? null : new Date(now + refreshExpiresIn * 1000),
    scopes: typeof body.scope === 'string' ? body.scope.split(' ').filter(Boolean) : [],
  };
}

export function createGoogleHealthClient(
  endpoints: GoogleHealthEndpoints,
  options: GoogleHealthClientOptions = {},
) {
  // No configuration may send a participant or a token to a retired Fitbit host.
  for (const url of [
    endpoints.authUrl,
    endpoints.tokenUrl,
    endpoints.revokeUrl,
    endpoints.apiUrl,
  ]) {
    if (isFitbitHost(url)) throw new FitbitHostRefused(url);
  }
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const random = options.random ?? Math.random;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const api = endpoints.apiUrl.replace(/\/$/, '');

  /** One call with the retry policy; resolves with the parsed JSON of a 2xx answer. */
  async function send(url: string, init: RequestInit): Promise<unknown> {
    if (isFitbitHost(url)) throw new FitbitHostRefused(url);
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      } catch {
        // Network failure or timeout: transient like a 503.
        if (attempt + 1 >= retry.maxAttempts) {
          throw new GoogleHealthError('unavailable', 0, 'NETWORK', 'Google: no answer');
        }
        await sleep(backoffMs(attempt, retry, random));
        continue;
      }
      const bytes = Buffer.from(await response.arrayBuffer());
      // The status decides first: a proxy's HTML 502/503 is a transient failure, not a parse error.
      const body =
        (response.ok ? options.decode?.(bytes) : null) ?? readJson(bytes.toString('utf8'));
      if (response.ok) {
        if (body === undefined) {
          throw new GoogleHealthError(
            'invalid_response',
            response.status,
            'NOT_JSON',
            `Google: the answer (HTTP ${response.status}) is not JSON`,
          );
        }
        options.onBody?.(bytes, body);
        return body;
      }
      if (RETRYABLE.has(response.status) && attempt + 1 < retry.maxAttempts) {
        const hinted = retryAfterMs(response.headers.get('retry-after'));
        await sleep(
          hinted === null ? backoffMs(attempt, retry, random) : Math.min(hinted, retry.maxDelayMs),
        );
        continue;
      }
      throw toError(response.status, (body ?? null) as RpcErrorBody | null);
    }
  }

  const form = (fields: Record<string, string>): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(fields).toString(),
  });

  const bearer = (accessToken: string, init: RequestInit = {}): RequestInit => ({
    ...init,
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${accessToken}`,
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
  });

  const dataPointsPath = (dataType: string) =>
    `${api}/v4/users/me/dataTypes/${encodeURIComponent(dataType)}/dataPoints`;

  return {
    endpoints,

    /** The consent page address: offline access, forced consent, PKCE S256. */
    authorizationUrl(input: {
      state: string;
      codeChallenge: string;
      redirectUri: string;
      scopes: readonly string[];
      loginHint?: string;
    }): string {
      const url = new URL(endpoints.authUrl);
      url.search = new URLSearchParams({
        client_id: endpoints.clientId,
        redirect_uri: input.redirectUri,
        response_type: 'code',
        scope: input.scopes.join(' '),
        access_type: 'offline',
        prompt: 'consent',
        // No include_granted_scopes: we never authorize incrementally, and with it Google would
        // add back scopes granted earlier, so a scope unticked on a reconnect would stay granted.
        state: input.state,
        code_challenge: input.codeChallenge,
        code_challenge_method: 'S256',
        ...(input.loginHint ? { login_hint: input.loginHint } : {}),
      }).toString();
      return url.toString();
    },

    async exchangeCode(input: {
      code: string;
      codeVerifier: string;
      redirectUri: string;
    }): Promise<TokenSet> {
      const body = await send(
        endpoints.tokenUrl,
        form({
          grant_type: 'authorization_code',
          code: input.code,
          code_verifier: input.codeVerifier,
          redirect_uri: input.redirectUri,
          client_id: endpoints.clientId,
          client_secret: endpoints.clientSecret,
        }),
      );
      return tokenSetFrom(body as Record<string, unknown>, Date.now());
    },

    /** A new access token; Google normally keeps the refresh token, so it may come back null. */
    async refresh(refreshToken: string): Promise<TokenSet> {
      const body = await send(
        endpoints.tokenUrl,
        form({
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
          client_id: endpoints.clientId,
          client_secret: endpoints.clientSecret,
        }),
      );
      return tokenSetFrom(body as Record<string, unknown>, Date.now());
    },

    /** Revokes the whole grant (either token does). An already dead token counts as revoked. */
    async revoke(token: string): Promise<void> {
      try {
        await send(endpoints.revokeUrl, form({ token }));
      } catch (error) {
        if (error instanceof GoogleHealthError && error.status === 400) return;
        throw error;
      }
    },

    async getIdentity(accessToken: string): Promise<GoogleHealthIdentity> {
      const body = (await send(`${api}/v4/users/me/identity`, bearer(accessToken))) as {
        healthUserId?: string;
        legacyUserId?: string;
      };
      if (!body.healthUserId) {
        throw new GoogleHealthError('bad_request', 200, 'NO_HEALTH_USER_ID', 'No health user id');
      }
      return { healthUserId: body.healthUserId, legacyUserId: body.legacyUserId ?? null };
    },

    /** One page of `dataPoints.list`; pass `nextPageToken` back with the same query. */
    async listDataPoints<T = Record<string, unknown>>(
      accessToken: string,
      dataType: string,
      query: ListDataPointsQuery,
    ): Promise<DataPointPage<T>> {
      const params = new URLSearchParams();
      if (query.filter) params.set('filter', query.filter);
      if (query.pageSize) params.set('pageSize', String(query.pageSize));
      if (query.pageToken) params.set('pageToken', query.pageToken);
      if (query.dataSourceFamily) params.set('dataSourceFamily', query.dataSourceFamily);
      if (query.fields) params.set('fields', query.fields);
      const method = query.reconcile ? ':reconcile' : '';
      const body = (await send(
        `${dataPointsPath(dataType)}${method}?${params}`,
        bearer(accessToken),
      )) as { dataPoints?: T[]; nextPageToken?: string };
      return { dataPoints: body.dataPoints ?? [], nextPageToken: body.nextPageToken || null };
    },

    /** Every page of a `list` query, in the provider's order. */
    async *listAllDataPoints<T = Record<string, unknown>>(
      accessToken: string,
      dataType: string,
      query: Omit<ListDataPointsQuery, 'pageToken'>,
    ): AsyncGenerator<T[]> {
      let pageToken: string | null = null;
      do {
        const page: DataPointPage<T> = await this.listDataPoints<T>(accessToken, dataType, {
          ...query,
          ...(pageToken ? { pageToken } : {}),
        });
        yield page.dataPoints;
        pageToken = page.nextPageToken;
      } while (pageToken);
    },

    /** `dataPoints:rollUp`: physical-time buckets; max 14 or 90 days per call. */
    async rollUp<T = Record<string, unknown>>(
      accessToken: string,
      dataType: string,
      request: RollUpRequest,
      options: { fields?: string } = {},
    ): Promise<RollUpResponse<T>> {
      const body = (await send(
        `${dataPointsPath(dataType)}:rollUp${fieldsQuery(options.fields)}`,
        bearer(accessToken, { method: 'POST', body: JSON.stringify(request) }),
      )) as { rollupDataPoints?: T[]; nextPageToken?: string };
      return {
        rollupDataPoints: body.rollupDataPoints ?? [],
        nextPageToken: body.nextPageToken || null,
      };
    },

    /** `dataPoints:dailyRollUp`: civil-day buckets; send no pageSize (observed 400). */
    async dailyRollUp<T = Record<string, unknown>>(
      accessToken: string,
      dataType: string,
      request: DailyRollUpRequest,
      options: { fields?: string } = {},
    ): Promise<DailyRollUpResponse<T>> {
      const body = (await send(
        `${dataPointsPath(dataType)}:dailyRollUp${fieldsQuery(options.fields)}`,
        bearer(accessToken, { method: 'POST', body: JSON.stringify(request) }),
      )) as { rollupDataPoints?: T[]; nextPageToken?: string };
      return {
        rollupDataPoints: body.rollupDataPoints ?? [],
        nextPageToken: body.nextPageToken || null,
      };
    },

    /** `users.getProfile` / `getSettings`. */
    getProfile: (accessToken: string) =>
      send(`${api}/v4/users/me/profile`, bearer(accessToken)) as Promise<Record<string, unknown>>,
    getSettings: (accessToken: string) =>
      send(`${api}/v4/users/me/settings`, bearer(accessToken)) as Promise<Record<string, unknown>>,
  };
}

export type GoogleHealthClient = ReturnType<typeof createGoogleHealthClient>;
