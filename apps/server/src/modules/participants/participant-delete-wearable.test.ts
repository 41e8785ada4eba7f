import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents, participants, wearableConnections } from '../../db/schema/index.js';
import { bearer } from '../../test/auth-helpers.js';
import { useExtractionKit } from '../../test/extraction-kit.js';

/**
 * Deleting a participant ends their wearable connection: the grant at Google
 * is revoked and the stored tokens are forgotten, besides the soft delete and the audit entry.
 */
describe('deleting a participant with a wearable connection', () => {
  const kit = useExtractionKit();
  const { call } = kit;

  it('revokes the grant at Google, forgets the tokens and hides the participant', async () => {
    const participant = await kit.connected('leaving.one@gmail.test');
    const before = await call({
      method: 'GET',
      url: `/api/studies/${kit.world.study.id}/stats`,
      headers: bearer(kit.world.owner.token),
    });
    expect(before.json().stats.authorizedParticipants).toBe(1);

    // A collaborator may not: nothing changes at Google or here.
    const refused = await call({
      method: 'DELETE',
      url: `/api/participants/${participant.id}`,
      headers: bearer(kit.world.collaborator.token),
    });
    expect(refused.statusCode).toBe(403);
    expect(
      kit.sandbox.health.connections('leaving.one@gmail.test')[0]?.revokedAt ?? null,
    ).toBeNull();

    const deleted = await call({
      method: 'DELETE',
      url: `/api/participants/${participant.id}`,
      headers: bearer(kit.world.owner.token),
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json().message).toBe('Participant deleted');
    const [grant] = kit.sandbox.health.connections('leaving.one@gmail.test');
    expect(grant?.revokedAt).not.toBeNull();
    const [connection] = await kit.app.platform.db
      .select()
      .from(wearableConnections)
      .where(eq(wearableConnections.participantId, participant.id));
    expect(connection?.accessTokenEncrypted ?? null).toBeNull();
    expect(connection?.refreshTokenEncrypted ?? null).toBeNull();
    const [row] = await kit.app.platform.db
      .select()
      .from(participants)
      .where(eq(participants.id, participant.id));
    expect(row?.deletedAt).toBeInstanceOf(Date);
    const audit = await kit.app.platform.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetId, participant.id));
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['wearable.revoked', 'participant.deleted']),
    );
    const after = await call({
      method: 'GET',
      url: `/api/studies/${kit.world.study.id}/stats`,
      headers: bearer(kit.world.owner.token),
    });
    expect(after.json().stats).toMatchObject({ participants: 0, authorizedParticipants: 0 });
  });
});
