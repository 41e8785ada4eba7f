import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';
import type { OidcContext } from './oidc-context.js';
import type { Grant } from './oidc-grants.js';
import { createForeignKey, type SigningKey } from './oidc-keys.js';
import { EMAIL_SCOPE, PROFILE_SCOPE } from './oidc-scopes.js';

export interface MintOptions {
  expiresInSeconds?: number;
  signWith?: 'issuer' | 'foreign';
}

/** A fault for the next ID token the token endpoint issues (tests of the client's checks). */
export interface IdTokenTamper extends MintOptions {
  /** Claims that replace or add to the real ones, e.g. `{ aud: 'someone-else' }`, `{ nonce: 'x' }`. */
  claims?: Record<string, unknown>;
  /** Flip a character of the signature. */
  corruptSignature?: boolean;
}

const ID_TOKEN_SECONDS = 3600;

const corrupt = (jwt: string) => {
  const last = jwt.at(-2) === 'A' ? 'B' : 'A';
  return `${jwt.slice(0, -2)}${last}${jwt.slice(-1)}`;
};

async function sign(
  claims: Record<string, unknown>,
  key: SigningKey,
  kid: string,
  expiresInSeconds: number,
): Promise<string> {
  const iat = Math.floor(Date.now() / 1000);
  return new SignJWT({ iat, exp: iat + expiresInSeconds, ...claims })
    .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
    .sign(key.privateKey);
}

function idTokenClaims(
  issuer: string,
  grant: Grant,
  accessToken: string,
  nonce: string | null,
): Record<string, unknown> {
  const { account } = grant;
  const claims: Record<string, unknown> = {
    iss: issuer,
    azp: grant.clientId,
    aud: grant.clientId,
    sub: account.sub,
  };
  // Like Google: e-mail claims need the email scope, name and picture the profile scope.
  if (grant.scopes.includes(EMAIL_SCOPE)) {
    claims.email = account.email;
    claims.email_verified = true;
  }
  // at_hash: left half of the SHA-256 of the access token (OIDC Core §3.1.3.6).
  const digest = createHash('sha256').update(accessToken).digest();
  claims.at_hash = digest.subarray(0, digest.length / 2).toString('base64url');
  if (nonce) claims.nonce = nonce;
  if (grant.scopes.includes(PROFILE_SCOPE)) {
    claims.name = account.name;
    if (account.picture) claims.picture = account.picture;
    claims.given_name = account.givenName;
    if (account.familyName) claims.family_name = account.familyName;
  }
  return claims;
}

/** ID tokens signed with the issuer's key, or deliberately wrong ones for tests. */
export function createIdTokens(ctx: OidcContext, signingKey: SigningKey) {
  let foreignKey: SigningKey | undefined;
  let pendingTamper: IdTokenTamper | undefined;

  async function keyFor(signWith: MintOptions['signWith']): Promise<SigningKey> {
    if (signWith !== 'foreign') return signingKey;
    foreignKey ??= await createForeignKey();
    return foreignKey;
  }

  return {
    tamperNext(tamper: IdTokenTamper) {
      pendingTamper = tamper;
    },

    /** The ID token of a token answer; a pending tamper applies to this one only. */
    async forGrant(grant: Grant, accessToken: string, nonce: string | null): Promise<string> {
      const tamper = pendingTamper;
      pendingTamper = undefined;
      const token = await sign(
        { ...idTokenClaims(ctx.issuer(), grant, accessToken, nonce), ...tamper?.claims },
        await keyFor(tamper?.signWith),
        signingKey.kid,
        tamper?.expiresInSeconds ?? ID_TOKEN_SECONDS,
      );
      return tamper?.corruptSignature ? corrupt(token) : token;
    },

    /** Any claims, for tests; a forged token claims the issuer's kid, so its signature fails. */
    async mint(claims: Record<string, unknown>, options: MintOptions = {}): Promise<string> {
      const defaultClient = ctx.clients[0]?.clientId;
      return sign(
        {
          iss: ctx.issuer(),
          ...(defaultClient ? { aud: defaultClient, azp: defaultClient } : {}),
          ...claims,
        },
        await keyFor(options.signWith),
        signingKey.kid,
        options.expiresInSeconds ?? ID_TOKEN_SECONDS,
      );
    },
  };
}

export type IdTokens = ReturnType<typeof createIdTokens>;
