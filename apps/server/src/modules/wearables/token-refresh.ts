import {
  REAUTH_MAIL_INTERVAL_MS,
  REAUTH_MAIL_TEXTS,
  WEARABLE_SERVER_MESSAGES,
} from '@research/contracts';
import { GoogleHealthError } from '../../platform/google-health/index.js';
import type { TokenSet } from '../../platform/google-health/types.js';
import { reauthorizationEmail } from '../../platform/mail-templates.js';
import { recordAudit } from '../audit/index.js';
import { reauthorizeUrl } from './study-connections.js';
import { needsReauth, notConnected, providerError } from './wearable-errors.js';
import { AD, NO_TOKENS, tokenColumns } from './wearable-tokens.js';
import * as repo from './wearables.repository.js';
import type { WearablesContext } from './wearables-context.js';

/** Refresh this long before the stored expiry, so a token never dies mid-request. */
const REFRESH_MARGIN_MS = 60_000;

type Refreshed =
  | { kind: 'fresh'; row: repo.ConnectionRow; accessToken: string }
  | { kind: 'grant-dead'; row: repo.ConnectionRow };

/** Marks the grant dead and mails the participant a reconnect link (once a day at most). */
async function markNeedsReauthorization(
  ctx: WearablesContext,
  row: repo.ConnectionRow,
  reason: string,
) {
  const { db, config, messaging, now } = ctx;
  await repo.updateConnection(db, row.id, { status: 'needs_reauthorization', ...NO_TOKENS });
  await recordAudit(db, {
    actorId: null,
    studyId: row.studyId,
    action: 'wearable.needs_reauthorization',
    targetType: 'participant',
    targetId: row.participantId,
    details: { reason },
  });
  const participant = await repo.findLiveParticipant(db, row.participantId);
  if (!participant) return;
  if (!(await repo.claimReauthMail(db, row.id, now(), REAUTH_MAIL_INTERVAL_MS))) return;
  const mail = reauthorizationEmail({
    studyName: participant.studyName,
    participantId: participant.id,
    reauthorizeUrl: reauthorizeUrl(config.publicUrl, participant.id),
    texts: REAUTH_MAIL_TEXTS,
  });
  await messaging.queueEmail('wearable-reauthorization', {
    to: participant.email,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
  });
}

/**
 * The refresh itself, under the caller's lock. Re-reads the row first: a refresh that ran while
 * this one waited has already done the work (unless `force`).
 */
async function refreshLocked(
  ctx: WearablesContext,
  tx: Parameters<typeof repo.findConnection>[0],
  participantId: string,
  force: boolean,
): Promise<Refreshed> {
  const { cipher, client, now } = ctx;
  const row = await repo.findConnection(tx, participantId, {
    forUpdate: ctx.databaseKind === 'postgres',
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
      accessToken: cipher.decrypt(row.accessTokenEncrypted, AD.access(participantId)),
    };
  }
  let tokens: TokenSet;
  try {
    tokens = await client.refresh(
      cipher.decrypt(row.refreshTokenEncrypted, AD.refresh(participantId)),
    );
  } catch (error) {
    if (error instanceof GoogleHealthError && error.kind === 'invalid_grant') {
      return { kind: 'grant-dead', row };
    }
    throw providerError(error, WEARABLE_SERVER_MESSAGES.providerUnavailable);
  }
  // Persist before use: a crash after this line loses nothing.
  const updated = await repo.updateConnection(tx, row.id, {
    ...tokenColumns(cipher, participantId, tokens),
    ...(tokens.scopes.length > 0 ? { grantedScopes: tokens.scopes } : {}),
  });
  return { kind: 'fresh', row: updated ?? row, accessToken: tokens.accessToken };
}

/**
 * A usable access token, refreshed when about to expire (or always with `force`), one refresh
 * per connection at a time. A dead grant (invalid_grant: revoked, expired, or Testing's 7 days)
 * is marked for reauthorization and answered as such.
 */
export async function refreshSingleFlight(
  ctx: WearablesContext,
  participantId: string,
  force: boolean,
) {
  const { db } = ctx;
  const result = await ctx.serialized(participantId, () =>
    ctx.databaseKind === 'postgres'
      ? db.transaction((tx) => refreshLocked(ctx, tx, participantId, force))
      : refreshLocked(ctx, db, participantId, force),
  );
  if (result.kind === 'grant-dead') {
    await markNeedsReauthorization(ctx, result.row, 'invalid_grant');
    throw needsReauth();
  }
  return result;
}
