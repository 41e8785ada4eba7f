import { randomBytes } from 'node:crypto';
import {
  ACCESS_TOKEN_MAX_ACTIVE,
  ACCESS_TOKEN_MESSAGES,
  ACCESS_TOKEN_PREFIX,
  ACCESS_TOKEN_SHOWN_LENGTH,
  type AccessToken,
  type AccessTokenState,
  type CreateAccessTokenInput,
} from '@research/contracts';
import type { Db } from '../../db/client.js';
import { type AppError, conflict, notFound } from '../../errors.js';
import { sha256Hex } from '../../platform/crypto.js';
import { recordAudit } from '../audit/index.js';
import type { RequestContext, UserRow } from '../auth/index.js';
import type { StudyAccess } from '../studies/index.js';
import * as repo from './access-tokens.repository.js';

const DAY_MS = 86_400_000;

export interface AccessTokensDeps {
  db: Db;
}

/** 32 random bytes behind a recognisable prefix; only its SHA-256 is ever stored. */
function newSecret() {
  const secret = `${ACCESS_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { secret, hash: sha256Hex(secret), prefix: secret.slice(0, ACCESS_TOKEN_SHOWN_LENGTH) };
}

export function stateOf(token: repo.AccessTokenRow, now: Date): AccessTokenState {
  if (token.revokedAt) return 'revoked';
  return token.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active';
}

function toView(
  { token, ownerName, ownerEmail }: repo.AccessTokenWithOwner,
  callerId: string,
  now: Date,
): AccessToken {
  return {
    id: token.id,
    name: token.name,
    prefix: token.prefix,
    ownerId: token.userId,
    ownerName,
    ownerEmail,
    mine: token.userId === callerId,
    createdAt: token.createdAt.toISOString(),
    expiresAt: token.expiresAt.toISOString(),
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
    lastUsedIp: token.lastUsedIp,
    revokedAt: token.revokedAt?.toISOString() ?? null,
    state: stateOf(token, now),
  };
}

const tokenNotFound = () =>
  notFound(ACCESS_TOKEN_MESSAGES.notFound, 'ACCESS_TOKEN_NOT_FOUND') as AppError;

/** Creating, listing and revoking a study's tokens (the calls made with one: token-use.ts). */
export function createAccessTokensService({ db }: AccessTokensDeps) {
  return {
    /** A new token of the caller for the study; the secret is returned here and nowhere else. */
    async create(
      access: StudyAccess,
      user: UserRow,
      input: CreateAccessTokenInput,
      ctx: RequestContext,
    ) {
      const now = new Date();
      const { secret, hash, prefix } = newSecret();
      const row = await db.transaction(async (tx) => {
        // Counted inside the transaction; two creations at the same moment may both pass, which
        // leaves one token over a soft cap, not a hole.
        const active = await repo.countActiveTokens(tx, access.study.id, user.id, now);
        if (active >= ACCESS_TOKEN_MAX_ACTIVE)
          throw conflict(
            ACCESS_TOKEN_MESSAGES.tooMany(ACCESS_TOKEN_MAX_ACTIVE),
            'TOO_MANY_ACCESS_TOKENS',
          );
        const created = await repo.insertToken(tx, {
          studyId: access.study.id,
          userId: user.id,
          name: input.name,
          tokenHash: hash,
          prefix,
          createdAt: now,
          expiresAt: new Date(now.getTime() + input.expiresInDays * DAY_MS),
        });
        await recordAudit(tx, {
          actorId: user.id,
          studyId: access.study.id,
          action: 'access_token.created',
          targetType: 'access_token',
          targetId: created.id,
          details: { studyId: access.study.id, expiresInDays: input.expiresInDays },
          ip: ctx.ip,
        });
        return created;
      });
      const view = toView(
        { token: row, ownerName: user.displayName, ownerEmail: user.email },
        user.id,
        now,
      );
      return { token: view, secret };
    },

    /** The caller's tokens of the study; the owner's list has every member's. */
    async list(access: StudyAccess, user: UserRow, page: { limit: number; offset: number }) {
      const owner = access.role === 'main';
      const { rows, totalCount } = await repo.listTokens(
        db,
        access.study.id,
        owner ? null : user.id,
        page,
      );
      const now = new Date();
      return { tokens: rows.map((row) => toView(row, user.id, now)), totalCount, everyone: owner };
    },

    /**
     * Revokes one's own token, or (the owner) any token of the study. A token the caller may not
     * see answers 404 like an unknown one; one already revoked is answered as it is.
     */
    async revoke(access: StudyAccess, user: UserRow, tokenId: string, ctx: RequestContext) {
      const found = await repo.findTokenInStudy(db, access.study.id, tokenId);
      if (!found || (found.token.userId !== user.id && access.role !== 'main'))
        throw tokenNotFound();
      const now = new Date();
      await db.transaction(async (tx) => {
        if (!(await repo.revokeToken(tx, tokenId, user.id, now))) return;
        await recordAudit(tx, {
          actorId: user.id,
          studyId: access.study.id,
          action: 'access_token.revoked',
          targetType: 'access_token',
          targetId: tokenId,
          details: { studyId: access.study.id, ownToken: found.token.userId === user.id },
          ip: ctx.ip,
        });
      });
      const after = (await repo.findTokenInStudy(db, access.study.id, tokenId)) ?? found;
      return toView(after, user.id, now);
    },
  };
}

export type AccessTokensService = ReturnType<typeof createAccessTokensService>;
