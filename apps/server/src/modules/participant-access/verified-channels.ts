import { inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { participantVerifications } from '../../db/schema/index.js';

/** What a participant has proven: the address their e-mail code was sent to, and their phone. */
export interface VerifiedChannels {
  /** The address (lower-cased) whose code they entered; null when none was verified. */
  verifiedEmail: string | null;
  phoneVerified: boolean;
}

/** The verified channels of these participants, in one statement; absent: nothing verified. */
export async function verifiedChannelsOf(
  db: DbOrTx,
  participantIds: readonly string[],
): Promise<Map<string, VerifiedChannels>> {
  if (participantIds.length === 0) return new Map();
  const rows = await db
    .select({
      participantId: participantVerifications.participantId,
      email: participantVerifications.email,
      emailVerifiedAt: participantVerifications.emailVerifiedAt,
      phoneVerifiedAt: participantVerifications.phoneVerifiedAt,
    })
    .from(participantVerifications)
    .where(inArray(participantVerifications.participantId, [...participantIds]));
  return new Map(
    rows.map((row) => [
      row.participantId,
      {
        verifiedEmail: row.emailVerifiedAt ? row.email : null,
        phoneVerified: row.phoneVerifiedAt !== null,
      },
    ]),
  );
}
