import type { DbOrTx } from '../../db/client.js';
import { connectionsOfStudy, type StudyConnection } from './device-sync.js';

/** The study's connections still in place (active or needing reauthorization): the digest and reminders judge these. */
export async function liveConnectionsOfStudy(
  db: DbOrTx,
  studyId: string,
): Promise<StudyConnection[]> {
  return (await connectionsOfStudy(db, studyId)).filter((c) => c.status !== 'revoked');
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
