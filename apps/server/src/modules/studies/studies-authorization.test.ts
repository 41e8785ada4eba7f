import { beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createMaster,
  researcherWithApplication,
  someAddress,
} from '../../test/auth-helpers.js';
import { useTestApp } from '../../test/test-app.js';

type Role =
  | 'anonymous'
  | 'pending researcher'
  | 'approved non-member'
  | 'collaborator'
  | 'owner'
  | 'master';
const ROLES: Role[] = [
  'anonymous',
  'pending researcher',
  'approved non-member',
  'collaborator',
  'owner',
  'master',
];

/**
 * Every study route against every kind of caller. Expected: signed out 401; pending researcher
 * and master 403 (not researchers who may work with studies); non-members 403; collaborators
 * read; only the owner changes, re-passwords or deletes; nobody but the owner sees the password.
 */
describe('authorization matrix of the study routes', () => {
  const t = useTestApp();
  const tokens = new Map<Role, string | null>();
  let studyId: string;
  let studyCode: string;

  beforeAll(async () => {
    const master = await createMaster(t.app);
    const owner = await researcherWithApplication(t.app, 'approved', master);
    const collaborator = await researcherWithApplication(t.app, 'approved', master);
    tokens.set('anonymous', null);
    tokens.set('master', master.token);
    tokens.set('owner', owner.token);
    tokens.set('collaborator', collaborator.token);
    tokens.set('pending researcher', (await researcherWithApplication(t.app, 'pending')).token);
    tokens.set(
      'approved non-member',
      (await researcherWithApplication(t.app, 'approved', master)).token,
    );
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/auth/create-study',
      headers: bearer(owner.token),
      payload: {
        name: 'Matrix study',
        password: 'matrix-pass',
        collaborators: [collaborator.email],
      },
      remoteAddress: someAddress(),
    });
    studyId = created.json().study.id;
    studyCode = created.json().study.studyCode;
  });

  const call = (
    role: Role,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
  ) => {
    const token = tokens.get(role);
    return t.app.inject({
      method,
      url,
      ...(token ? { headers: bearer(token) } : {}),
      ...(payload ? { payload } : {}),
      remoteAddress: someAddress(),
    });
  };

  const researcherOnly = (ok: number) => (role: Role) =>
    role === 'anonymous' ? 401 : role === 'pending researcher' || role === 'master' ? 403 : ok;
  const membersOnly =
    (ok: number, ownerOnly = false) =>
    (role: Role) =>
      role === 'anonymous'
        ? 401
        : role === 'owner' || (role === 'collaborator' && !ownerOnly)
          ? ok
          : 403;

  it('answers each route with the right status for each role', async () => {
    const routes: {
      name: string;
      method: 'GET' | 'POST' | 'PUT' | 'DELETE';
      url: () => string;
      payload?: Record<string, unknown>;
      expect: (r: Role) => number;
    }[] = [
      {
        name: 'owned list',
        method: 'GET',
        url: () => '/api/auth/researcher-studies',
        expect: researcherOnly(200),
      },
      {
        name: 'collaborative list',
        method: 'GET',
        url: () => '/api/auth/collaborative-studies',
        expect: researcherOnly(200),
      },
      {
        name: '/api/studies',
        method: 'GET',
        url: () => '/api/studies',
        expect: researcherOnly(200),
      },
      {
        name: 'create',
        method: 'POST',
        url: () => '/api/auth/create-study',
        payload: { name: 'Another' },
        expect: researcherOnly(201),
      },
      {
        name: 'join',
        method: 'POST',
        url: () => '/api/auth/join-study',
        payload: { studyCode: 'ZZZZZZ', password: 'wrong-pass' },
        expect: researcherOnly(400),
      },
      {
        name: 'detail',
        method: 'GET',
        url: () => `/api/studies/${studyId}`,
        expect: membersOnly(200),
      },
      {
        name: 'bucket url',
        method: 'GET',
        url: () => `/api/studies/${studyId}/bucket-signed-url`,
        expect: membersOnly(200),
      },
      {
        name: 'update (auth path)',
        method: 'PUT',
        url: () => `/api/auth/update-study/${studyId}`,
        payload: { description: 'changed' },
        expect: membersOnly(200, true),
      },
      {
        name: 'update (studies path)',
        method: 'PUT',
        url: () => `/api/studies/${studyId}`,
        payload: { duration: '6 weeks' },
        expect: membersOnly(200, true),
      },
      {
        name: 're-password',
        method: 'PUT',
        url: () => `/api/auth/update-study/${studyId}`,
        payload: { password: 'matrix-pass', currentPassword: 'matrix-pass' },
        expect: membersOnly(200, true),
      },
      {
        name: 'verify code (public)',
        method: 'POST',
        url: () => '/api/auth/verify-study-code',
        payload: { studyCode },
        expect: () => 200,
      },
    ];
    const wrong: string[] = [];
    for (const route of routes) {
      for (const role of ROLES) {
        const res = await call(role, route.method, route.url(), route.payload);
        const expected = route.expect(role);
        if (res.statusCode !== expected)
          wrong.push(`${route.name} as ${role}: ${res.statusCode}, expected ${expected}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('shows the study password to the owner only', async () => {
    const forOwner = (await call('owner', 'GET', `/api/studies/${studyId}`)).json().study;
    const forCollaborator = (await call('collaborator', 'GET', `/api/studies/${studyId}`)).json()
      .study;
    expect(forOwner.password).toBe('matrix-pass');
    expect(forCollaborator).not.toHaveProperty('password');
    const collabList = (await call('collaborator', 'GET', '/api/auth/collaborative-studies')).json()
      .data;
    expect(JSON.stringify(collabList)).not.toContain('matrix-pass');
  });

  it('answers 404 for unknown and deleted studies, before membership', async () => {
    expect(
      (
        await call(
          'approved non-member',
          'GET',
          '/api/studies/00000000-0000-4000-8000-000000000000',
        )
      ).statusCode,
    ).toBe(404);
    expect((await call('owner', 'GET', '/api/studies/not-a-uuid')).statusCode).toBe(404);
    // Deleting: collaborator refused, owner allowed, then everyone gets 404.
    expect(
      (await call('collaborator', 'DELETE', `/api/auth/delete-study/${studyId}`)).statusCode,
    ).toBe(403);
    expect(
      (await call('approved non-member', 'DELETE', `/api/studies/${studyId}`)).statusCode,
    ).toBe(403);
    expect((await call('master', 'DELETE', `/api/studies/${studyId}`)).statusCode).toBe(403);
    expect((await call('anonymous', 'DELETE', `/api/studies/${studyId}`)).statusCode).toBe(401);
    expect((await call('owner', 'DELETE', `/api/auth/delete-study/${studyId}`)).statusCode).toBe(
      200,
    );
    for (const role of ['owner', 'collaborator', 'approved non-member'] as const) {
      expect((await call(role, 'GET', `/api/studies/${studyId}`)).statusCode).toBe(404);
    }
  });
});
