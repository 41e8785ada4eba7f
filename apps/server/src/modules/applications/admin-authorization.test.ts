import { beforeAll, describe, expect, it } from 'vitest';
import {
  applicationFor,
  bearer,
  createMaster,
  researcherWithApplication,
  someAddress,
} from '../../test/auth-helpers.js';
import { injectMultipart, SAMPLE_FILES } from '../../test/multipart.js';
import { useTestApp } from '../../test/test-app.js';

type Role = 'anonymous' | 'no application' | 'pending' | 'approved' | 'master';
const ROLES: Role[] = ['anonymous', 'no application', 'pending', 'approved', 'master'];

/**
 * Every admin route against every kind of caller: only the master gets through; anyone signed
 * out gets 401, anyone else 403, and nothing changes on a refused call.
 */
describe('authorization matrix of the admin routes', () => {
  const t = useTestApp();
  const tokens = new Map<Role, string | null>();
  let applicationId: string;
  let documentId: string;

  beforeAll(async () => {
    const master = await createMaster(t.app);
    tokens.set('anonymous', null);
    tokens.set('master', master.token);
    tokens.set('no application', (await researcherWithApplication(t.app, 'none')).token);
    tokens.set('pending', (await researcherWithApplication(t.app, 'pending')).token);
    tokens.set('approved', (await researcherWithApplication(t.app, 'approved', master)).token);
    // The target: a pending application with a document, owned by someone else.
    const target = await researcherWithApplication(t.app, 'none');
    await injectMultipart(t.app, {
      url: '/api/admin/researcher-applications',
      headers: bearer(target.token),
      fields: applicationFor(target.email),
      files: [{ field: 'documents', name: 'proof.pdf', data: SAMPLE_FILES.pdf }],
    });
    const status = (
      await t.app.inject({ url: '/api/auth/application-status', headers: bearer(target.token) })
    ).json();
    applicationId = status.application.id;
    documentId = status.application.verificationDocuments[0].id;
  });

  const routes = () => [
    {
      name: 'list applications',
      method: 'GET' as const,
      url: '/api/admin/researcher-applications?status=pending',
      ok: 200,
    },
    {
      name: 'list researchers',
      method: 'GET' as const,
      url: '/api/admin/researchers?status=approved',
      ok: 200,
    },
    {
      name: 'notification status',
      method: 'GET' as const,
      url: '/api/admin/health-notifications',
      ok: 200,
    },
    {
      name: 'download a document',
      method: 'GET' as const,
      url: `/api/admin/researcher-applications/${applicationId}/documents/${documentId}`,
      ok: 200,
    },
    // A reset needs a rejected application; on this pending one the master gets 409, which still proves access.
    {
      name: 'reset',
      method: 'PUT' as const,
      url: `/api/admin/researcher-applications/${applicationId}/reset`,
      ok: 409,
    },
    {
      name: 'reject',
      method: 'PUT' as const,
      url: `/api/admin/researcher-applications/${applicationId}/review`,
      payload: { action: 'reject', reviewNotes: 'No' },
      ok: 200,
    },
    {
      name: 'approve',
      method: 'POST' as const,
      url: `/api/admin/researcher-applications/${applicationId}/approve`,
      payload: {},
      ok: 409,
    },
  ];

  it('lets only the master call each admin route', async () => {
    const results: string[] = [];
    for (const route of routes()) {
      for (const role of ROLES) {
        const token = tokens.get(role);
        const res = await t.app.inject({
          method: route.method,
          url: route.url,
          ...(token ? { headers: bearer(token) } : {}),
          ...(route.payload ? { payload: route.payload } : {}),
          remoteAddress: someAddress(),
        });
        const expected = role === 'master' ? route.ok : role === 'anonymous' ? 401 : 403;
        results.push(
          `${route.name} as ${role}: ${res.statusCode}${res.statusCode === expected ? '' : ` (expected ${expected})`}`,
        );
      }
    }
    expect(results.filter((r) => r.includes('expected'))).toEqual([]);
    // Refused reviews changed nothing before the master's own rejection ran.
    const status = (
      await t.app.inject({
        url: `/api/admin/researcher-applications?status=rejected`,
        headers: bearer(tokens.get('master') as string),
      })
    ).json();
    expect(status.applications.map((a: { reviewNotes: string }) => a.reviewNotes)).toEqual(['No']);
  });

  it('lets every signed-in person, but nobody signed out, read their own status and master flag', async () => {
    for (const role of ROLES) {
      const token = tokens.get(role);
      for (const url of [
        '/api/auth/application-status',
        '/api/auth/previous-application',
        '/api/admin/check-master-status',
        '/api/auth/profile',
      ]) {
        const res = await t.app.inject({ url, ...(token ? { headers: bearer(token) } : {}) });
        expect(res.statusCode, `${url} as ${role}`).toBe(token ? 200 : 401);
      }
    }
  });

  it('lets researchers submit, but not the master, twice, or signed out', async () => {
    const submit = (role: Role) => {
      const token = tokens.get(role);
      return t.app.inject({
        method: 'POST',
        url: '/api/admin/researcher-applications',
        ...(token ? { headers: bearer(token) } : {}),
        payload: applicationFor('whoever@example.org'),
        remoteAddress: someAddress(),
      });
    };
    expect((await submit('anonymous')).statusCode).toBe(401);
    expect((await submit('master')).statusCode).toBe(409);
    expect((await submit('pending')).statusCode).toBe(400); // e-mail of another account
  });
});
