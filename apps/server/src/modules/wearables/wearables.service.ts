import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  GOOGLE_HEALTH_READ_SCOPES,
  OAUTH_STATE_TTL_MS,
  REAUTH_MAIL_INTERVAL_MS,
  REAUTH_MAIL_TEXTS,
  STUDY_DETAIL_MESSAGES,
  WEARABLE_MESSAGES,
  WEARABLE_SERVER_MESSAGES,
  type WearableAuthorizationRow,
  type WearableStatus,
} from '@research/contracts';
import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import { AppError } from '../../errors.js';
import type { Cipher } from '../../platform/crypto.js';
import {
  createGoogleHealthClient,
  createPkcePair,
  type GoogleHealthClient,
  GoogleHealthError,
} from '../../platform/google-health/index.js';
import type { TokenSet } from '../../platform/google-health/types.js';
import { reauthorizationEmail } from '../../platform/mail-templates.js';
import { recordAudit } from '../audit/index.js';
import type { Messaging } from '../messaging/index.js';
import * as repo from './wearables.repository.js';

export type { ParticipantRef } from './wearables.repository.js';

export interface WearablesDeps {
  db: Db;
  databaseKind: 'pglite' | 'postgres';
  config: AppConfig;
  cipher: Cipher;
  messaging: Messaging;
  client?: GoogleHealthClient;
  now?: () => Date;
  /** Signs the decoy states of the reauthorization path; one per process when left out. */
  stateKey?: Buffer;
}

/** Ciphertexts are bound to their column: a token copied elsewhere fails to decrypt. */
const AD = {
  access: 'wearable_connections.access_token',
  refresh: 'wearable_connections.refresh_token',
  verifier: 'wearable_oauth_states.verifier',
} as const;

/**
 * The expiry researchers see (and §4.1's display status reads): until when the stored grant
 * works without the participant. Access tokens last an hour and are refreshed on use, so their
 * expiry says nothing; a refresh token may expire (7 days for a "Testing" client) or not (null).
 */
const grantExpiry = (refreshExpiresAt: Date | null) => refreshExpiresAt?.toISOString() ?? null;

/** Refresh this long before the stored expiry, so a token never dies mid-request. */
const REFRESH_MARGIN_MS = 60_000;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

const sameHex = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

const mismatch = () =>
  new AppError(404, 'PARTICIPANT_MISMATCH', WEARABLE_SERVER_MESSAGES.participantMismatch);
const invalidState = () => new AppError(400, 'INVALID_STATE', WEARABLE_MESSAGES.invalidState);
const stateExpired = () =>
  new AppError(400, 'STATE_EXPIRED', WEARABLE_SERVER_MESSAGES.stateExpired);
const notConnected = () =>
  new AppError(404, 'NOT_CONNECTED', WEARABLE_SERVER_MESSAGES.notConnected);
const needsReauth = () =>
  new AppError(409, 'NEEDS_REAUTHORIZATION', WEARABLE_SERVER_MESSAGES.needsReauthorization);

/** Provider failures as API errors; a message never carries a token or provider internals. */
function providerError(error: unknown, fallback: string): AppError {
  if (error instanceof GoogleHealthError) {
    if (error.kind === 'account_not_linked') {
      return new AppError(400, 'ACCOUNT_NOT_LINKED', WEARABLE_SERVER_MESSAGES.accountNotLinked);
    }
    if (error.kind === 'rate_limited' || error.kind === 'unavailable') {
      return new AppError(
        503,
        'PROVIDER_UNAVAILABLE',
        WEARABLE_SERVER_MESSAGES.providerUnavailable,
      );
    }
    // An answer we could not read is the provider's fault, not the request's.
    if (error.kind === 'invalid_response') return new AppError(502, 'PROVIDER_ERROR', fallback);
    return new AppError(400, 'PROVIDER_REFUSED', fallback);
  }
  return error instanceof AppError ? error : new AppError(502, 'PROVIDER_ERROR', fallback);
}

