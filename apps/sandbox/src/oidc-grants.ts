import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SimulatedAccount } from './accounts.js';
import type { Clock } from './health/clock.js';

export const ACCESS_TOKEN_SECONDS = 3600;
export const CODE_SECONDS = 600;
const PENDING_SECONDS = 30 * 60;
const MAX_GRANTS = 2_000;
const MAX_ACCESS_TOKENS = 10_000;
const MAX_CODES = 1_000;
const MAX_PENDING = 1_000;
const GRANTS_FILE = 'oauth-grants.json';

/** A validated authorization request, kept while the person picks an account. */
export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state: string | null;
  nonce: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: 'S256' | 'plain' | null;
  accessType: 'online' | 'offline';
  prompt: string[];
  loginHint: string | null;
  /** `include_granted_scopes=true`: incremental authorization, earlier grants are added back. */
  includeGrantedScopes: boolean;
}

/** What a person consented to: one per completed authorization. */
export interface Grant {
  id: string;
  clientId: string;
  account: SimulatedAccount;
  scopes: string[];
  nonce: string | null;
  refreshToken: string | null;
  createdAt: string;
  /** Epoch ms after which the refresh token is refused (Testing-mode clients: 7 days); null = none. */
  refreshExpiresAt?: number | null;
  /** Epoch ms of consent or of the last refresh: Google drops refresh tokens unused for 6 months. */
  lastUsedAt?: number;
  /** Set when either token was revoked; the grant is kept so the inbox can show it. */
  revokedAt?: string | null;
}

/** Google invalidates a refresh token that has not been used for six months. */
export const REFRESH_INACTIVITY_MS = 183 * 86_400_000;

export type RefreshLookup = { grant: Grant } | { refused: 'unknown' | 'revoked' | 'expired' };

export interface AccessTokenRecord {
  token: string;
  grantId: string;
  expiresAt: number;
}

interface CodeRecord {
  request: AuthorizationRequest;
  grantId: string;
  expiresAt: number;
  /** Set on first redemption; a second redemption revokes the grant (RFC 6749 §4.1.2). */
  redeemed: boolean;
}

