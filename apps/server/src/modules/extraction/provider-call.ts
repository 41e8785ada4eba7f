import {
  createGoogleHealthClient,
  type GoogleHealthClient,
  type GoogleHealthClientOptions,
  type GoogleHealthEndpoints,
} from '../../platform/google-health/index.js';
import { instantText, localMidnight } from './local-day.js';
import type { PlannedCall } from './plan.js';
import type { SentRequest } from './records.js';

/**
 * One page of a planned call through the shared Google Health client (its retry policy: 429/5xx,
 * Retry-After, jitter), answered together with the request as it went out. The request is
 * described once, by the client's method; what the manifest lists is read off the very fetch that
 * carried it, so the manifest's "exact request" cannot drift from the call.
 */

const snake = (apiType: string) => apiType.replace(/-/g, '_');
const civil = (date: string) => {
  const [year, month, day] = date.split('-').map(Number);
  return { date: { year: year ?? 0, month: month ?? 0, day: day ?? 0 } };
};

/** The list filter of a call: civil bounds, end-based for sleep. */
export function filterOf(call: PlannedCall): string | undefined {
  const { spec, from, to } = call;
  if (!spec.apiType || !from || !to) return undefined;
  const t = snake(spec.apiType);
  const member =
    spec.filter === 'interval-civil'
      ? `${t}.interval.civil_start_time`
      : spec.filter === 'sample-civil'
        ? `${t}.sample_time.civil_time`
        : spec.filter === 'daily-date'
          ? `${t}.date`
          : spec.filter === 'sleep-civil-end'
            ? `${t}.interval.civil_end_time`
            : null;
  return member ? `${member} >= "${from}" AND ${member} < "${to}"` : undefined;
}

/**
 * 60-second buckets carry no offset: the range is the days' physical bounds, local midnight of
 * `from` to local midnight of `to` in the participant's zone (UTC days without one).
 */
const rollUpBody = (call: PlannedCall, pageToken: string | null) => ({
  range: {
    startTime: instantText(localMidnight(call.timeZone ?? 'UTC', call.from ?? '')),
    endTime: instantText(localMidnight(call.timeZone ?? 'UTC', call.to ?? '')),
  },
  windowSize: call.spec.windowSize ?? '60s',
  ...(call.spec.pageSize ? { pageSize: call.spec.pageSize } : {}),
  ...(pageToken ? { pageToken } : {}),
});

const dailyRollUpBody = (call: PlannedCall, pageToken: string | null) => ({
  range: { start: civil(call.from ?? ''), end: civil(call.to ?? '') },
  windowSizeDays: 1,
  ...(pageToken ? { pageToken } : {}),
});

/** Sends one page of the call with the client's method for it. */
async function send(
  client: GoogleHealthClient,
  token: string,
  call: PlannedCall,
  pageToken: string | null,
): Promise<void> {
  const { spec } = call;
  const apiType = spec.apiType ?? '';
  const fields = spec.fields ? { fields: spec.fields } : {};
  switch (spec.method) {
    case 'identity':
      await client.getIdentity(token);
      return;
    case 'profile':
      await client.getProfile(token);
      return;
    case 'settings':
      await client.getSettings(token);
      return;
    case 'list': {
      const filter = filterOf(call);
      await client.listDataPoints(token, apiType, {
        ...(filter ? { filter } : {}),
        ...(spec.pageSize ? { pageSize: spec.pageSize } : {}),
        ...(spec.dataSourceFamily ? { dataSourceFamily: spec.dataSourceFamily } : {}),
        ...(pageToken ? { pageToken } : {}),
        ...fields,
      });
      return;
    }
    case 'rollUp':
      await client.rollUp(token, apiType, rollUpBody(call, pageToken), fields);
      return;
    case 'dailyRollUp':
      await client.dailyRollUp(token, apiType, dailyRollUpBody(call, pageToken), fields);
      return;
  }
}

/** The request a fetch carries: method, address and JSON body; its headers (the token) never. */
function sentRequest(input: string | URL | Request, init: RequestInit | undefined): SentRequest {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : null;
  return { method: init?.method ?? 'GET', url, body };
}

/** What one page exchange was: the request as sent and the answer as received. */
export interface Exchange {
  request: SentRequest;
  /** The answer's bytes, stored as they came. */
  bytes: Buffer;
  /** The answer as read: parsed JSON, or what the call's reader made of the bytes. */
  body: unknown;
  /** The call had a fast reader, which could not read this answer (it was parsed as JSON). */
  readAsJson: boolean;
}

/** Reads a page's bytes in place of JSON.parse; null when it cannot (JSON.parse then). */
export type PageReader = (bytes: Buffer) => unknown;

export interface ProviderCallOptions {
  endpoints: GoogleHealthEndpoints;
  clientOptions?: Omit<GoogleHealthClientOptions, 'fetch'> | undefined;
  fetch: typeof fetch;
  /** Awaited before every request goes out (the quota's slot). */
  beforeEach: () => Promise<void>;
}

/**
 * A task's own caller: its pages go out one after another, so the last request sent is the one
 * the answer belongs to (a retried request is sent again unchanged).
 */
export function createProviderCall(options: ProviderCallOptions) {
  let sent: SentRequest | null = null;
  let answer: { bytes: Buffer; body: unknown } | null = null;
  let reader: PageReader | null = null;
  let fellBack = false;
  const client = createGoogleHealthClient(options.endpoints, {
    ...options.clientOptions,
    fetch: async (input, init) => {
      await options.beforeEach();
      sent = sentRequest(input as string | URL | Request, init);
      return options.fetch(input, init);
    },
    onBody: (bytes, body) => {
      answer = { bytes, body };
    },
    decode: (bytes) => {
      if (!reader) return null;
      const read = reader(bytes);
      fellBack = read === null;
      return read;
    },
  });

  /** One page of `call` (`pageToken` for the ones after the first), sent with `token`. */
  return async function exchange(
    token: string,
    call: PlannedCall,
    pageToken: string | null,
    pageReader: PageReader | null,
  ): Promise<Exchange> {
    sent = null;
    answer = null;
    reader = pageReader;
    fellBack = false;
    await send(client, token, call, pageToken);
    const request = sent as SentRequest | null;
    const received = answer as { bytes: Buffer; body: unknown } | null;
    // Held by the caller alone from here, so a page is not kept alive until the next one.
    answer = null;
    if (!request || !received) throw new Error('The client answered without a request');
    return { request, ...received, readAsJson: pageReader !== null && fellBack };
  };
}

export type ProviderCall = ReturnType<typeof createProviderCall>;
