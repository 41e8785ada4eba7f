import { WEARABLE_SERVER_MESSAGES, type WearableStatus } from '@research/contracts';
import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Cipher } from '../../platform/crypto.js';
import {
  createGoogleHealthClient,
  type GoogleHealthClient,
} from '../../platform/google-health/index.js';
import { recordAudit } from '../audit/index.js';
import { notConnected, providerError } from './wearable-errors.js';
import { NO_TOKENS, tokenOf, toStatus } from './wearable-tokens.js';
import * as repo from './wearables.repository.js';
import type { WearablesContext } from './wearables-context.js';

const REVOKED = { status: 'revoked', ...NO_TOKENS, refreshExpiresAt: null } as const;

async function revokeRow(ctx: WearablesContext, row: repo.ConnectionRow) {
  const token = tokenOf(ctx.cipher, row);
  if (token) {
    try {
      await ctx.client.revoke(token);
    } catch (error) {
      throw providerError(error, WEARABLE_SERVER_MESSAGES.providerUnavailable);
    }
  }
  return repo.updateConnection(ctx.db, row.id, REVOKED);
}

/** Revokes the grant at the provider and forgets the tokens. */
export async function revokeConnection(
  ctx: WearablesContext,
  participantId: string,
  actorId: string | null,
): Promise<WearableStatus> {
  const row = await ctx.serialized(participantId, async () => {
    const current = await repo.findConnection(ctx.db, participantId);
    if (!current) throw notConnected();
    return revokeRow(ctx, current);
  });
  await recordAudit(ctx.db, {
    actorId,
    studyId: row?.studyId,
    action: 'wearable.revoked',
    targetType: 'participant',
    targetId: participantId,
  });
  return toStatus(participantId, row);
}

/**
 * A participant who reconnected with another Google account: the old account's grant is
 * revoked at Google unless that account still serves another participant (the same person in
 * another study), since a revocation ends the grant for all of them. Best effort: the new
 * connection stands either way, and a failure is recorded.
 */
export async function releasePreviousGrant(
  ctx: WearablesContext,
  previous: repo.ConnectionRow,
  participantId: string,
) {
  const token = tokenOf(ctx.cipher, previous);
  if (!token) return;
  const others = await repo.grantsOfHealthUser(ctx.db, previous.healthUserId);
  if (others.some((other) => other.participantId !== participantId)) return;
  const revoked = await ctx.client.revoke(token).then(
    () => true,
    () => false,
  );
  await recordAudit(ctx.db, {
    actorId: null,
    studyId: previous.studyId,
    action: revoked ? 'wearable.previous_grant_revoked' : 'wearable.previous_grant_revoke_failed',
    targetType: 'participant',
    targetId: participantId,
  });
}

/**
 * Revokes every grant of a study at the provider and forgets the tokens; used by the purge job,
 * which runs before the services exist. Best effort per participant: a provider failure leaves
 * that row (tokens kept) for the next run and the others are still revoked; if any failed, it
 * throws once all were tried, so the caller keeps the study until every grant is gone.
 */
export async function revokeStudyGrants(
  deps: { db: Db; cipher: Cipher; config: AppConfig },
  studyId: string,
  client: GoogleHealthClient = createGoogleHealthClient(deps.config.googleHealth),
): Promise<number> {
  const rows = await repo.connectionsWithTokens(deps.db, studyId);
  let revoked = 0;
  let firstFailure: unknown;
  for (const row of rows) {
    const token = tokenOf(deps.cipher, row);
    try {
      if (token) await client.revoke(token);
    } catch (error) {
      firstFailure ??= error;
      continue;
    }
    await repo.updateConnection(deps.db, row.id, REVOKED);
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
