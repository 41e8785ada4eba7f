import { AUTH_SERVER_MESSAGES } from '@research/contracts';
import { and, eq, gt, isNull } from 'drizzle-orm';
import * as oidc from 'openid-client';
import type { AppConfig } from '../../config.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { oauthStates } from '../../db/schema/index.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { AppError } from '../../errors.js';
import { type Cipher, sha256Hex } from '../../platform/crypto.js';
import { recordAudit } from '../audit/index.js';
import * as repo from './auth.repository.js';
import { type AuthService, type RequestContext, toAuthUser } from './auth.service.js';

const STATE_TTL_MS = 10 * 60_000;
const VERIFIER_AD = 'oauth_states.code_verifier';

export interface CallbackInput {
  code: string;
  state: string;
  binding: string;
}

export interface GoogleProfile {
  googleSubject: string;
  displayName: string;
  photoUrl: string | null;
}

const signInFailed = (message: string, status = 401) =>
  new AppError(status, 'GOOGLE_SIGN_IN_FAILED', message);

/**
 * "Continue with Google": OpenID Connect authorization code flow with PKCE, nonce and state.
 * The state row binds the flow to the browser tab that started it (the opener's binding), so a
 * code relayed from another browser cannot sign this one in.
 */
export function createGoogleSignIn(deps: {
  db: Db;
  config: AppConfig;
  cipher: Cipher;
  auth: AuthService;
}) {
  const { db, config, cipher, auth } = deps;
  const redirectUri = `${config.publicUrl}/auth/google/callback`;
  let configuration: Promise<oidc.Configuration> | undefined;

  /** Discovery happens once, on first use; a failure is retried on the next sign-in. */
  function issuer(): Promise<oidc.Configuration> {
    configuration ??= oidc
      .discovery(
        new URL(config.google.issuer),
        config.google.clientId,
        undefined,
        oidc.ClientSecretPost(config.google.clientSecret),
        {
          execute: [
            // Verify the ID token's signature against the issuer's JWKS too, not only TLS.
            oidc.enableNonRepudiationChecks,
            // Plain http is only ever the loopback sandbox.
            ...(config.google.issuer.startsWith('http://') ? [oidc.allowInsecureRequests] : []),
          ],
        },
      )
      .catch((error: unknown) => {
        configuration = undefined;
        throw error;
      });
    return configuration;
  }

  /** Uses the state once; it must be this flow's, unexpired, and started in this browser tab. */
  async function claimState(input: CallbackInput) {
    const [row] = await db
      .update(oauthStates)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(oauthStates.stateHash, sha256Hex(input.state)),
          eq(oauthStates.purpose, 'google_sign_in'),
          isNull(oauthStates.usedAt),
          gt(oauthStates.expiresAt, new Date()),
        ),
      )
      .returning();
    if (!row || row.bindingHash !== sha256Hex(input.binding) || !row.nonce) {
      throw signInFailed(AUTH_SERVER_MESSAGES.googleAttemptExpired, 400);
    }
    return { ...row, nonce: row.nonce };
  }

  /** The code's ID token, verified, and the Google account it names (with a verified address). */
  async function verifiedIdentity(
    row: { codeVerifierEncrypted: string; nonce: string },
    input: CallbackInput,
  ): Promise<{ email: string; profile: GoogleProfile }> {
    let claims: oidc.IDToken | undefined;
    try {
      const callbackUrl = new URL(redirectUri);
      callbackUrl.searchParams.set('code', input.code);
      callbackUrl.searchParams.set('state', input.state);
      // Verifies the ID token: signature (JWKS), issuer, audience, expiry, nonce.
      const tokens = await oidc.authorizationCodeGrant(await issuer(), callbackUrl, {
        pkceCodeVerifier: cipher.decrypt(row.codeVerifierEncrypted, VERIFIER_AD),
        expectedState: input.state,
        expectedNonce: row.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch {
      throw signInFailed(AUTH_SERVER_MESSAGES.googleNotVerified);
    }
    const email = typeof claims?.email === 'string' ? claims.email : '';
    if (!claims || !email || claims.email_verified !== true) {
      throw signInFailed(AUTH_SERVER_MESSAGES.googleNoVerifiedEmail, 403);
    }
    const profile = {
      googleSubject: claims.sub,
      displayName: typeof claims.name === 'string' ? claims.name : '',
      photoUrl: typeof claims.picture === 'string' ? claims.picture : null,
    };
    return { email, profile };
  }

  /** The account of this Google identity: found by subject, linked by address, or created. */
  async function accountOf(tx: DbOrTx, email: string, profile: GoogleProfile) {
    const user = await repo.findUserByGoogleSubject(tx, profile.googleSubject);
    if (user) return { user, action: 'auth.google_sign_in' };
    const existing = await repo.findUserByEmail(tx, email);
    if (!existing) {
      const created = await repo.insertUser(tx, { email, ...profile, emailVerifiedAt: new Date() });
      return { user: created, action: 'auth.google_register' };
    }
    // Someone could have registered this address with a password before its owner arrived
    // (no e-mail check at sign-up). Until the address was proven, that password and its
    // sessions are not trusted once the real owner links Google.
    const unproven = !existing.emailVerifiedAt && existing.passwordHash;
    if (unproven) await repo.revokeUserSessions(tx, existing.id);
    const linked = await repo.updateUser(tx, existing.id, {
      googleSubject: profile.googleSubject,
      emailVerifiedAt: existing.emailVerifiedAt ?? new Date(),
      ...(unproven ? { passwordHash: null } : {}),
      ...(existing.displayName ? {} : { displayName: profile.displayName }),
      ...(existing.photoUrl ? {} : { photoUrl: profile.photoUrl }),
    });
    return { user: linked, action: 'auth.google_linked' };
  }

  const signInOnce = (email: string, profile: GoogleProfile, ctx: RequestContext) =>
    db.transaction(async (tx) => {
      const found = await accountOf(tx, email, profile);
      const user = await repo.updateUser(tx, found.user.id, {
        lastLoginAt: new Date(),
        ...(profile.photoUrl ? { photoUrl: profile.photoUrl } : {}),
      });
      const token = await auth.issueSession(tx, user.id);
      await recordAudit(tx, {
        actorId: user.id,
        action: found.action,
        targetType: 'user',
        targetId: user.id,
        ip: ctx.ip,
      });
      return { token, user: toAuthUser(user) };
    });

  return {
    async authorizationUrl(binding: string): Promise<string> {
      let cfg: oidc.Configuration;
      try {
        cfg = await issuer();
      } catch {
        throw new AppError(503, 'GOOGLE_UNAVAILABLE', AUTH_SERVER_MESSAGES.googleUnavailable);
      }
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const verifier = oidc.randomPKCECodeVerifier();
      await db.insert(oauthStates).values({
        purpose: 'google_sign_in',
        stateHash: sha256Hex(state),
        codeVerifierEncrypted: cipher.encrypt(verifier, VERIFIER_AD),
        nonce,
        bindingHash: sha256Hex(binding),
        expiresAt: new Date(Date.now() + STATE_TTL_MS),
      });
      return oidc
        .buildAuthorizationUrl(cfg, {
          redirect_uri: redirectUri,
          scope: 'openid email profile',
          state,
          nonce,
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          prompt: 'select_account',
        })
        .toString();
    },

    async complete(input: CallbackInput, ctx: RequestContext) {
      const row = await claimState(input);
      const { email, profile } = await verifiedIdentity(row, input);
      try {
        return await signInOnce(email, profile, ctx);
      } catch (error) {
        // A first sign-in finished in parallel (two tabs, a double click) and created the
        // account first: run again, and this time find it.
        if (
          isUniqueViolation(error, 'users_email_key') ||
          isUniqueViolation(error, 'users_google_subject_key')
        )
          return signInOnce(email, profile, ctx);
        throw error;
      }
    },
  };
}

export type GoogleSignIn = ReturnType<typeof createGoogleSignIn>;
