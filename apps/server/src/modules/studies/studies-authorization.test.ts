import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Method,
  memberStatus,
  STUDY_ROLES,
  type StudyRole,
  studyRoleMatrix,
} from '../../test/study-role-matrix.js';
import { useTestApp } from '../../test/test-app.js';

/**
 * Every study route against every kind of caller. Expected: signed out 401; pending researcher
 * and master 403 (not researchers who may work with studies); non-members 403; collaborators
 * read; only the owner changes, re-passwords or deletes; nobody but the owner sees the password.
 */
describe('authorization matrix of the study routes', () => {
  const t = useTestApp();
  let studyId: string;
  let studyCode: string;
  let call: Awaited<ReturnType<typeof studyRoleMatrix>>['send'];

  beforeAll(async () => {
    ({ studyId, studyCode, send: call } = await studyRoleMatrix(t.app, 'invited'));
  });

  const researcherOnly = (ok: number) => (role: StudyRole) =>
    role === 'anonymous' ? 401 : role === 'pending researcher' || role === 'master' ? 403 : ok;
  it('answers each route with the right status for each role', async () => {
    const routes: {
      name: string;
      method: Method;
      url: () => string;
      payload?: Record<string, unknown>;
      expect: (r: StudyRole) => number;
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
        expect: memberStatus(200),
      },
      {
        name: 'bucket url',
        method: 'GET',
        url: () => `/api/studies/${studyId}/bucket-signed-url`,
        expect: memberStatus(200),
      },
      {
        name: 'update (auth path)',
        method: 'PUT',
        url: () => `/api/auth/update-study/${studyId}`,
        payload: { description: 'changed' },
        expect: memberStatus(200, true),
      },
      {
        name: 'update (studies path)',
        method: 'PUT',
        url: () => `/api/studies/${studyId}`,
        payload: { duration: '6 weeks' },
        expect: memberStatus(200, true),
      },
      {
        name: 're-password',
        method: 'PUT',
        url: () => `/api/auth/update-study/${studyId}`,
        payload: { password: 'matrix-pass', currentPassword: 'matrix-pass' },
        expect: memberStatus(200, true),
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
      for (const role of STUDY_ROLES) {
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
