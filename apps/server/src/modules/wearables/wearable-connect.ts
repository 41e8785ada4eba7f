import { WEARABLE_MESSAGES, WEARABLE_SERVER_MESSAGES } from '@research/contracts';
import { AppError } from '../../errors.js';
import type { GoogleHealthIdentity, TokenSet } from '../../platform/google-health/types.js';
import { recordAudit } from '../audit/index.js';
import { markParticipantAuthorized } from '../participants/index.js';
import {
  invalidState,
  mismatch,
  notTheConnectedAccount,
  providerError,
  stateExpired,
} from './wearable-errors.js';
import { releasePreviousGrant } from './wearable-revocation.js';
import { AD, tokenColumns } from './wearable-tokens.js';
import * as repo from './wearables.repository.js';
import type { WearablesContext } from './wearables-context.js';

export async function participantOrMismatch(
  ctx: WearablesContext,
  participantId: string,
): Promise<repo.ParticipantRef> {
  const participant = await repo.findLiveParticipant(ctx.db, participantId);
  if (!participant) throw mismatch();
  return participant;
}

/** Uses a state once; an unused one past its 10 minutes says so rather than 'invalid'. */
export async function claimState(ctx: WearablesContext, found: repo.OauthStateRow, hash: string) {
  const stamp = ctx.now();
  const claimed = await repo.claimOauthState(ctx.db, hash, stamp);
  if (claimed) return claimed;
  if (!found.usedAt && found.expiresAt.getTime() <= stamp.getTime()) throw stateExpired();
  throw invalidState();
}

/** The code's tokens and the Google account they belong to; a grant we cannot use is given back. */
async function exchange(ctx: WearablesContext, state: repo.OauthStateRow, code: string) {
  const { client, cipher } = ctx;
  let tokens: TokenSet;
  try {
    tokens = await client.exchangeCode({
      code,
      codeVerifier: cipher.decrypt(state.verifierEncrypted, AD.verifier),
      redirectUri: ctx.redirectUri,
    });
  } catch (error) {
    throw providerError(error, WEARABLE_MESSAGES.exchangeFailed);
  }
  if (tokens.scopes.length === 0) {
    await client.revoke(tokens.accessToken).catch(() => {});
    throw new AppError(400, 'NO_SCOPES_GRANTED', WEARABLE_SERVER_MESSAGES.noScopesGranted);
  }
  let identity: GoogleHealthIdentity;
  try {
    identity = await client.getIdentity(tokens.accessToken);
  } catch (error) {
    await client.revoke(tokens.refreshToken ?? tokens.accessToken).catch(() => {});
    throw providerError(error, WEARABLE_MESSAGES.processFailed);
  }
  return { tokens, identity };
}

/** Refuses a grant of another account than expected, or of one already feeding the study. */
async function refuseForeignAccount(
  ctx: WearablesContext,
  state: repo.OauthStateRow,
  participant: repo.ParticipantRef,
  tokens: TokenSet,
  identity: GoogleHealthIdentity,
) {
  const refused = (reason: string, action: string) =>
    recordAudit(ctx.db, {
      actorId: null,
      studyId: participant.studyId,
      action,
      targetType: 'participant',
      targetId: participant.id,
      details: { reason, redirectKind: state.redirectKind },
    });
  if (state.expectedHealthUserId && identity.healthUserId !== state.expectedHealthUserId) {
    // A reauthorization without a session may only renew the account already connected:
    // another account's grant is given back at once and the connection stays as it was.
    await ctx.client.revoke(tokens.refreshToken ?? tokens.accessToken).catch(() => {});
    await refused('other_google_account', 'wearable.reauthorization_refused');
    throw notTheConnectedAccount();
  }
  // One Google account feeds one participant of a study: a second would double its data.
  // The new grant is not revoked: at Google it is the same grant the other participant uses.
  const holders = await repo.grantsOfHealthUser(ctx.db, identity.healthUserId);
  if (
    holders.some((h) => h.studyId === participant.studyId && h.participantId !== participant.id)
  ) {
    await refused('google_account_in_use', 'wearable.connection_refused');
    throw new AppError(409, 'GOOGLE_ACCOUNT_IN_USE', WEARABLE_SERVER_MESSAGES.googleAccountInUse);
  }
}

/** Stores the connection, marks the participant authorized and records it, in one transaction. */
function storeConnection(
  ctx: WearablesContext,
  state: repo.OauthStateRow,
  participant: repo.ParticipantRef,
  tokens: TokenSet,
  identity: GoogleHealthIdentity,
) {
  const { cipher } = ctx;
  const stamp = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const stored = await repo.upsertConnection(tx, {
      participantId: participant.id,
      studyId: participant.studyId,
      provider: 'google-health',
      healthUserId: identity.healthUserId,
      legacyUserId: identity.legacyUserId,
      grantedScopes: tokens.scopes,
      ...tokenColumns(cipher, participant.id, tokens),
      refreshTokenEncrypted: tokens.refreshToken
        ? cipher.encrypt(tokens.refreshToken, AD.refresh(participant.id))
        : null,
      refreshExpiresAt: tokens.refreshExpiresAt,
      status: 'active',
      connectedAt: stamp,
      updatedAt: stamp,
      // lastReauthMailAt is kept: a reconnect does not reopen the day's one reauthorization mail.
    });
    await markParticipantAuthorized(tx, participant.id, stamp);
    await recordAudit(tx, {
      actorId: null,
      studyId: participant.studyId,
      action: 'wearable.connected',
      targetType: 'participant',
      targetId: participant.id,
      details: { scopes: tokens.scopes, redirectKind: state.redirectKind },
    });
    return stored;
  });
}

/** Exchange, identity and storage shared by the direct and the PKCE path. */
export async function connect(ctx: WearablesContext, state: repo.OauthStateRow, code: string) {
  const participant = await participantOrMismatch(ctx, state.participantId);
  // Before the exchange: Google's code is never turned into a grant for someone held back. Only
  // on a session's path: a reauthorization state can be had without one (id, e-mail, study
  // code), and its caller must learn nothing before Google's account is checked; the consent
  // gate still holds a renewed grant's data back.
  if (!state.expectedHealthUserId) {
    const refusal = await ctx.connectRefusal(participant);
    if (refusal) throw new AppError(403, 'CONSENT_REQUIRED', refusal);
  }
  const { tokens, identity } = await exchange(ctx, state, code);
  await refuseForeignAccount(ctx, state, participant, tokens, identity);
  const previous = await repo.findConnection(ctx.db, participant.id);
  const row = await storeConnection(ctx, state, participant, tokens, identity);
  if (previous && previous.healthUserId !== identity.healthUserId)
    await releasePreviousGrant(ctx, previous, participant.id);
  // The connection stands whatever happens here: a backfill not queued now is the next sweep's.
  await ctx.onConnected(participant.id).catch(() => {});
  return { participant, row, scope: tokens.scopes.join(' ') };
}
