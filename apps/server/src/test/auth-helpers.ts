import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { users } from '../db/schema/index.js';

let counter = 0;
/** A unique address per call, so tests never collide on accounts. */
export const uniqueEmail = (prefix = 'researcher') =>
  `${prefix}.${Date.now().toString(36)}.${++counter}@example.org`;

/** A different client address per call, so per-address limits do not trip across tests. */
export const someAddress = () =>
  `198.18.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 254) + 1}`;

/**
 * Signs up through the API. The address counts as confirmed unless `confirmed: false` (the
 * mailed link is followed for real in auth/email-confirmation.test.ts).
 */
export async function registerUser(
  app: FastifyInstance,
  overrides: Partial<{ email: string; password: string; displayName: string }> = {},
  { confirmed = true }: { confirmed?: boolean } = {},
) {
  const body = {
    email: uniqueEmail(),
    password: 'correct-horse',
    displayName: 'Ada Lovelace',
    ...overrides,
  };
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: body,
    remoteAddress: someAddress(),
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const json = res.json() as { token: string; user: { id: string; email: string } };
  if (confirmed) await confirmEmailOf(app, json.user.id);
  return { ...body, token: json.token, user: json.user };
}

/** Marks an account's address as proven, as following the confirmation link does. */
export async function confirmEmailOf(app: FastifyInstance, userId: string) {
  await app.platform.db
    .update(users)
    .set({ emailVerifiedAt: new Date() })
    .where(eq(users.id, userId));
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Signs in with e-mail and password, from an address of its own (clear of sign-in throttling). */
export const loginAs = (app: FastifyInstance, email: string, password: string) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    remoteAddress: someAddress(),
  });

/** Asks what a set-password or reset link's token is for. */
export const checkResetToken = (app: FastifyInstance, token: string) =>
  app.inject({ method: 'POST', url: '/api/auth/check-reset-token', payload: { token } });

/** A master account and its session. */
export async function createMaster(app: FastifyInstance) {
  const email = uniqueEmail('master');
  await app.services.master.createOrPromoteMaster({
    email,
    password: 'master-password',
    displayName: 'Master Admin',
  });
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: 'master-password' },
    remoteAddress: someAddress(),
  });
  return { email, token: (res.json() as { token: string }).token };
}

/** Who every fixture researcher applies as (the form's required fields but the e-mail). */
export const ADA_APPLICANT = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  dateOfBirth: '1985-12-10',
  phoneNumber: '(617) - 555 - 0199',
  institution: 'Analytical Engine University',
  position: 'Associate Professor',
};

export function applicationFor(email: string, overrides: Record<string, string> = {}) {
  return {
    ...ADA_APPLICANT,
    email,
    department: 'Mathematics',
    researchArea: 'Sleep and activity',
    description: 'Wearable sleep study',
    ...overrides,
  };
}

/** A researcher with an application in the given state, and a session. */
export async function researcherWithApplication(
  app: FastifyInstance,
  state: 'none' | 'pending' | 'approved' | 'rejected',
  master?: { token: string },
) {
  const account = await registerUser(app);
  if (state === 'none') return { ...account, applicationId: null as string | null };
  const submitted = await app.inject({
    method: 'POST',
    url: '/api/admin/researcher-applications',
    headers: bearer(account.token),
    payload: applicationFor(account.email),
    remoteAddress: someAddress(),
  });
  const applicationId = (submitted.json() as { applicationId: string }).applicationId;
  if (state !== 'pending') {
    if (!master) throw new Error('a master session is needed to review');
    const res =
      state === 'approved'
        ? await app.inject({
            method: 'POST',
            url: `/api/admin/researcher-applications/${applicationId}/approve`,
            headers: bearer(master.token),
            payload: {},
          })
        : await app.inject({
            method: 'PUT',
            url: `/api/admin/researcher-applications/${applicationId}/review`,
            headers: bearer(master.token),
            payload: { action: 'reject', reviewNotes: 'Missing institutional affiliation' },
          });
    if (res.statusCode !== 200) throw new Error(`review failed: ${res.body}`);
  }
  return { ...account, applicationId };
}
