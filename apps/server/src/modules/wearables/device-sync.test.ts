import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { wearableConnections } from '../../db/schema/index.js';
import { useExtractionKit } from '../../test/extraction-kit.js';
import { upsertConnection } from './wearables.repository.js';

/** The device's last sync on the connection: kept forward only, forgotten for another account. */

const kit = useExtractionKit();

async function connectionOf(participantId: string) {
  const [row] = await kit.app.platform.db
    .select()
    .from(wearableConnections)
    .where(eq(wearableConnections.participantId, participantId));
  return row as typeof wearableConnections.$inferSelect;
}

describe('the device last sync of a connection', () => {
  it('moves only forward, stays across a reconnect of the same account, and resets for another', async () => {
    const participant = await kit.connected('device.sync@gmail.test');
    const { wearables } = kit.app.services;
    expect((await connectionOf(participant.id)).lastDeviceSyncAt).toBeNull();

    const noon = new Date('2026-11-25T12:00:00Z');
    expect(await wearables.recordDeviceSync(participant.id, noon)).toBe(true);
    expect(await wearables.recordDeviceSync(participant.id, new Date('2026-11-25T09:00:00Z'))).toBe(
      false,
    );
    expect(await wearables.recordDeviceSync(participant.id, noon)).toBe(false);
    expect((await connectionOf(participant.id)).lastDeviceSyncAt).toEqual(noon);
    const later = new Date('2026-11-25T18:30:00Z');
    expect(await wearables.recordDeviceSync(participant.id, later)).toBe(true);
    expect((await connectionOf(participant.id)).lastDeviceSyncAt).toEqual(later);

    const { id: _id, ...row } = await connectionOf(participant.id);
    await upsertConnection(kit.app.platform.db, { ...row, lastDeviceSyncAt: undefined });
    expect((await connectionOf(participant.id)).lastDeviceSyncAt).toEqual(later);
    await upsertConnection(kit.app.platform.db, { ...row, healthUserId: 'another-account' });
    expect((await connectionOf(participant.id)).lastDeviceSyncAt).toBeNull();
  }, 60_000);
});
