import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { wearableConnections } from '../../db/schema/index.js';

/**
 * Stores the device's last sync on the participant's connection. Only a later instant is kept:
 * an older answer (a session opened before a newer one finished) never moves it back.
 * Answers whether it moved.
 */
export async function recordDeviceSync(
  db: DbOrTx,
  participantId: string,
  at: Date,
): Promise<boolean> {
  const rows = await db
    .update(wearableConnections)
    .set({ lastDeviceSyncAt: at })
    .where(
      and(
        eq(wearableConnections.participantId, participantId),
        or(
          isNull(wearableConnections.lastDeviceSyncAt),
          lt(wearableConnections.lastDeviceSyncAt, at),
        ),
      ),
    )
    .returning({ id: wearableConnections.id });
  return rows.length > 0;
}
