import {
  REAUTH_MESSAGES,
  STUDY_CODE_MESSAGES,
  STUDY_DETAIL_MESSAGES,
  WEARABLE_SERVER_MESSAGES,
  wearablesApi,
} from '@research/contracts';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { route } from '../../http/operation-route.js';
import { RATE_LIMITS } from '../../http/rate-limits.js';
import { recordRead } from '../audit/index.js';
import { bearerToken, currentUser } from '../auth/index.js';
import { participantSessionToken } from '../participant-access/index.js';
import { requireApprovedResearcher, requireStudyMember, studyAccessOf } from '../studies/index.js';
import type { ParticipantRef } from './wearables.service.js';

type Caller =
  | { via: 'researcher' | 'session'; participant: ParticipantRef; actorId: string | null }
  | { via: 'public'; input: { participantId: string; studyCode: string; email: string } };

/**
 * Who may act on a participant's wearable connection:
 * - a researcher who is a member (owner or collaborator) of the participant's study, with a
 *   bearer token; any other researcher gets the same 404 as for an unknown participant;
 * - the participant with the session a verified code issues, bound to study and participant.
 * Participant id, e-mail and study code are no authority: invitations carry the code, and ids
 * are handed to anyone who names a rostered address. Only the consent URL of a reauthorization
 * takes them (`allowPublic`), and that URL can only renew a connection with its own Google
 * account, which the caller must sign in to.
 */
async function resolveCaller(
  request: FastifyRequest,
  reply: FastifyReply,
  input: { participantId: string; studyCode?: string | undefined; email?: string | undefined },
  options: { allowPublic?: boolean } = {},
): Promise<Caller> {
  const wearables = request.server.services.wearables;
  if (bearerToken(request)) {
    await requireApprovedResearcher(request, reply);
    const user = currentUser(request);
    const participant = await wearables.participantForResearcher(
      input.participantId,
      input.studyCode,
    );
    try {
      await request.server.services.studies.access(participant.studyId, user.id);
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 403) {
        throw new AppError(404, 'PARTICIPANT_NOT_FOUND', STUDY_DETAIL_MESSAGES.participantNotFound);
      }
      throw error;
    }
    return { participant, actorId: user.id, via: 'researcher' };
  }
  // Checked after who is calling, so an anonymous call still learns only that it is one.
  const studyCodeOf = () => {
    if (!input.studyCode) {
      throw new AppError(400, 'STUDY_CODE_REQUIRED', STUDY_CODE_MESSAGES.required);
    }
    return input.studyCode;
  };
  const sessionToken = participantSessionToken(request);
  if (sessionToken || !options.allowPublic || !input.email) {
    const session = await request.server.services.verification.requireSession(sessionToken, {
      participantId: input.participantId,
    });
    const participant = await wearables.participantForResearcher(
      input.participantId,
      studyCodeOf(),
    );
    if (participant.studyId !== session.studyId)
      throw new AppError(404, 'PARTICIPANT_NOT_FOUND', STUDY_DETAIL_MESSAGES.participantNotFound);
    return { participant, actorId: null, via: 'session' };
  }
  return {
    via: 'public',
    input: { participantId: input.participantId, studyCode: studyCodeOf(), email: input.email },
  };
}

/** The participant a researcher or a participant session acts on (never the public path). */
async function participantOf(
  request: FastifyRequest,
  reply: FastifyReply,
  input: { participantId: string; studyCode?: string | undefined },
) {
  const caller = await resolveCaller(request, reply, input);
  if (caller.via === 'public') throw new Error('public path reached a protected call');
  return caller;
}

