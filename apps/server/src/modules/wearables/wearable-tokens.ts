import type { WearableStatus } from '@research/contracts';
import { TOKEN_BINDING } from '../../db/schema/index.js';
import type { Cipher } from '../../platform/crypto.js';
import type { TokenSet } from '../../platform/google-health/types.js';
import type * as repo from './wearables.repository.js';

/**
 * Ciphertexts are bound to their column and, for tokens, to their participant: a token copied
 * into another column or onto another participant's row fails to decrypt instead of being used
 * to fetch someone else's data.
 */
export const AD = {
  access: (participantId: string) => `wearable_connections.access_token:${participantId}`,
  refresh: (participantId: string) => `wearable_connections.refresh_token:${participantId}`,
  verifier: 'wearable_oauth_states.verifier',
} as const;

/** How tokens were bound before they were bound to their participant (column only). */
export const COLUMN_ONLY_AD = {
  access: 'wearable_connections.access_token',
  refresh: 'wearable_connections.refresh_token',
} as const;

/** The columns of a connection whose grant is gone (revoked, or dead at the provider). */
export const NO_TOKENS = {
  accessTokenEncrypted: null,
  refreshTokenEncrypted: null,
  accessExpiresAt: null,
} as const;

/**
 * The expiry researchers see (and the display status reads): until when the stored grant works
 * without the participant. Access tokens last an hour and are refreshed on use, so their expiry
 * says nothing; a refresh token may expire (7 days for a "Testing" client) or not (null).
 */
export const grantExpiry = (refreshExpiresAt: Date | null) =>
  refreshExpiresAt?.toISOString() ?? null;

/**
 * Stores a fresh token pair; the refresh token is kept when the answer has none. With both
 * written, both are bound to the participant: the start-up binding need not read the row.
 */
export const tokenColumns = (cipher: Cipher, participantId: string, tokens: TokenSet) => ({
  accessTokenEncrypted: cipher.encrypt(tokens.accessToken, AD.access(participantId)),
  accessExpiresAt: tokens.expiresAt,
  ...(tokens.refreshToken
    ? {
        refreshTokenEncrypted: cipher.encrypt(tokens.refreshToken, AD.refresh(participantId)),
        refreshExpiresAt: tokens.refreshExpiresAt,
        tokenBinding: TOKEN_BINDING.participant,
      }
    : {}),
});

type StoredTokens = Pick<
  repo.ConnectionRow,
  'participantId' | 'refreshTokenEncrypted' | 'accessTokenEncrypted'
>;

/** The grant's best handle for a revocation: the refresh token, else the access token. */
export function tokenOf(cipher: Cipher, row: StoredTokens): string | null {
  const { participantId } = row;
  if (row.refreshTokenEncrypted) {
    return cipher.decrypt(row.refreshTokenEncrypted, AD.refresh(participantId));
  }
  if (row.accessTokenEncrypted) {
    return cipher.decrypt(row.accessTokenEncrypted, AD.access(participantId));
  }
  return null;
}

/** The status read model of one participant's connection (none when never connected). */
export function toStatus(
  participantId: string,
  row: repo.ConnectionRow | undefined,
): WearableStatus {
  return {
    participantId,
    authorizationStatus: row?.status === 'active',
    status: row?.status ?? null,
    hasTokens: Boolean(row?.accessTokenEncrypted || row?.refreshTokenEncrypted),
    fitbitUserId: row?.healthUserId ?? null,
    grantedScopes: row?.grantedScopes ?? [],
    // The grant's expiry, not the hourly access token's (refreshed on use): see grantExpiry.
    tokenExpiresAt: row?.accessTokenEncrypted ? grantExpiry(row.refreshExpiresAt) : null,
    connectedAt: row?.connectedAt.toISOString() ?? null,
  };
}
