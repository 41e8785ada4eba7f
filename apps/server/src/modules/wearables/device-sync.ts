import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { wearableConnections } from '../../db/schema/index.js';

/** A device as Google's pairedDevices lists it (the fields read here). */
export interface PairedDevice {
  lastSyncTime?: string;
  batteryLevel?: number;
}

/** The battery (0–100) of the device that synced last; null when it reports none. */
export function batteryOfLatestDevice(devices: readonly PairedDevice[]): number | null {
  let latest = Number.NEGATIVE_INFINITY;
  let battery: number | null = null;
  for (const device of devices) {
    const at = device.lastSyncTime ? Date.parse(device.lastSyncTime) : Number.NaN;
    if (Number.isNaN(at) || at < latest) continue;
    latest = at;
    const level = device.batteryLevel;
    battery =
      typeof level === 'number' && Number.isFinite(level)
        ? Math.min(100, Math.max(0, Math.round(level)))
        : null;
  }
  return battery;
}

/**
 * Stores the device's last sync on the participant's connection, with the battery the devices
 * reported at that sync. Only a later instant is kept: an older answer (a session opened before a
 * newer one finished) never moves it back. Answers whether it moved.
 */
export async function recordDeviceSync(
  db: DbOrTx,
  participantId: string,
  at: Date,
  devices: readonly PairedDevice[] = [],
): Promise<boolean> {
  const rows = await db
    .update(wearableConnections)
    .set({ lastDeviceSyncAt: at, batteryLevel: batteryOfLatestDevice(devices) })
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

/** What the adherence screens read of a study's connections. */
export interface StudyConnection {
  participantId: string;
  status: 'active' | 'needs_reauthorization' | 'revoked';
  connectedAt: Date;
  lastDeviceSyncAt: Date | null;
  batteryLevel: number | null;
}

/** Every connection of a study (one statement; a study's participants are a handful of thousands). */
export async function connectionsOfStudy(
  db: DbOrTx,
  studyId: string,
  participantId?: string,
): Promise<StudyConnection[]> {
  const w = wearableConnections;
  return db
    .select({
      participantId: w.participantId,
      status: w.status,
      connectedAt: w.connectedAt,
      lastDeviceSyncAt: w.lastDeviceSyncAt,
      batteryLevel: w.batteryLevel,
    })
    .from(w)
    .where(
      and(
        eq(w.studyId, studyId),
        participantId === undefined ? undefined : eq(w.participantId, participantId),
      ),
    )
    .orderBy(sql`${w.participantId}`);
}

/** A digest of the study's connections as the heat map shows them (state, last sync, battery). */
export async function connectionsFingerprint(db: DbOrTx, studyId: string): Promise<string> {
  const w = wearableConnections;
  const [row] = await db
    .select({
      digest: sql<string>`coalesce(md5(string_agg(${w.participantId} || '|' || ${w.status} || '|' || ${w.connectedAt}::text || '|' || coalesce(${w.lastDeviceSyncAt}::text, '') || '|' || coalesce(${w.batteryLevel}::text, ''), ',' order by ${w.participantId}, ${w.connectedAt})), '')`,
    })
    .from(w)
    .where(eq(w.studyId, studyId));
  return row?.digest ?? '';
}