export const wearablesRoutes: FastifyPluginAsync = async (app) => {
  const wearables = app.services.wearables;
  // The participant calls' per-address budget (a group may share one address).
  const publicLimit = { config: RATE_LIMITS.participantAddress };

  route(app, wearablesApi.getAuthUrl, {
    ...publicLimit,
    handler: async (request, reply) => {
      const caller = await resolveCaller(request, reply, request.query, { allowPublic: true });
      const options = { mode: request.query.mode, clientBinding: request.query.clientBinding };
      const result =
        caller.via === 'public'
          ? await wearables.reauthorizationUrl(caller.input, options)
          : await wearables.authorizationUrl(caller.participant, {
              ...options,
              requestedBy: caller.via === 'researcher' ? 'researcher' : 'participant',
            });
      return { success: true as const, ...result };
    },
  });

  route(app, wearablesApi.completeCallback, {
    ...publicLimit,
    handler: async (request) => {
      const { handsOverSession, ...result } = await wearables.completeDirect(request.body);
      // Back from the provider, the browser continues with the profile: it needs a session.
      // Reached only when the state allowed this account (a reauthorization without a session
      // is refused above for any Google account but the connected one), and never for a URL a
      // researcher asked for: whoever finishes that one has proved nothing about the participant.
      const session = handsOverSession
        ? await app.services.verification.sessionForParticipant(result.participantId)
        : undefined;
      return {
        success: true as const,
        ...result,
        message: WEARABLE_SERVER_MESSAGES.connected,
        ...(session ? { session } : {}),
      };
    },
  });

  route(app, wearablesApi.exchangeToken, {
    ...publicLimit,
    handler: async (request) => {
      const { handsOverSession, ...result } = await wearables.completePkce(request.body);
      const session = handsOverSession
        ? await app.services.verification.sessionForParticipant(result.participantId)
        : undefined;
      return { success: true as const, ...result, ...(session ? { session } : {}) };
    },
  });

  route(app, wearablesApi.storeTokens, {
    ...publicLimit,
    handler: async (request) => {
      // The session the exchange answered: whether a connection exists is the participant's.
      await app.services.verification.requireSession(participantSessionToken(request), {
        participantId: request.body.participantId,
      });
      return {
        success: true as const,
        ...(await wearables.confirmStored({
          participantId: request.body.participantId,
          studyCode: request.body.participantCode,
          healthUserId:
            request.body.participantInfo.fitbitUserId ?? request.body.participantInfo.userId,
        })),
      };
    },
  });

  route(app, wearablesApi.refreshToken, {
    ...publicLimit,
    handler: async (request, reply) => {
      const { participant } = await participantOf(request, reply, request.body);
      return {
        success: true as const,
        data: await wearables.refresh(participant.id),
        message: WEARABLE_SERVER_MESSAGES.refreshed,
      };
    },
  });

  route(app, wearablesApi.revokeAccess, {
    ...publicLimit,
    handler: async (request, reply) => {
      const { participant, actorId } = await participantOf(request, reply, request.body);
      return {
        success: true as const,
        data: await wearables.revoke(participant.id, actorId),
        message: WEARABLE_SERVER_MESSAGES.revoked,
      };
    },
  });

  route(app, wearablesApi.getWearableStatus, {
    ...publicLimit,
    handler: async (request, reply) => {
      const caller = await participantOf(request, reply, {
        participantId: request.params.id,
        ...request.query,
      });
      const data = await wearables.status(caller.participant.id);
      // A researcher's look at a participant's connection; the participant's own is not recorded.
      if (caller.via === 'researcher')
        await recordRead(app.platform.db, request, {
          studyId: caller.participant.studyId,
          action: 'wearable.status_viewed',
          targetType: 'participant',
          targetId: caller.participant.id,
        });
      return { success: true as const, data };
    },
  });

  route(app, wearablesApi.verifyParticipant, {
    ...publicLimit,
    handler: async (request) => {
      const found = await app.services.verification.studyCodeOf(request.body);
      if (!found)
        throw new AppError(404, 'PARTICIPANT_MISMATCH', REAUTH_MESSAGES.verificationFailed);
      return {
        success: true as const,
        data: {
          participantId: found.participantId,
          participantEmail: found.email,
          studyCode: found.studyCode,
        },
      };
    },
  });

  route(app, wearablesApi.listWearableAuthorizations, {
    preHandler: requireStudyMember,
    handler: async (request) => {
      const studyId = studyAccessOf(request).study.id;
      const page = await wearables.listForStudy(studyId, request.query);
      await recordRead(app.platform.db, request, {
        studyId,
        action: 'wearable.authorizations_listed',
        targetType: 'study',
        targetId: studyId,
        details: { offset: request.query.offset ?? 0, shown: page.authorizations.length },
      });
      return { success: true as const, ...page };
    },
  });
};
