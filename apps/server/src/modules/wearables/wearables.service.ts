import { randomBytes } from 'node:crypto';
import {
  STUDY_DETAIL_MESSAGES,
  type WearableAuthorizationRow,
  type WearableStatus,
} from '@research/contracts';
import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import { AppError } from '../../errors.js';
import type { Cipher } from '../../platform/crypto.js';
import {
  createGoogleHealthClient,
  type GoogleHealthClient,
} from '../../platform/google-health/index.js';
import type { Messaging } from '../messaging/index.js';
import { createConsentFlow } from './consent-flow.js';
import { type PairedDevice, recordDeviceSync } from './device-sync.js';
import { createSerializer } from './single-flight.js';
import { refreshSingleFlight } from './token-refresh.js';
import { revokeConnection, revokeStudyGrants } from './wearable-revocation.js';
import { grantExpiry, toStatus } from './wearable-tokens.js';
import * as repo from './wearables.repository.js';
import type { WearablesContext } from './wearables-context.js';

export type { CollectionTarget, ParticipantRef } from './wearables.repository.js';
export { revokeStudyGrants };

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
  /**
   * Called once a connection is stored active (after its transaction), e.g. to queue its
   * backfill; a failure there does not undo the connection.
   */
  onConnected?: (participantId: string) => Promise<unknown>;
  /**
   * Asked before a consent code is exchanged: a text when the participant may not connect (the
   * study's consent gate), so no grant is taken from someone who has not signed.
   */
  connectRefusal?: (participant: { id: string; studyId: string }) => Promise<string | null>;
}

/**
 * A participant's wearable connection: the consent flow (consent-flow.ts, wearable-connect.ts),
 * tokens refreshed on use (token-refresh.ts), revocation (wearable-revocation.ts) and the status
 * researchers read (wearable-tokens.ts).
 */
export function createWearablesService(deps: WearablesDeps) {
  const { db, config } = deps;
  const ctx: WearablesContext = {
    db,
    databaseKind: deps.databaseKind,
    config,
    cipher: deps.cipher,
    messaging: deps.messaging,
    client: deps.client ?? createGoogleHealthClient(config.googleHealth),
    now: deps.now ?? (() => new Date()),
    redirectUri: `${config.publicUrl}/fitbit/callback`,
    serialized: createSerializer(),
    onConnected: deps.onConnected ?? (async () => {}),
    connectRefusal: deps.connectRefusal ?? (async () => null),
  };
  const flow = createConsentFlow(ctx, deps.stateKey ?? randomBytes(32));
  const { client } = ctx;

  return {
    redirectUri: ctx.redirectUri,
    /** The provider client, for data calls (extraction): pair it with `accessToken()`. */
    client,
    ...flow,

    /** The participant for a researcher route; the caller then checks study membership. */
    async participantForResearcher(participantId: string, studyCode?: string) {
      const participant = await repo.findLiveParticipant(db, participantId);
      if (!participant || (studyCode !== undefined && participant.studyCode !== studyCode)) {
        throw new AppError(404, 'PARTICIPANT_NOT_FOUND', STUDY_DETAIL_MESSAGES.participantNotFound);
      }
      return participant;
    },

    async status(participantId: string): Promise<WearableStatus> {
      return toStatus(participantId, await repo.findConnection(db, participantId));
    },

    /** Whether the participant's connection holds an access token (for the participant's page). */
    hasAccessToken: (participantId: string): Promise<boolean> =>
      repo.hasAccessToken(db, participantId),

    /** Forces a refresh now (the listing's refresh action). */
    async refresh(participantId: string): Promise<WearableStatus> {
      const { row } = await refreshSingleFlight(ctx, participantId, true);
      return toStatus(participantId, row);
    },

    /** A usable access token for data calls: refreshed first when it is about to expire. */
    async accessToken(participantId: string): Promise<string> {
      return (await refreshSingleFlight(ctx, participantId, false)).accessToken;
    },

    /** The connections continuous collection works on (active ones, or one participant's). */
    collectionTargets: (participantId?: string): Promise<repo.CollectionTarget[]> =>
      repo.collectionTargets(db, participantId),

    /**
     * The device's last sync, as collection learnt it, with the battery of the device that made
     * it; kept only when later than the stored one.
     */
    recordDeviceSync: (
      participantId: string,
      at: Date,
      devices: readonly PairedDevice[] = [],
    ): Promise<boolean> => recordDeviceSync(db, participantId, at, devices),

    /** Revokes the grant at the provider and forgets the tokens. */
    revoke: (participantId: string, actorId: string | null): Promise<WearableStatus> =>
      revokeConnection(ctx, participantId, actorId),

    /** For participant deletion: revoke when connected, quietly do nothing otherwise. */
    async revokeIfConnected(participantId: string, actorId: string | null): Promise<void> {
      const row = await repo.findConnection(db, participantId);
      if (!row || (!row.accessTokenEncrypted && !row.refreshTokenEncrypted)) return;
      await revokeConnection(ctx, participantId, actorId);
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

export type WearablesService = ReturnType<typeof createWearablesService>;