export function createWearablesService(deps: WearablesDeps) {
  const { db, config, cipher, messaging } = deps;
  const now = deps.now ?? (() => new Date());
  const client = deps.client ?? createGoogleHealthClient(config.googleHealth);
  const stateKey = deps.stateKey ?? randomBytes(32);
  /**
   * A state that looks like any other (32 bytes, base64url) but is never stored: its second half
   * is a MAC of its first, so the callback recognises it without a table.
   */
  const decoyTag = (head: Buffer) =>
    createHmac('sha256', stateKey).update(head).digest().subarray(0, 16);
  const decoyState = () => {
    const head = randomBytes(16);
    return Buffer.concat([head, decoyTag(head)]).toString('base64url');
  };
  const isDecoy = (state: string) => {
    const bytes = Buffer.from(state, 'base64url');
    return (
      bytes.length === 32 && timingSafeEqual(bytes.subarray(16), decoyTag(bytes.subarray(0, 16)))
    );
  };
  /** A reauthorization that cannot renew anything: told like another Google account. */
  const notTheConnectedAccount = () =>
    new AppError(409, 'OTHER_GOOGLE_ACCOUNT', WEARABLE_SERVER_MESSAGES.otherGoogleAccount);
  const redirectUri = `${config.publicUrl}/fitbit/callback`;
  /**
   * Single flight per connection inside this process. PGlite is one process's database, so this
   * is the whole story there; on PostgreSQL a `select … for update` row lock adds the guarantee
   * across API and worker processes.
   */
  const inFlight = new Map<string, Promise<unknown>>();

  async function serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = inFlight.get(key) ?? Promise.resolve();
    const run = previous.catch(() => {}).then(work);
    const tail = run.catch(() => {});
    inFlight.set(key, tail);
    try {
      return await run;
    } finally {
      if (inFlight.get(key) === tail) inFlight.delete(key);
    }
  }

  function toStatus(participantId: string, row: repo.ConnectionRow | undefined): WearableStatus {
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

  async function participantOrMismatch(participantId: string): Promise<repo.ParticipantRef> {
    const participant = await repo.findLiveParticipant(db, participantId);
    if (!participant) throw mismatch();
    return participant;
  }

  /** Marks the grant dead and mails the participant a reconnect link (once a day at most). */
  async function markNeedsReauthorization(row: repo.ConnectionRow, reason: string) {
    await repo.updateConnection(db, row.id, {
      status: 'needs_reauthorization',
      accessTokenEncrypted: null,
      refreshTokenEncrypted: null,
      accessExpiresAt: null,
    });
    await recordAudit(db, {
      actorId: null,
      action: 'wearable.needs_reauthorization',
      targetType: 'participant',
      targetId: row.participantId,
      details: { reason },
    });
    const participant = await repo.findLiveParticipant(db, row.participantId);
    if (!participant) return;
    if (!(await repo.claimReauthMail(db, row.id, now(), REAUTH_MAIL_INTERVAL_MS))) return;
    const url = new URL('/fitbit/reauthorize', config.publicUrl);
    url.searchParams.set('participantId', participant.id);
    const mail = reauthorizationEmail({
      studyName: participant.studyName,
      reauthorizeUrl: url.toString(),
      texts: REAUTH_MAIL_TEXTS,
    });
    await messaging.queueEmail('wearable-reauthorization', {
      to: participant.email,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
    });
  }

  /** Stores a fresh token pair; the refresh token is kept when the answer has none. */
  const tokenColumns = (tokens: TokenSet) => ({
    accessTokenEncrypted: cipher.encrypt(tokens.accessToken, AD.access),
    accessExpiresAt: tokens.expiresAt,
    ...(tokens.refreshToken
      ? {
          refreshTokenEncrypted: cipher.encrypt(tokens.refreshToken, AD.refresh),
          refreshExpiresAt: tokens.refreshExpiresAt,
        }
      : {}),
  });

  /**
   * The refresh itself, under the caller's lock. Re-reads the row first: a refresh that ran while
   * this one waited has already done the work (unless `force`).
   */
  async function refreshLocked(
    tx: Parameters<typeof repo.findConnection>[0],
    participantId: string,
    force: boolean,
  ): Promise<
    | { kind: 'fresh'; row: repo.ConnectionRow; accessToken: string }
    | { kind: 'grant-dead'; row: repo.ConnectionRow }
  > {
    const row = await repo.findConnection(tx, participantId, {
      forUpdate: deps.databaseKind === 'postgres',
    });
    if (!row) throw notConnected();
    if (row.status !== 'active' || !row.refreshTokenEncrypted) throw needsReauth();
    const fresh =
      row.accessTokenEncrypted &&
      row.accessExpiresAt &&
      row.accessExpiresAt.getTime() - REFRESH_MARGIN_MS > now().getTime();
    if (fresh && !force && row.accessTokenEncrypted) {
      return {
        kind: 'fresh',
        row,
        accessToken: cipher.decrypt(row.accessTokenEncrypted, AD.access),
      };
    }
    let tokens: TokenSet;
    try {
      tokens = await client.refresh(cipher.decrypt(row.refreshTokenEncrypted, AD.refresh));
    } catch (error) {
      if (error instanceof GoogleHealthError && error.kind === 'invalid_grant') {
        return { kind: 'grant-dead', row };
      }
      throw providerError(error, WEARABLE_SERVER_MESSAGES.providerUnavailable);
    }
    // Persist before use: a crash after this line loses nothing.
    const updated = await repo.updateConnection(tx, row.id, {
      ...tokenColumns(tokens),
      ...(tokens.scopes.length > 0 ? { grantedScopes: tokens.scopes } : {}),
    });
    return { kind: 'fresh', row: updated ?? row, accessToken: tokens.accessToken };
  }

  async function refreshSingleFlight(participantId: string, force: boolean) {
    const result = await serialized(participantId, () =>
      deps.databaseKind === 'postgres'
        ? db.transaction((tx) => refreshLocked(tx, participantId, force))
        : refreshLocked(db, participantId, force),
    );
    if (result.kind === 'grant-dead') {
      // invalid_grant: the stored grant is dead (revoked, expired, or Testing's 7 days).
      await markNeedsReauthorization(result.row, 'invalid_grant');
      throw needsReauth();
    }
    return result;
  }

  /** The grant's best handle for a revocation: the refresh token, else the access token. */
  function tokenOf(row: repo.ConnectionRow) {
    if (row.refreshTokenEncrypted) return cipher.decrypt(row.refreshTokenEncrypted, AD.refresh);
    if (row.accessTokenEncrypted) return cipher.decrypt(row.accessTokenEncrypted, AD.access);
    return null;
  }

  async function revokeRow(row: repo.ConnectionRow) {
    const token = tokenOf(row);
    if (token) {
      try {
        await client.revoke(token);
      } catch (error) {
        throw providerError(error, WEARABLE_SERVER_MESSAGES.providerUnavailable);
      }
    }
    return repo.updateConnection(db, row.id, {
      status: 'revoked',
      accessTokenEncrypted: null,
      refreshTokenEncrypted: null,
      accessExpiresAt: null,
      refreshExpiresAt: null,
    });
  }

  /**
   * A participant who reconnected with another Google account: the old account's grant is
   * revoked at Google unless that account still serves another participant (the same person in
   * another study), since a revocation ends the grant for all of them. Best effort: the new
   * connection stands either way, and a failure is recorded.
   */
  async function releasePreviousGrant(previous: repo.ConnectionRow, participantId: string) {
    const token = tokenOf(previous);
    if (!token) return;
    const others = await repo.grantsOfHealthUser(db, previous.healthUserId);
    if (others.some((other) => other.participantId !== participantId)) return;
    const revoked = await client.revoke(token).then(
      () => true,
      () => false,
    );
    await recordAudit(db, {
      actorId: null,
      action: revoked ? 'wearable.previous_grant_revoked' : 'wearable.previous_grant_revoke_failed',
      targetType: 'participant',
      targetId: participantId,
    });
  }

  /** Uses a state once; an unused one past its 10 minutes says so rather than 'invalid'. */
  async function claimState(found: repo.OauthStateRow, hash: string) {
    const stamp = now();
    const claimed = await repo.claimOauthState(db, hash, stamp);
    if (claimed) return claimed;
    if (!found.usedAt && found.expiresAt.getTime() <= stamp.getTime()) throw stateExpired();
    throw invalidState();
  }

  /** Exchange, identity and storage shared by the direct and the PKCE path. */
  async function connect(state: repo.OauthStateRow, code: string) {
    const participant = await participantOrMismatch(state.participantId);
    let tokens: TokenSet;
    try {
      tokens = await client.exchangeCode({
        code,
        codeVerifier: cipher.decrypt(state.verifierEncrypted, AD.verifier),
        redirectUri,
      });
    } catch (error) {
      throw providerError(error, WEARABLE_MESSAGES.exchangeFailed);
    }
    if (tokens.scopes.length === 0) {
      await client.revoke(tokens.accessToken).catch(() => {});
      throw new AppError(400, 'NO_SCOPES_GRANTED', WEARABLE_SERVER_MESSAGES.noScopesGranted);
    }
    let identity: Awaited<ReturnType<GoogleHealthClient['getIdentity']>>;
    try {
      identity = await client.getIdentity(tokens.accessToken);
    } catch (error) {
      await client.revoke(tokens.refreshToken ?? tokens.accessToken).catch(() => {});
      throw providerError(error, WEARABLE_MESSAGES.processFailed);
    }
    if (state.expectedHealthUserId && identity.healthUserId !== state.expectedHealthUserId) {
      // A reauthorization without a session may only renew the account already connected:
      // another account's grant is given back at once and the connection stays as it was.
      await client.revoke(tokens.refreshToken ?? tokens.accessToken).catch(() => {});
      await recordAudit(db, {
        actorId: null,
        action: 'wearable.reauthorization_refused',
        targetType: 'participant',
        targetId: participant.id,
        details: { reason: 'other_google_account', redirectKind: state.redirectKind },
      });
      throw notTheConnectedAccount();
    }
    // One Google account feeds one participant of a study: a second would double its data.
    // The new grant is not revoked: at Google it is the same grant the other participant uses.
    const holders = await repo.grantsOfHealthUser(db, identity.healthUserId);
    if (
      holders.some((h) => h.studyId === participant.studyId && h.participantId !== participant.id)
    ) {
      await recordAudit(db, {
        actorId: null,
        action: 'wearable.connection_refused',
        targetType: 'participant',
        targetId: participant.id,
        details: { reason: 'google_account_in_use', redirectKind: state.redirectKind },
      });
      throw new AppError(409, 'GOOGLE_ACCOUNT_IN_USE', WEARABLE_SERVER_MESSAGES.googleAccountInUse);
    }
    const previous = await repo.findConnection(db, participant.id);
    const stamp = now();
    const row = await db.transaction(async (tx) => {
      const stored = await repo.upsertConnection(tx, {
        participantId: participant.id,
        studyId: participant.studyId,
        provider: 'google-health',
        healthUserId: identity.healthUserId,
        legacyUserId: identity.legacyUserId,
        grantedScopes: tokens.scopes,
        ...tokenColumns(tokens),
        refreshTokenEncrypted: tokens.refreshToken
          ? cipher.encrypt(tokens.refreshToken, AD.refresh)
          : null,
        refreshExpiresAt: tokens.refreshExpiresAt,
        status: 'active',
        connectedAt: stamp,
        updatedAt: stamp,
        // lastReauthMailAt is kept: a reconnect does not reopen the day's one reauthorization mail.
      });
      await repo.markParticipantAuthorized(tx, participant.id, stamp);
      await recordAudit(tx, {
        actorId: null,
        action: 'wearable.connected',
        targetType: 'participant',
        targetId: participant.id,
        details: { scopes: tokens.scopes, redirectKind: state.redirectKind },
      });
      return stored;
    });
    if (previous && previous.healthUserId !== identity.healthUserId)
      await releasePreviousGrant(previous, participant.id);
    return { participant, row, scope: tokens.scopes.join(' ') };
  }

  return {
    redirectUri,
    /** The provider client, for data calls (extraction): pair it with `accessToken()`. */
    client,

    /** The participant for a researcher route; the caller then checks study membership. */
    async participantForResearcher(participantId: string, studyCode?: string) {
      const participant = await repo.findLiveParticipant(db, participantId);
      if (!participant || (studyCode !== undefined && participant.studyCode !== studyCode)) {
        throw new AppError(404, 'PARTICIPANT_NOT_FOUND', STUDY_DETAIL_MESSAGES.participantNotFound);
      }
      return participant;
    },

    /**
     * A consent URL for the participant: for researchers of the study and for the participant
     * session of the enrolment flows (after verification). The PKCE verifier stays here.
     * `expectedHealthUserId` binds the attempt to one Google account (see reauthorizationUrl).
     */
    async authorizationUrl(
      participant: Pick<repo.ParticipantRef, 'id' | 'studyId'>,
      options: {
        mode?: 'popup' | 'redirect';
        clientBinding?: string | undefined;
        expectedHealthUserId?: string;
      } = {},
    ): Promise<{ authUrl: string; expiresAt: string }> {
      const state = randomBytes(32).toString('base64url');
      const pkce = createPkcePair();
      const expiresAt = new Date(now().getTime() + OAUTH_STATE_TTL_MS);
      await repo.insertOauthState(db, {
        stateHash: sha256(state),
        studyId: participant.studyId,
        participantId: participant.id,
        verifierEncrypted: cipher.encrypt(pkce.verifier, AD.verifier),
        redirectKind: options.mode ?? 'redirect',
        clientBindingHash: options.clientBinding ?? null,
        expectedHealthUserId: options.expectedHealthUserId ?? null,
        expiresAt,
      });
      const authUrl = client.authorizationUrl({
        state,
        codeChallenge: pkce.challenge,
        redirectUri,
        scopes: GOOGLE_HEALTH_READ_SCOPES,
      });
      return { authUrl, expiresAt: expiresAt.toISOString() };
    },

    /**
     * The reauthorization page's path without a session: id, e-mail and study code prove nothing
     * about the caller, so the URL only renews an existing connection, and only with the Google
     * account of that connection (checked at the callback). Where there is nothing to renew, or
     * the three do not match, the answer looks the same: a consent URL whose state was never
     * stored, so it tells nothing about the person; coming back from it is answered as another
     * Google account would be, with a text that also covers a person never connected.
     */
    async reauthorizationUrl(
      input: { participantId: string; studyCode: string; email: string },
      options: { mode?: 'popup' | 'redirect'; clientBinding?: string | undefined } = {},
    ): Promise<{ authUrl: string; expiresAt: string }> {
      const participant = await repo.findLiveParticipant(db, input.participantId);
      const matches =
        participant &&
        sameEmail(participant.email, input.email) &&
        participant.studyCode === input.studyCode;
      const row = matches ? await repo.findConnection(db, participant.id) : undefined;
      if (participant && row) {
        return this.authorizationUrl(participant, {
          ...options,
          expectedHealthUserId: row.healthUserId,
        });
      }
      return {
        authUrl: client.authorizationUrl({
          state: decoyState(),
          codeChallenge: createPkcePair().challenge,
          redirectUri,
          scopes: GOOGLE_HEALTH_READ_SCOPES,
        }),
        expiresAt: new Date(now().getTime() + OAUTH_STATE_TTL_MS).toISOString(),
      };
    },

    /** `POST /api/fitbit/callback`: the direct path. */
    async completeDirect(input: {
      code: string;
      state: string;
      participantId?: string | undefined;
    }) {
      const hash = sha256(input.state);
      const found = await repo.findOauthState(db, hash);
      if (!found && isDecoy(input.state)) throw notTheConnectedAccount();
      // A state bound to a browser (PKCE path) must be finished by that browser, not here.
      if (
        !found ||
        found.clientBindingHash ||
        (input.participantId && found.participantId !== input.participantId)
      ) {
        throw invalidState();
      }
      const claimed = await claimState(found, hash);
      const { participant, scope } = await connect(claimed, input.code);
      return { participantId: participant.id, studyCode: participant.studyCode, scope };
    },

    /**
     * `POST /api/data/exchange-fitbit-token`: the PKCE path. The page proves it started the flow
     * with its code verifier (SHA-256 bound to the state); Google's verifier stays on the server.
     */
    async completePkce(input: {
      code: string;
      state: string;
      codeVerifier: string;
      studyCode: string;
      redirectUri: string;
    }) {
      const hash = sha256(input.state);
      const found = await repo.findOauthState(db, hash);
      if (!found && isDecoy(input.state)) throw notTheConnectedAccount();
      if (!found) throw invalidState();
      if (
        !found.clientBindingHash ||
        !sameHex(found.clientBindingHash, sha256(input.codeVerifier))
      ) {
        throw new AppError(400, 'CLIENT_MISMATCH', WEARABLE_SERVER_MESSAGES.clientMismatch);
      }
      if (input.redirectUri !== redirectUri) {
        throw new AppError(400, 'REDIRECT_URI_MISMATCH', WEARABLE_MESSAGES.exchangeFailed);
      }
      const participant = await participantOrMismatch(found.participantId);
      if (participant.studyCode !== input.studyCode) throw invalidState();
      const claimed = await claimState(found, hash);
      const { row, scope } = await connect(claimed, input.code);
      return { user_id: row.healthUserId, scope, participantId: participant.id };
    },

    /** `POST /api/data/store-tokens`: confirms what the exchange stored. */
    async confirmStored(input: {
      participantId: string;
      studyCode: string;
      healthUserId?: string | undefined;
    }) {
      const participant = await participantOrMismatch(input.participantId);
      if (participant.studyCode !== input.studyCode) throw mismatch();
      const row = await repo.findConnection(db, participant.id);
      if (
        row?.status !== 'active' ||
        (input.healthUserId && input.healthUserId !== row.healthUserId)
      ) {
        throw new AppError(409, 'NOT_CONNECTED', WEARABLE_MESSAGES.storeTokensFailed);
      }
      return { participantId: participant.id };
    },

    async status(participantId: string): Promise<WearableStatus> {
      return toStatus(participantId, await repo.findConnection(db, participantId));
    },

    /** Forces a refresh now (the listing's refresh action). */
    async refresh(participantId: string): Promise<WearableStatus> {
      const { row } = await refreshSingleFlight(participantId, true);
      return toStatus(participantId, row);
    },

    /** A usable access token for data calls: refreshed first when it is about to expire. */
    async accessToken(participantId: string): Promise<string> {
      return (await refreshSingleFlight(participantId, false)).accessToken;
    },

    /** Revokes the grant at the provider and forgets the tokens. */
    async revoke(participantId: string, actorId: string | null): Promise<WearableStatus> {
      const row = await serialized(participantId, async () => {
        const current = await repo.findConnection(db, participantId);
        if (!current) throw notConnected();
        return revokeRow(current);
      });
      await recordAudit(db, {
        actorId,
        action: 'wearable.revoked',
        targetType: 'participant',
        targetId: participantId,
      });
      return toStatus(participantId, row);
    },

    /** For participant deletion: revoke when connected, quietly do nothing otherwise. */
    async revokeIfConnected(participantId: string, actorId: string | null): Promise<void> {
      const row = await repo.findConnection(db, participantId);
      if (!row || (!row.accessTokenEncrypted && !row.refreshTokenEncrypted)) return;
      await this.revoke(participantId, actorId);
    },

    /** For a study purge: every grant of the study, best effort per participant. */
    async revokeStudy(studyId: string): Promise<number> {
      return revokeStudyGrants(deps, studyId, client);
    },

    async listForStudy(
      studyId: string,
      page: { limit: number; offset: number },
    ): Promise<{ authorizations: WearableAuthorizationRow[]; totalCount: number }> {
      const { rows, totalCount } = await repo.listAuthorizations(db, studyId, page);
      return {
        totalCount,
        authorizations: rows.map((r) => ({
          id: r.connectionId ?? r.participantId,
          participantId: r.participantId,
          name: [r.firstName, r.lastName].filter(Boolean).join(' '),
          email: r.email,
          authorizationStatus: r.status === 'active',
          hasTokens: Boolean(r.hasAccessToken),
          wearableUserId: r.healthUserId,
          grantedScopes: r.grantedScopes ?? [],
          status: r.status,
          tokenExpiresAt: r.hasAccessToken ? grantExpiry(r.refreshExpiresAt) : null,
        })),
      };
    },
  };
}

