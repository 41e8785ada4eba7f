import { and, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { participants } from '../../db/schema/index.js';

export interface ParticipantContact {
  id: string;
  email: string;
  phoneNumber: string | null;
  firstName: string | null;
  lastName: string | null;
}

/**
 * The live participants among `participantIds` of a study (not deleted, not withdrawn), with
 * what the digest names them by and the reminders reach them at; one statement.
 */
export async function liveContactsOf(
  db: DbOrTx,
  studyId: string,
  participantIds: readonly string[],
): Promise<Map<string, ParticipantContact>> {
  if (participantIds.length === 0) return new Map();
  const rows = await db
    .select({
      id: participants.id,
      email: participants.email,
      phoneNumber: participants.phoneNumber,
      firstName: participants.firstName,
      lastName: participants.lastName,
    })
    .from(participants)
    .where(
      and(
        eq(participants.studyId, studyId),
        inArray(participants.id, [...participantIds]),
        isNull(participants.deletedAt),
        ne(participants.status, 'withdrawn'),
      ),
    );
  return new Map(rows.map((row) => [row.id, row]));
}