function random(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

/** Drops the oldest entries of an insertion-ordered map beyond `max`. */
function trim<K, V>(map: Map<K, V>, max: number): void {
  for (const key of map.keys()) {
    if (map.size <= max) break;
    map.delete(key);
  }
}

interface PersistedGrants {
  grants: Grant[];
  accessTokens: AccessTokenRecord[];
}

/**
 * Pending requests, codes, grants and tokens of the sandbox issuer. Grants and access tokens are
 * written to the data directory (when there is one) so a restarted sandbox still honours the tokens
 * the API server has stored; codes and pending requests live minutes and stay in memory.
 */
export class GrantStore {
  private pending = new Map<string, { request: AuthorizationRequest; expiresAt: number }>();
  private codes = new Map<string, CodeRecord>();
  private grants = new Map<string, Grant>();
  private refreshIndex = new Map<string, string>();
  private accessTokens = new Map<string, AccessTokenRecord>();
  private readonly file: string | undefined;
  private readonly clock: Clock;

  constructor(dataDir?: string, clock: Clock = { now: () => Date.now() }) {
    this.clock = clock;
    if (dataDir) {
      mkdirSync(dataDir, { recursive: true });
      this.file = join(dataDir, GRANTS_FILE);
      this.load();
    }
  }

  private load(): void {
    if (!this.file) return;
    let data: PersistedGrants;
    try {
      data = JSON.parse(readFileSync(this.file, 'utf8')) as PersistedGrants;
    } catch {
      return;
    }
    for (const grant of data.grants ?? []) {
      this.grants.set(grant.id, grant);
      if (grant.refreshToken) this.refreshIndex.set(grant.refreshToken, grant.id);
    }
    for (const record of data.accessTokens ?? []) {
      if (record.expiresAt > this.clock.now() && this.grants.has(record.grantId)) {
        this.accessTokens.set(record.token, record);
      }
    }
  }

  private save(): void {
    if (!this.file) return;
    const data: PersistedGrants = {
      grants: [...this.grants.values()],
      accessTokens: [...this.accessTokens.values()],
    };
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(data), { mode: 0o600 });
    renameSync(tmp, this.file);
  }

  private pruneExpired(): void {
    const t = this.clock.now();
    for (const [id, entry] of this.pending) if (entry.expiresAt <= t) this.pending.delete(id);
    for (const [code, entry] of this.codes) if (entry.expiresAt <= t) this.codes.delete(code);
    for (const [token, entry] of this.accessTokens) {
      if (entry.expiresAt <= t) this.accessTokens.delete(token);
    }
  }

  savePending(request: AuthorizationRequest): string {
    this.pruneExpired();
    const id = random('', 24);
    this.pending.set(id, { request, expiresAt: this.clock.now() + PENDING_SECONDS * 1000 });
    trim(this.pending, MAX_PENDING);
    return id;
  }

  /** Single use: the consent form can be submitted once. */
  takePending(id: string): AuthorizationRequest | null {
    const entry = this.pending.get(id);
    this.pending.delete(id);
    return entry && entry.expiresAt > this.clock.now() ? entry.request : null;
  }

  hasRefreshableGrant(clientId: string, sub: string): boolean {
    for (const grant of this.grants.values()) {
      if (
        grant.clientId === clientId &&
        grant.account.sub === sub &&
        grant.refreshToken &&
        !grant.revokedAt &&
        !(grant.refreshExpiresAt && grant.refreshExpiresAt <= this.clock.now())
      ) {
        return true;
      }
    }
    return false;
  }

  /**
   * Scopes of this account's live grants to the client, for `include_granted_scopes=true`: Google
   * then issues tokens for the union of everything granted so far, not only this consent.
   */
  liveScopes(clientId: string, sub: string): string[] {
    const scopes = new Set<string>();
    for (const grant of this.grants.values()) {
      if (grant.clientId === clientId && grant.account.sub === sub && !grant.revokedAt) {
        for (const scope of grant.scopes) scopes.add(scope);
      }
    }
    return [...scopes];
  }

  /** Records consent and returns the authorization code for it. */
  createGrantAndCode(
    request: AuthorizationRequest,
    account: SimulatedAccount,
    scopes: string[],
    withRefreshToken: boolean,
    refreshLifetimeMs: number | null = null,
  ): string {
    this.pruneExpired();
    const issuedAt = this.clock.now();
    const grant: Grant = {
      id: random('', 16),
      clientId: request.clientId,
      account,
      scopes,
      nonce: request.nonce,
      refreshToken: withRefreshToken ? random('1//0', 48) : null,
      createdAt: new Date(issuedAt).toISOString(),
      refreshExpiresAt:
        withRefreshToken && refreshLifetimeMs !== null ? issuedAt + refreshLifetimeMs : null,
      lastUsedAt: issuedAt,
      revokedAt: null,
    };
    this.grants.set(grant.id, grant);
    if (grant.refreshToken) this.refreshIndex.set(grant.refreshToken, grant.id);
    while (this.grants.size > MAX_GRANTS) {
      const oldest = this.grants.keys().next().value;
      if (oldest === undefined) break;
      this.dropGrant(oldest);
    }
    const code = random('4/0A', 48);
    this.codes.set(code, {
      request,
      grantId: grant.id,
      expiresAt: this.clock.now() + CODE_SECONDS * 1000,
      redeemed: false,
    });
    trim(this.codes, MAX_CODES);
    this.save();
    return code;
  }

  /** The code's record when it is live; `reused` when it was redeemed before. */
  lookupCode(
    code: string,
  ): { request: AuthorizationRequest; grant: Grant } | { reused: true } | null {
    const record = this.codes.get(code);
    if (!record || record.expiresAt <= this.clock.now()) return null;
    if (record.redeemed) {
      // Someone replays a code: revoke what it produced, as RFC 6749 §4.1.2 recommends.
      this.revokeGrant(record.grantId);
      return { reused: true };
    }
    const grant = this.grants.get(record.grantId);
    return grant && !grant.revokedAt ? { request: record.request, grant } : null;
  }

  markRedeemed(code: string): void {
    const record = this.codes.get(code);
    if (record) record.redeemed = true;
  }

  grantForRefreshToken(refreshToken: string): Grant | null {
    const found = this.refresh(refreshToken, false);
    return 'grant' in found ? found.grant : null;
  }

  /**
   * Looks a refresh token up for the refresh grant; with `use`, counts as use (resets the 6-month
   * inactivity window). Revoked grants are no longer indexed, so they come back as unknown.
   */
  refresh(refreshToken: string, use = true): RefreshLookup {
    const id = this.refreshIndex.get(refreshToken);
    const grant = id ? this.grants.get(id) : undefined;
    if (!grant) return { refused: 'unknown' };
    if (grant.revokedAt) return { refused: 'revoked' };
    const t = this.clock.now();
    if (grant.refreshExpiresAt && grant.refreshExpiresAt <= t) return { refused: 'expired' };
    if (t - (grant.lastUsedAt ?? Date.parse(grant.createdAt)) > REFRESH_INACTIVITY_MS) {
      return { refused: 'expired' };
    }
    if (use) {
      grant.lastUsedAt = t;
      this.save();
    }
    return { grant };
  }

  issueAccessToken(grant: Grant): AccessTokenRecord {
    this.pruneExpired();
    const record: AccessTokenRecord = {
      token: random('ya29.a0', 96),
      grantId: grant.id,
      expiresAt: this.clock.now() + ACCESS_TOKEN_SECONDS * 1000,
    };
    this.accessTokens.set(record.token, record);
    trim(this.accessTokens, MAX_ACCESS_TOKENS);
    this.save();
    return record;
  }

  /** For the userinfo endpoint and the Health API: who a live access token belongs to. */
  lookupAccessToken(token: string): { grant: Grant; expiresAt: number } | null {
    const record = this.accessTokens.get(token);
    if (!record || record.expiresAt <= this.clock.now()) return null;
    const grant = this.grants.get(record.grantId);
    return grant && !grant.revokedAt ? { grant, expiresAt: record.expiresAt } : null;
  }

  /** Revoking either token revokes the whole grant, as Google does. */
  revokeToken(token: string): boolean {
    const grantId = this.refreshIndex.get(token) ?? this.accessTokens.get(token)?.grantId;
    const grant = grantId ? this.grants.get(grantId) : undefined;
    if (!grantId || !grant || grant.revokedAt) return false;
    this.revokeGrant(grantId);
    return true;
  }

  /**
   * What a person does at myaccount.google.com → Connections: removes the app's access. Revokes
   * every live grant of the account (of one client when given); returns how many.
   */
  revokeAccount(email: string, clientId?: string): number {
    const target = email.trim().toLowerCase();
    let count = 0;
    for (const grant of [...this.grants.values()]) {
      if (grant.revokedAt || grant.account.email !== target) continue;
      if (clientId && grant.clientId !== clientId) continue;
      this.revokeGrant(grant.id, false);
      count += 1;
    }
    if (count > 0) this.save();
    return count;
  }

  /** Every grant, revoked ones included, oldest first (for the inbox page). */
  list(): Grant[] {
    return [...this.grants.values()];
  }

  private revokeGrant(grantId: string, persist = true): void {
    const grant = this.grants.get(grantId);
    if (!grant) return;
    // The refresh token stays indexed so a later refresh says "revoked" rather than "unknown".
    grant.revokedAt = new Date(this.clock.now()).toISOString();
    for (const [token, record] of this.accessTokens) {
      if (record.grantId === grantId) this.accessTokens.delete(token);
    }
    if (persist) this.save();
  }

  private dropGrant(grantId: string): void {
    const grant = this.grants.get(grantId);
    if (grant?.refreshToken) this.refreshIndex.delete(grant.refreshToken);
    this.revokeGrant(grantId, false);
    this.grants.delete(grantId);
  }
}
