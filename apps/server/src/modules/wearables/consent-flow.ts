import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  GOOGLE_HEALTH_READ_SCOPES,
  OAUTH_STATE_TTL_MS,
  WEARABLE_MESSAGES,
  WEARABLE_SERVER_MESSAGES,
} from '@research/contracts';
import { AppError } from '../../errors.js';
import { createPkcePair } from '../../platform/google-health/index.js';
import { claimState, connect, participantOrMismatch } from './wearable-connect.js';
import { invalidState, mismatch, notTheConnectedAccount } from './wearable-errors.js';
import { AD } from './wearable-tokens.js';
import * as repo from './wearables.repository.js';
import type { WearablesContext } from './wearables-context.js';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

const sameHex = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

type Mode = { mode?: 'popup' | 'redirect'; clientBinding?: string | undefined };

/**
 * Decoy states look like any other (32 bytes, base64url) but are never stored: the second half
 * is a MAC of the first, so the callback recognises them without a table.
 */
function createDecoys(stateKey: Buffer) {
  const tag = (head: Buffer) =>
    createHmac('sha256', stateKey).update(head).digest().subarray(0, 16);
  return {
    create() {
      const head = randomBytes(16);
      return Buffer.concat([head, tag(head)]).toString('base64url');
    },
    recognises(state: string) {
      const bytes = Buffer.from(state, 'base64url');
      return bytes.length === 32 && timingSafeEqual(bytes.subarray(16), tag(bytes.subarray(0, 16)));
    },
  };
}

/** The consent flow: consent URLs, the two callback paths and the confirmation after them. */
export function createConsentFlow(ctx: WearablesContext, stateKey: Buffer) {
  const { db, cipher, client, now, redirectUri } = ctx;
  const decoys = createDecoys(stateKey);

  /**
   * A consent URL for the participant: for researchers of the study and for the participant
   * session of the enrolment flows (after verification). The PKCE verifier stays here.
   * `expectedHealthUserId` binds the attempt to one Google account (see reauthorizationUrl).
   */
  async function authorizationUrl(
    participant: Pick<repo.ParticipantRef, 'id' | 'studyId'>,
    options: Mode & {
      expectedHealthUserId?: string;
      /** A researcher's URL connects, but hands whoever comes back no participant session. */
      requestedBy?: 'participant' | 'researcher';
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
      requestedBy: options.requestedBy ?? 'participant',
      expiresAt,
    });
    const authUrl = client.authorizationUrl({
      state,
      codeChallenge: pkce.challenge,
      redirectUri,
      scopes: GOOGLE_HEALTH_READ_SCOPES,
    });
    return { authUrl, expiresAt: expiresAt.toISOString() };
  }

  /**
   * The reauthorization page's path without a session: id, e-mail and study code prove nothing
   * about the caller, so the URL only renews an existing connection, and only with the Google
   * account of that connection (checked at the callback). Where there is nothing to renew, or
   * the three do not match, the answer looks the same: a consent URL whose state was never
   * stored, so it tells nothing about the person; coming back from it is answered as another
   * Google account would be, with a text that also covers a person never connected.
   */
  async function reauthorizationUrl(
    input: { participantId: string; studyCode: string; email: string },
    options: Mode = {},
  ): Promise<{ authUrl: string; expiresAt: string }> {
    const participant = await repo.findLiveParticipant(db, input.participantId);
    const matches =
      participant &&
      sameEmail(participant.email, input.email) &&
      participant.studyCode === input.studyCode;
    const row = matches ? await repo.findConnection(db, participant.id) : undefined;
    if (participant && row) {
      return authorizationUrl(participant, { ...options, expectedHealthUserId: row.healthUserId });
    }
    return {
      authUrl: client.authorizationUrl({
        state: decoys.create(),
        codeChallenge: createPkcePair().challenge,
        redirectUri,
        scopes: GOOGLE_HEALTH_READ_SCOPES,
      }),
      expiresAt: new Date(now().getTime() + OAUTH_STATE_TTL_MS).toISOString(),
    };
  }

  /** `POST /api/fitbit/callback`: the direct path. */
  async function completeDirect(input: {
    code: string;
    state: string;
    participantId?: string | undefined;
  }) {
    const hash = sha256(input.state);
    const found = await repo.findOauthState(db, hash);
    if (!found && decoys.recognises(input.state)) throw notTheConnectedAccount();
    // A state bound to a browser (PKCE path) must be finished by that browser, not here.
    if (
      !found ||
      found.clientBindingHash ||
      (input.participantId && found.participantId !== input.participantId)
    ) {
      throw invalidState();
    }
    const claimed = await claimState(ctx, found, hash);
    const { participant, scope } = await connect(ctx, claimed, input.code);
    return {
      participantId: participant.id,
      studyCode: participant.studyCode,
      scope,
      handsOverSession: claimed.requestedBy === 'participant',
    };
  }

  /**
   * `POST /api/data/exchange-fitbit-token`: the PKCE path. The page proves it started the flow
   * with its code verifier (SHA-256 bound to the state); Google's verifier stays on the server.
   */
  async function completePkce(input: {
    code: string;
    state: string;
    codeVerifier: string;
    studyCode: string;
    redirectUri: string;
  }) {
    const hash = sha256(input.state);
    const found = await repo.findOauthState(db, hash);
    if (!found && decoys.recognises(input.state)) throw notTheConnectedAccount();
    if (!found) throw invalidState();
    if (!found.clientBindingHash || !sameHex(found.clientBindingHash, sha256(input.codeVerifier))) {
      throw new AppError(400, 'CLIENT_MISMATCH', WEARABLE_SERVER_MESSAGES.clientMismatch);
    }
    if (input.redirectUri !== redirectUri) {
      throw new AppError(400, 'REDIRECT_URI_MISMATCH', WEARABLE_MESSAGES.exchangeFailed);
    }
    const participant = await participantOrMismatch(ctx, found.participantId);
    if (participant.studyCode !== input.studyCode) throw invalidState();
    const claimed = await claimState(ctx, found, hash);
    const { row, scope } = await connect(ctx, claimed, input.code);
    return {
      user_id: row.healthUserId,
      scope,
      participantId: participant.id,
      handsOverSession: claimed.requestedBy === 'participant',
    };
  }

  /** `POST /api/data/store-tokens`: confirms what the exchange stored. */
  async function confirmStored(input: {
    participantId: string;
    studyCode: string;
    healthUserId?: string | undefined;
  }) {
    const participant = await participantOrMismatch(ctx, input.participantId);
    if (participant.studyCode !== input.studyCode) throw mismatch();
    const row = await repo.findConnection(db, participant.id);
    if (
      row?.status !== 'active' ||
      (input.healthUserId && input.healthUserId !== row.healthUserId)
    ) {
      throw new AppError(409, 'NOT_CONNECTED', WEARABLE_MESSAGES.storeTokensFailed);
    }
    return { participantId: participant.id };
  }

  return { authorizationUrl, reauthorizationUrl, completeDirect, completePkce, confirmStored };
}
