import {
  ALL_OPERATIONS,
  AUTH_STORAGE_KEYS,
  type AuthUser,
  type ErrorCode,
  type ErrorStatus,
  errorCodesOf,
  errorEnvelopeSchema,
  errorSchemasOf,
  matchOperationPath,
  type NotificationStatus,
  type OperationDefinition,
  PARTICIPANT_SESSION_HEADER,
  type ResearcherApplicationView,
  type ResearcherStatus,
  type UserProfile,
} from '@research/contracts';
import { vi } from 'vitest';

/** What the fake needs of a zod schema (the web does not depend on zod itself). */
interface Schema {
  safeParse(value: unknown): { success: true } | { success: false; error: { message: string } };
}

/**
 * A stand-in for the server at the network boundary: `fetch` is replaced, everything above it
 * (api client, providers, pages) is the real code. Routes are 'METHOD /path' → reply; the
 * request keeps its query string, so a test can answer (and assert) by limit, offset or status.
 */
export interface FakeRequest {
  method: string;
  /** The path without the query string; routes are matched on it. */
  path: string;
  /** The query string as sent ('?limit=24&offset=0', or '' without one). */
  search: string;
  query: URLSearchParams;
  body: unknown;
  authorization: string | null;
  /** The participant session header, when the request carried one. */
  participantSession: string | null;
}

export interface FakeReply {
  status?: number;
  body: unknown;
  /**
   * A reply the real server never sends, on purpose: for tests of how the client copes with a
   * malformed answer. Any other reply must keep the route's contract.
   */
  offContract?: true;
}

export type FakeRoute = FakeReply | ((request: FakeRequest) => FakeReply | Promise<FakeReply>);

/** The operation the server would route this request to (fixed paths before parameters). */
function operationOf(method: string, path: string): OperationDefinition | undefined {
  const candidates = ALL_OPERATIONS.filter(
    (op) => op.method === method && matchOperationPath(op, path),
  );
  return candidates.sort((a, b) => paramCount(a.path) - paramCount(b.path))[0];
}
const paramCount = (path: string) => path.split('/').filter((part) => part.startsWith(':')).length;

/**
 * The answer to a call the test set no reply for: the route's own "not found" when it has one
 * (an unknown study is STUDY_NOT_FOUND), else a bare 404 that stands for "nothing set up".
 */
function notFoundReply(request: FakeRequest): FakeReply {
  const operation = operationOf(request.method, request.path);
  const code = operation ? errorCodesOf(operation).get(404)?.[0] : undefined;
  return code
    ? { status: 404, body: failure('Not found', code) }
    : { status: 404, body: failure('Not found', 'NOT_FOUND'), offContract: true };
}

/**
 * Why a request or reply breaks the contract of the operation it reaches, or null when it keeps
 * it: the request's params, query and JSON body, then the reply's body for its status.
 */
function contractBreach(request: FakeRequest, reply: FakeReply): string | null {
  if (reply.offContract) return null;
  const status = reply.status ?? 200;
  const operation = operationOf(request.method, request.path);
  // Every call the web makes is an operation: a page calling anything else is a bug.
  if (!operation) return 'no operation of the contracts answers this call';
  if (operation.params) {
    const params = operation.params.safeParse(matchOperationPath(operation, request.path));
    if (!params.success) return `path parameters rejected: ${params.error.message}`;
  }
  if (operation.query) {
    const query = operation.query.safeParse(Object.fromEntries(request.query));
    if (!query.success) return `query ${request.search} rejected: ${query.error.message}`;
  }
  // A JSON body the server would refuse with 400 is a bug in the page, whatever the fake answers.
  if (operation.body && !(request.body instanceof FormData)) {
    const body = operation.body.safeParse(request.body);
    if (!body.success) return `request body rejected: ${body.error.message}`;
  }
  if (status >= 400) {
    // The operation's own body for that status, else its envelope with its closed set of codes.
    const schema: Schema =
      operation.otherResponses?.[status as ErrorStatus] ??
      errorSchemasOf(operation).get(status as ErrorStatus) ??
      errorEnvelopeSchema;
    const parsed = schema.safeParse(reply.body);
    return parsed.success ? null : `error body breaks the contract: ${parsed.error.message}`;
  }
  if (operation.response === 'raw') return null;
  const parsed = operation.response.safeParse(reply.body);
  return parsed.success ? null : `reply breaks the response schema: ${parsed.error.message}`;
}

export function installFakeApi(routes: Record<string, FakeRoute>) {
  const calls: FakeRequest[] = [];
  const fetchStandIn = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://app.test');
    const headers = new Headers(init?.headers);
    const request: FakeRequest = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      search: url.search,
      query: url.searchParams,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body,
      authorization: headers.get('Authorization'),
      participantSession: headers.get(PARTICIPANT_SESSION_HEADER),
    };
    calls.push(request);
    const route = routes[`${request.method} ${request.path}`];
    const reply: FakeReply = route
      ? typeof route === 'function'
        ? await route(request)
        : route
      : notFoundReply(request);
    const breach = contractBreach(request, reply);
    if (breach) {
      // Thrown from fetch, this would read as a network failure the page may well handle; the
      // test must fail instead, so the breach is recorded and setup.ts fails the test with it.
      breaches.push(`${request.method} ${request.path}${request.search}: ${breach}`);
      return new Response(JSON.stringify(failure(breach, BREACH_CODE)), {
        status: 418,
        headers: { 'content-type': 'application/json' },
      });
    }
    return new Response(JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  vi.stubGlobal('fetch', vi.fn(fetchStandIn));
  return { calls };
}