/**
 * Revokes every grant of a study at the provider and forgets the tokens; used by the purge job,
 * which runs before the services exist. Best effort per participant: a provider failure leaves
 * that row (tokens kept) for the next run and the others are still revoked; if any failed, it
 * throws once all were tried, so the caller keeps the study until every grant is gone.
 */
export async function revokeStudyGrants(
  deps: Pick<WearablesDeps, 'db' | 'cipher' | 'config'>,
  studyId: string,
  client: GoogleHealthClient = createGoogleHealthClient(deps.config.googleHealth),
): Promise<number> {
  const rows = await repo.connectionsWithTokens(deps.db, studyId);
  let revoked = 0;
  let firstFailure: unknown;
  for (const row of rows) {
    const token = row.refreshTokenEncrypted
      ? deps.cipher.decrypt(row.refreshTokenEncrypted, AD.refresh)
      : row.accessTokenEncrypted
        ? deps.cipher.decrypt(row.accessTokenEncrypted, AD.access)
        : null;
    try {
      if (token) await client.revoke(token);
    } catch (error) {
      firstFailure ??= error;
      continue;
    }
    await repo.updateConnection(deps.db, row.id, {
      status: 'revoked',
      accessTokenEncrypted: null,
      refreshTokenEncrypted: null,
      accessExpiresAt: null,
      refreshExpiresAt: null,
    });
    revoked++;
  }
  const failed = rows.length - revoked;
  if (failed > 0) {
    throw new Error(
      `${failed} of ${rows.length} wearable grants of study ${studyId} could not be revoked at the provider; kept for the next run`,
      { cause: firstFailure },
    );
  }
  return revoked;
}

export type WearablesService = ReturnType<typeof createWearablesService>;
