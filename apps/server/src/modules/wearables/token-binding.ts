import type { DbOrTx } from '../../db/client.js';
import { type Cipher, DecryptionError } from '../../platform/crypto.js';
import { AD, COLUMN_ONLY_AD } from './wearable-tokens.js';
import * as repo from './wearables.repository.js';

/**
 * Tokens stored before they were bound to their participant are bound now, once, at start:
 * each is decrypted under its column-only binding and encrypted again under its participant's.
 * A row is read only until its tokens are known to be bound (`token_binding`): tokens written
 * since are bound as they are stored, so later starts read no token at all. Tokens that open
 * under neither binding (a key no longer in the ring) stay unmarked and are tried again at the
 * next start. Returns how many connections were re-bound.
 */
export async function bindTokensToParticipants(db: DbOrTx, cipher: Cipher): Promise<number> {
  let rebound = 0;
  for (const row of await repo.listUncheckedTokens(db)) {
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
    if (!access.bound || !refresh.bound) continue;
    const next = { accessTokenEncrypted: access.stored, refreshTokenEncrypted: refresh.stored };
    const changed =
      next.accessTokenEncrypted !== row.accessTokenEncrypted ||
      next.refreshTokenEncrypted !== row.refreshTokenEncrypted;
    if ((await repo.storeBoundTokens(db, row.id, row, next)) && changed) rebound++;
  }
  return rebound;
}

/**
 * The ciphertext under `bound`: as it is when it already is, re-encrypted when column-only;
 * `bound` false when neither binding opens it (left as it is, for use to report).
 */
function rebind(
  cipher: Cipher,
  stored: string | null,
  columnOnly: string,
  bound: string,
): { stored: string | null; bound: boolean } {
  if (stored === null) return { stored, bound: true };
  try {
    cipher.decrypt(stored, bound);
    return { stored, bound: true };
  } catch (error) {
    if (!(error instanceof DecryptionError)) throw error;
  }
  try {
    return { stored: cipher.encrypt(cipher.decrypt(stored, columnOnly), bound), bound: true };
  } catch (error) {
    if (error instanceof DecryptionError) return { stored, bound: false };
    throw error;
  }
}