const BREACH_CODE = 'FAKE_CONTRACT_BREACH';

/** Contract breaches of fake replies in the current test; `setup.ts` fails the test on any. */
export const breaches: string[] = [];

export function failure(message: string, code: ErrorCode | typeof BREACH_CODE) {
  return { success: false, error: message, message, code };
}

export function makeUser(overrides: Partial<AuthUser> = {}): AuthUser {
  return {
    id: 'u-1',
    uid: 'u-1',
    email: 'ada@example.test',
    displayName: 'Ada Lovelace King',
    photoURL: null,
    role: 'researcher',
    ...overrides,
  };
}

export function makeProfile(overrides: Partial<UserProfile> = {}): UserProfile {
  return {
    id: 'u-1',
    email: 'ada@example.test',
    firstName: 'Ada',
    lastName: 'Lovelace King',
    role: 'researcher',
    status: 'noprofile',
    institution: null,
    department: null,
    position: null,
    approvedAt: null,
    isMasterAccount: false,
    emailVerified: true,
    ...overrides,
  };
}

/** Ada's researcher application, pending unless the overrides say otherwise. */
export function makeApplication(
  overrides: Partial<ResearcherApplicationView> = {},
): ResearcherApplicationView {
  return {
    id: 'app-1',
    userId: 'u-1',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.test',
    dateOfBirth: '1990-05-17',
    phoneNumber: '+15551234567',
    institution: 'Analytical Engine Institute',
    position: 'Professor',
    department: null,
    researchArea: null,
    description: null,
    status: 'pending',
    submittedAt: '2026-03-14T12:00:00.000Z',
    reviewedAt: null,
    reviewNotes: null,
    verificationDocuments: [],
    ...overrides,
  };
}

/** The master dashboard's notification card: a subscriber registered here, nothing received. */
export function makeNotificationStatus(
  overrides: Partial<NotificationStatus> = {},
): NotificationStatus {
  const endpointUrl = 'https://research.example.org/webhooks/google-health';
  return {
    subscriber: {
      status: 'registered',
      name: 'projects/424242424242/subscribers/research-platform',
      state: 'ACTIVE',
      endpointUri: endpointUrl,
      isThisEndpoint: true,
      secretSet: true,
      configs: [{ subscriptionCreatePolicy: 'AUTOMATIC', dataTypes: ['heart-rate', 'steps'] }],
      missingDataTypes: [],
    },
    checkedAt: '2026-03-14T12:00:00.000Z',
    endpointUrl,
    secretConfigured: true,
    received: { lastAt: null, lastDataType: null, last24Hours: 0 },
    backlog: {
      unresolved: 0,
      oldestUnresolvedAt: null,
      pending: 0,
      processing: 0,
      oldestPendingAt: null,
    },
    refusals: [],
    ...overrides,
  };
}

export const TEST_TOKEN = 'test-session-token-0123456789';

export function storeSession(user: AuthUser = makeUser(), token = TEST_TOKEN) {
  sessionStorage.setItem(AUTH_STORAGE_KEYS.token, token);
  sessionStorage.setItem(AUTH_STORAGE_KEYS.user, JSON.stringify(user));
}

export type AccountKind = 'signed-out' | ResearcherStatus | 'master';

/**
 * Stores a session for the kind of account and answers verify, master check and profile as the
 * server would for it. 'signed-out' stores nothing.
 */
export function installAccount(kind: AccountKind, extraRoutes: Record<string, FakeRoute> = {}) {
  const isMaster = kind === 'master';
  const user = makeUser(isMaster ? { role: 'master', displayName: 'Grace Hopper' } : {});
  if (kind !== 'signed-out') storeSession(user);
  const profile = isMaster
    ? makeProfile({ id: 'master', role: 'master', status: 'approved', isMasterAccount: true })
    : makeProfile({ status: kind === 'signed-out' ? 'noprofile' : kind });
  return installFakeApi({
    'POST /api/auth/verify-token': { body: { success: true, user } },
    'GET /api/admin/check-master-status': { body: { success: true, isMasterAccount: isMaster } },
    'GET /api/auth/profile': { body: { success: true, researcher: profile } },
    'POST /api/auth/logout': { body: { success: true } },
    // An approved researcher lands on the dashboard, which lists studies straight away.
    ...(kind === 'approved'
      ? {
          'GET /api/auth/researcher-studies': { body: { success: true, data: [], totalCount: 0 } },
          'GET /api/auth/collaborative-studies': {
            body: { success: true, data: [], totalCount: 0 },
          },
        }
      : {}),
    ...extraRoutes,
  });
}
