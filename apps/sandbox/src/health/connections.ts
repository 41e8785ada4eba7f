import type { Grant } from '../oidc-grants.js';

/** One consent as the sandbox recorded it (the inbox page lists these). */
export interface HealthConnection {
  email: string;
  clientId: string;
  scopes: string[];
  grantedAt: string;
  revokedAt: string | null;
  /** When a Testing-mode client's refresh token stops working. */
  refreshExpiresAt: string | null;
}

export function toConnection(grant: Grant): HealthConnection {
  return {
    email: grant.account.email,
    clientId: grant.clientId,
    scopes: grant.scopes,
    grantedAt: grant.createdAt,
    revokedAt: grant.revokedAt ?? null,
    refreshExpiresAt: grant.refreshExpiresAt
      ? new Date(grant.refreshExpiresAt).toISOString()
      : null,
  };
}
