import type { DbOrTx } from '../../db/client.js';
import { type Cipher, DecryptionError } from '../../platform/crypto.js';
import { AD, COLUMN_ONLY_AD } from './wearable-tokens.js';
import * as repo from './wearables.repository.js';

/**
 * Tokens stored before they were bound to their participant are bound now, once, at start:
 * each is decrypted under its column-only binding and encrypted again under its participant's.
 * A token already bound is left as it is, so this is a read of every connection and no writes
 * after the first start. Returns how many connections were re-bound.
 */
export async function bindTokensToParticipants(db: DbOrTx, cipher: Cipher): Promise<number> {
  let rebound = 0;
  for (const row of await repo.listStoredTokens(db)) {
    const access = rebind(
      cipher,
      row.accessTokenEncrypted,
      COLUMN_ONLY_AD.access,
      AD.access(row.participantId),
    );
    const refresh = rebind(
      cipher,
      row.refreshTokenEncrypted,
      COLUMN_ONLY_AD.refresh,
      AD.refresh(row.participantId),
    );
    if (access === row.accessTokenEncrypted && refresh === row.refreshTokenEncrypted) continue;
    const next = { accessTokenEncrypted: access, refreshTokenEncrypted: refresh };
    if (await repo.replaceStoredTokens(db, row.id, row, next)) rebound++;
  }
  return rebound;
}

/** The ciphertext under `bound`: as it is when it already is, re-encrypted when column-only. */
function rebind(cipher: Cipher, stored: string | null, columnOnly: string, bound: string) {
  if (stored === null) return null;
  try {
    cipher.decrypt(stored, bound);
    return stored;
  } catch (error) {
    if (!(error instanceof DecryptionError)) throw error;
  }
  try {
    return cipher.encrypt(cipher.decrypt(stored, columnOnly), bound);
  } catch (error) {
    // Neither binding opens it (e.g. a key no longer in the ring): left for use to report.
    if (error instanceof DecryptionError) return stored;
    throw error;
  }
}
