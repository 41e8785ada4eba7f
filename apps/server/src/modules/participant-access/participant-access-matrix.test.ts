import { PARTICIPANT_SESSION_HEADER } from '@research/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wearableConnections } from '../../db/schema/index.js';
import { someAddress } from '../../test/auth-helpers.js';
import { injectMultipart } from '../../test/multipart.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import {
  consentAt,
  participantSessionHeaders,
  studyWithParticipants,
} from '../../test/wearables-kit.js';
import * as verificationRepo from './verification.repository.js';

/**
 * Every participant-side call that reads or changes one participant, against every identity that
 * is not that participant: only their own verified session (or a researcher of the study, tested
 * with the wearable routes) acts. Knowing the participant's id, e-mail and study code is what
 * every caller here has.
 */
describe('participant-side calls: who may act on a participant', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let target: { id: string; email: string };
  let studyCode: string;
  let healthUserId = '';
  const identities: Record<string, Record<string, string>> = {};

  beforeAll(async () => {
    t = await createTestApp();
    app = t.app;
    const world = await studyWithParticipants(app);
    const elsewhere = await studyWithParticipants(app);
    studyCode = world.study.studyCode;
    target = await world.addParticipant();
    const neighbour = await world.addParticipant();
    const stranger = await elsewhere.addParticipant();

    identities.anonymous = {};
    identities['another participant'] = await participantSessionHeaders(app, studyCode, neighbour);
    identities['a participant of another study'] = await participantSessionHeaders(
      app,
      elsewhere.study.studyCode,
      stranger,
    );
    // The target's own session before a code was verified (what secure-auth hands anyone).
    const { study } = await app.services.verification.studyByCode(studyCode);
    await verificationRepo.upsertSubject(app.platform.db, {
      studyId: study.id,
      email: target.email,
      participantId: target.id,
    });
    const unverified = await app.services.verification.issueSession(
      app.platform.db,
      study,
      target.id,
      false,
    );
    identities['the participant before verification'] = {
      [PARTICIPANT_SESSION_HEADER]: unverified.sessionId,
    };
    identities.self = await participantSessionHeaders(app, studyCode, target);

    // The target is connected, so every call has something to read or change.
    const url = await app.inject({
      method: 'GET',
      url: '/api/fitbit/auth-url',
      headers: identities.self,
      query: { participantId: target.id, studyCode },
      remoteAddress: someAddress(),
    });
    const consent = await consentAt(url.json().authUrl, { account: 'matrix.target@gmail.test' });
    const connected = await app.inject({
      method: 'POST',
      url: '/api/fitbit/callback',
      payload: { code: consent.code, state: consent.state },
      remoteAddress: someAddress(),
    });
    expect(connected.statusCode, connected.body).toBe(200);
    const [row] = await app.platform.db
      .select({ healthUserId: wearableConnections.healthUserId })
      .from(wearableConnections)
      .where(eq(wearableConnections.participantId, target.id));
    healthUserId = row?.healthUserId ?? '';
  }, 90_000);
  afterAll(() => t.close());

  const named = () => ({ participantId: target.id, studyCode, email: target.email });
  /** The calls, each as the caller with `headers` would send it. Revoke comes last. */
  const calls: Record<
    string,
    (headers: Record<string, string>) => Promise<{ statusCode: number; body: string }>
  > = {
    'GET /api/fitbit/status/:id': (headers) =>
      app.inject({
        method: 'GET',
        url: `/api/fitbit/status/${target.id}`,
        query: { studyCode, email: target.email },
        headers,
        remoteAddress: someAddress(),
      }),
    'POST /api/fitbit/refresh-token': (headers) =>
      app.inject({
        method: 'POST',
        url: '/api/fitbit/refresh-token',
        payload: named(),
        headers,
        remoteAddress: someAddress(),
      }),
    'POST /api/data/store-tokens': (headers) =>
      app.inject({
        method: 'POST',
        url: '/api/data/store-tokens',
        payload: {
          participantId: target.id,
          participantCode: studyCode,
          participantInfo: { userId: healthUserId },
        },
        headers,
        remoteAddress: someAddress(),
      }),
    'POST /api/participants/verify-secure': (headers) =>
      app.inject({
        method: 'POST',
        url: '/api/participants/verify-secure',
        payload: { participantId: target.id, email: target.email },
        headers,
        remoteAddress: someAddress(),
      }),
    'POST /api/participants/enroll': (headers) =>
      app.inject({
        method: 'POST',
        url: '/api/participants/enroll',
        payload: named(),
        headers,
        remoteAddress: someAddress(),
      }),
    'POST /api/participants/update-info': (headers) =>
      injectMultipart(app, {
        url: '/api/participants/update-info',
        headers,
        fields: { participantId: target.id, studyCode, firstName: 'Mallory', lastName: 'X' },
      }),
    'POST /api/fitbit/revoke-access': (headers) =>
      app.inject({
        method: 'POST',
        url: '/api/fitbit/revoke-access',
        payload: named(),
        headers,
        remoteAddress: someAddress(),
      }),
  };

  const refusals: Record<string, number> = {
    anonymous: 401,
    'another participant': 403,
    'a participant of another study': 403,
    'the participant before verification': 403,
  };

  it('refuses every identity but the participant’s own verified session, and the session acts', async () => {
    const table: string[] = [];
    for (const [call, send] of Object.entries(calls)) {
      for (const [who, expected] of Object.entries(refusals)) {
        const headers = identities[who] ?? {};
        const res = await send(headers);
        if (res.statusCode !== expected)
          table.push(`${call} as ${who}: ${res.statusCode} ${res.body}`);
        expect(res.body).not.toContain('matrix.target');
      }
      const own = await send(identities.self ?? {});
      if (own.statusCode !== 200) table.push(`${call} as self: ${own.statusCode} ${own.body}`);
    }
    expect(table).toEqual([]);
    // Only the participant's own revoke reached Google.
    const [grant] = t.sandbox?.health.connections('matrix.target@gmail.test') ?? [];
    expect(grant?.revokedAt).not.toBeNull();
  });

  it('tells the verification status only to the participant’s own verified session', async () => {
    const status = (headers: Record<string, string>) =>
      app.inject({
        method: 'GET',
        url: `/api/verification/status/${target.id}`,
        query: { studyCode, email: target.email },
        headers,
        remoteAddress: someAddress(),
      });
    for (const who of Object.keys(refusals)) {
      const res = await status(identities[who] ?? {});
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ verificationStatus: 'none', emailVerifiedAt: null });
    }
    const own = await status(identities.self ?? {});
    expect(own.json().data).toMatchObject({ verificationStatus: 'email_verified' });
  });
});
