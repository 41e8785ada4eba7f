import { createHash, randomBytes } from 'node:crypto';
import { CallNotSent, GoogleHealthError, type RpcErrorBody, toError } from './errors.js';
import { createOAuthGrants } from './oauth.js';
import type {
  DailyRollUpRequest,
  DailyRollUpResponse,
  DataPointPage,
  GoogleHealthEndpoints,
  GoogleHealthIdentity,
  ListDataPointsQuery,
  RollUpRequest,
  RollUpResponse,
} from './types.js';

export * from './errors.js';

/**
 * Google Health API over plain fetch, and its Google OAuth grants through `openid-client`
 * (see oauth.ts). Not `google-auth-library`: it brings its own token cache and retry policy and
 * cannot persist a refreshed token before use under our row lock. Every call, the OAuth grants
 * included, goes through one transport that owns the retry policy (429/5xx with Retry-After,
 * never other 4xx) and the error mapping (`invalid_grant`). Tokens pass through here but are
 * never logged or put into error messages.
 */

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface GoogleHealthClientOptions {
  retry?: Partial<RetryPolicy>;
  /** Per-request timeout (30 s: a slow answer is retried rather than waited for). */
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

  /** One call with the retry policy: resolves with a 2xx answer and its bytes, throws else. */
  async function transmit(url: string, init: RequestInit) {
    if (isFitbitHost(url)) throw new FitbitHostRefused(url);
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      } catch (error) {
        // The caller gave up (its own abort; our timeout is a TimeoutError): no retry.
        if (error instanceof Error && error.name === 'AbortError') throw error;
        // Nothing was sent (the caller's quota said no): not a network failure.
        if (error instanceof CallNotSent) throw error;
        // Network failure or timeout: transient like a 503.
        if (attempt + 1 >= retry.maxAttempts) {
          throw new GoogleHealthError('unavailable', 0, 'NETWORK', 'Google: no answer');
        }
        await sleep(backoffMs(attempt, retry, random));
        continue;
      }
      const bytes = Buffer.from(await response.arrayBuffer());
      if (response.ok) return { response, bytes };
      // The status decides first: a proxy's HTML 502/503 is a transient failure, not a parse error.
      if (RETRYABLE.has(response.status) && attempt + 1 < retry.maxAttempts) {
        const hinted = retryAfterMs(response.headers.get('retry-after'));
        await sleep(
          hinted === null ? backoffMs(attempt, retry, random) : Math.min(hinted, retry.maxDelayMs),
        );
        continue;
      }
      const body = readJson(bytes.toString('utf8'));
      throw toError(response.status, (body ?? null) as RpcErrorBody | null);
    }
  }

  /** An API call: resolves with the parsed JSON (or the decoder's value) of a 2xx answer. */
  async function send(url: string, init: RequestInit): Promise<unknown> {
    const { response, bytes } = await transmit(url, init);
    const body = options.decode?.(bytes) ?? readJson(bytes.toString('utf8'));
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

  const grants = createOAuthGrants(endpoints, transmit);

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

    /** Code exchange with the PKCE verifier; the state was checked by the caller. */
    exchangeCode: grants.exchangeCode,

    /** A new access token; Google normally keeps the refresh token, so it may come back null. */
    refresh: grants.refresh,

    /** Revokes the whole grant (either token does). An already dead token counts as revoked. */
    async revoke(token: string): Promise<void> {
      try {
        await grants.revoke(token);
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
    /** `pairedDevices.list` (settings scope): each device with its `lastSyncTime` and battery. */
    listPairedDevices: (accessToken: string) =>
      send(`${api}/v4/users/me/pairedDevices`, bearer(accessToken)) as Promise<{
        pairedDevices?: { name?: string; lastSyncTime?: string; batteryLevel?: number }[];
      }>,
  };
}

export type GoogleHealthClient = ReturnType<typeof createGoogleHealthClient>;
