import type { Sandbox } from '@research/sandbox';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, participants, wearableConnections } from '../../db/schema/index.js';
import { bearer, someAddress } from '../../test/auth-helpers.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import {
  consentAt,
  participantSessionHeaders,
  studyWithParticipants,
} from '../../test/wearables-kit.js';

/**
 * Deleting a participant (issue 9) ends their wearable connection: the grant at Google
 * is revoked and the stored tokens are forgotten, besides the soft delete and the audit entry.
 */
describe('deleting a participant with a wearable connection', () => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let sandbox: Sandbox;
  let world: Awaited<ReturnType<typeof studyWithParticipants>>;

  beforeAll(async () => {
    testApp = await createTestApp();
    app = testApp.app;
    sandbox = testApp.sandbox as Sandbox;
    world = await studyWithParticipants(app);
  }, 60_000);
  afterAll(() => testApp.close());

  const call = (options: InjectOptions) => app.inject({ remoteAddress: someAddress(), ...options });

  it('revokes the grant at Google, forgets the tokens and hides the participant', async () => {
    const participant = await world.addParticipant();
    const auth = await call({
      method: 'GET',
      url: '/api/fitbit/auth-url',
      // A first connection needs the session the enrolment issues after verification.
      headers: await participantSessionHeaders(app, world.study.studyCode, participant),
      query: { participantId: participant.id, studyCode: world.study.studyCode },
    });
    expect(auth.statusCode, auth.body).toBe(200);
    const consent = await consentAt(auth.json().authUrl, { account: 'leaving.one@gmail.test' });
    const connected = await call({
      method: 'POST',
      url: '/api/fitbit/callback',
      payload: { code: consent.code, state: consent.state, participantId: participant.id },
    });
    expect(connected.statusCode, connected.body).toBe(200);
    const before = await call({
      method: 'GET',
      url: `/api/studies/${world.study.id}/stats`,
      headers: bearer(world.owner.token),
    });
    expect(before.json().stats.authorizedParticipants).toBe(1);

    // A collaborator may not: nothing changes at Google or here.
    const refused = await call({
      method: 'DELETE',
      url: `/api/participants/${participant.id}`,
      headers: bearer(world.collaborator.token),
    });
    expect(refused.statusCode).toBe(403);
    expect(sandbox.health.connections('leaving.one@gmail.test')[0]?.revokedAt ?? null).toBeNull();

    const deleted = await call({
      method: 'DELETE',
      url: `/api/participants/${participant.id}`,
      headers: bearer(world.owner.token),
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json().message).toBe('Participant deleted');
    const [grant] = sandbox.health.connections('leaving.one@gmail.test');
    expect(grant?.revokedAt).not.toBeNull();
    const [connection] = await app.platform.db
      .select()
      .from(wearableConnections)
      .where(eq(wearableConnections.participantId, participant.id));
    expect(connection?.accessTokenEncrypted ?? null).toBeNull();
    expect(connection?.refreshTokenEncrypted ?? null).toBeNull();
    const [row] = await app.platform.db
      .select()
      .from(participants)
      .where(eq(participants.id, participant.id));
    expect(row?.deletedAt).toBeInstanceOf(Date);
    const audit = await app.platform.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetId, participant.id));
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['wearable.revoked', 'participant.deleted']),
    );
    const after = await call({
      method: 'GET',
      url: `/api/studies/${world.study.id}/stats`,
      headers: bearer(world.owner.token),
    });
    expect(after.json().stats).toMatchObject({ participants: 0, authorizedParticipants: 0 });
  });
});
