import {
  AUTH_STORAGE_KEYS,
  type AuthUser,
  type ResearcherStatus,
  type UserProfile,
} from '@research/contracts';
import { vi } from 'vitest';

/**
 * A stand-in for the server at the network boundary: `fetch` is replaced, everything above it
 * (api client, providers, pages) is the real code. Routes are 'METHOD /path' → reply.
 */
export interface FakeRequest {
  method: string;
  path: string;
  body: unknown;
  authorization: string | null;
}

export interface FakeReply {
  status?: number;
  body: unknown;
}

export type FakeRoute = FakeReply | ((request: FakeRequest) => FakeReply | Promise<FakeReply>);

export function installFakeApi(routes: Record<string, FakeRoute>) {
  const calls: FakeRequest[] = [];
  const fetchStandIn = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://app.test');
    const headers = new Headers(init?.headers);
    const request: FakeRequest = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      authorization: headers.get('Authorization'),
    };
    calls.push(request);
    const route = routes[`${request.method} ${request.path}`];
    const reply: FakeReply = route
      ? typeof route === 'function'
        ? await route(request)
        : route
      : { status: 404, body: failure('Not found', 'NOT_FOUND') };
    return new Response(JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  vi.stubGlobal('fetch', vi.fn(fetchStandIn));
  return { calls };
}

export function failure(message: string, code: string) {
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
