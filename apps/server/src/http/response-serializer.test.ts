import { studyListResponseSchema } from '@research/contracts';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestApp } from '../test/test-app.js';

const profileSchema = z.object({
  success: z.literal(true),
  user: z.object({
    id: z.string(),
    name: z.string(),
    role: z.enum(['main', 'collab']),
    phone: z.string().nullable(),
  }),
  items: z.array(z.object({ label: z.string() })),
});

const study = {
  id: '0b7c3b52-7a43-4a8e-9f0e-2f7f1d7f1a01',
  name: 'Sleep "and" activity',
  description: 'Nights\nand days, ünïcode',
  duration: '12 weeks',
  studyCode: 'ABC123',
  status: 'active',
  participantCount: 5000,
  createdAt: '2026-11-23T09:00:00.000Z',
  role: 'main' as const,
  ownerName: 'Ada Lovelace',
  hasPassword: true,
  collaborators: ['b@example.org', 'c@example.org'],
  settings: {
    allowSelfEnrollment: false,
    requireVerification: true,
    dataRetentionDays: 365,
    removeDataDeletedAtSource: false,
    validDayMinHours: 10,
    riskNoSyncDays: 2,
    reminderNoSyncDays: null,
    consentRequired: true,
    withdrawalData: 'keep' as const,
  },
  // Columns a careless handler might pass along:
  passwordEncrypted: 'v1:secret',
  ownerId: 'u1',
  deletedAt: null,
};
const studyPage = {
  success: true as const,
  data: [study, { ...study, description: null, duration: null, collaborators: [] }],
  totalCount: 2,
};

/** Handlers that return more than their contract names, at every level. */
const testRoutes = (app: FastifyInstance) => {
  app.get('/api/test/leaky', { schema: { response: { 200: profileSchema } } }, async () => ({
    success: true as const,
    passwordHash: 'argon2id$secret',
    user: {
      id: 'u1',
      name: 'Ada',
      role: 'main' as const,
      phone: null,
      email: 'ada@example.org',
      tokenHash: 'abc',
    },
    items: [{ label: 'one', internalNote: 'hidden' }],
  }));
  app.get(
    '/api/test/studies',
    { schema: { response: { 200: studyListResponseSchema } } },
    async () => studyPage,
  );
  app.get('/api/test/off-contract', { schema: { response: { 200: profileSchema } } }, async () => ({
    success: true as const,
    user: { id: 'u1', name: 'Ada', role: 'owner', phone: null },
    items: [],
  }));
};

const leakyBody = {
  success: true,
  user: { id: 'u1', name: 'Ada', role: 'main', phone: null },
  items: [{ label: 'one' }],
};

describe('response serialization as in production (no second zod pass)', () => {
  const t = useTestApp({ validateResponses: false, routes: testRoutes });

  it('sends only the fields the response schema lists, at every depth', async () => {
    const res = await t.app.inject('/api/test/leaky');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(leakyBody);
    expect(res.body).not.toMatch(/secret|ada@example\.org|tokenHash|hidden/);
  });

  it('answers a study list exactly as the zod contract would encode it', async () => {
    const res = await t.app.inject('/api/test/studies');
    expect(res.statusCode).toBe(200);
    // Same bytes as encoding with zod and JSON.stringify-ing the result (the former serializer).
    expect(res.body).toBe(JSON.stringify(z.encode(studyListResponseSchema, studyPage)));
    expect(res.json().data[1]).toMatchObject({ description: null, duration: null });
    expect(res.body).not.toMatch(/passwordEncrypted|ownerId|deletedAt/);
  });
});

describe('response serialization in tests (zod contract checked too)', () => {
  const t = useTestApp({ routes: testRoutes });

  it('still strips unlisted fields', async () => {
    const res = await t.app.inject('/api/test/leaky');
    expect(res.json()).toEqual(leakyBody);
  });

  it('refuses a response that breaks its contract with a generic 500', async () => {
    const res = await t.app.inject('/api/test/off-contract');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ success: false, code: 'INTERNAL_ERROR' });
    expect(res.body).not.toContain('owner');
  });
});
