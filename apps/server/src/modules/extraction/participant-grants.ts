import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { participants, wearableConnections } from '../../db/schema/index.js';

export interface ParticipantGrant {
  id: string;
  studyId: string;
  status: string | null;
  grantedScopes: string[] | null;
}

/**
 * The chosen participants (not deleted) with their connection's state and granted scopes, in one
 * statement for the whole selection: a start and an estimate plan from the same rows.
 */
export async function participantGrants(db: DbOrTx, ids: string[]): Promise<ParticipantGrant[]> {
  return db
    .select({
      id: participants.id,
      studyId: participants.studyId,
      status: wearableConnections.status,
      grantedScopes: wearableConnections.grantedScopes,
    })
    .from(participants)
    .leftJoin(wearableConnections, eq(wearableConnections.participantId, participants.id))
    .where(and(inArray(participants.id, ids), isNull(participants.deletedAt)));
}
