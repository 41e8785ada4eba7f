import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { type WearableConnectionStatus, wearableConnections } from '../../db/schema/index.js';

/** A study's connection as the adherence digest and the reminders judge it. */
export interface StudyConnection {
  participantId: string;
  status: Exclude<WearableConnectionStatus, 'revoked'>;
  connectedAt: Date;
  lastDeviceSyncAt: Date | null;
}

/** The study's connections still in place (active or needing reauthorization), in one statement. */
export async function liveConnectionsOfStudy(
  db: DbOrTx,
  studyId: string,
): Promise<StudyConnection[]> {
  const rows = await db
    .select({
      participantId: wearableConnections.participantId,
      status: wearableConnections.status,
      connectedAt: wearableConnections.connectedAt,
      lastDeviceSyncAt: wearableConnections.lastDeviceSyncAt,
    })
    .from(wearableConnections)
    .where(
      and(
        eq(wearableConnections.studyId, studyId),
        inArray(wearableConnections.status, ['active', 'needs_reauthorization']),
      ),
    );
  return rows as StudyConnection[];
}

/**
 * The reconnect page's link, as the reauthorization e-mail has it: the page fills the participant
 * id in, and the person still proves their e-mail there before anything is renewed.
 */
export function reauthorizeUrl(publicUrl: string, participantId: string): string {
  const url = new URL('/fitbit/reauthorize', publicUrl);
  url.searchParams.set('participantId', participantId);
  return url.toString();
}
