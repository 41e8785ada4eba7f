import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';

/**
 * Serializes enrolments of one (study, e-mail) until the transaction ends, so parallel requests
 * for one person resume the same participant instead of racing over ids and roster entries.
 * The participant rows themselves belong to the participants module.
 */
export async function lockEnrolment(db: DbOrTx, studyId: string, email: string) {
  await db.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`${studyId}:${email}`}, 0))`,
  );
}
