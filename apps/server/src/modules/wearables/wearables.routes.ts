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
import { perMinute } from '../../http/responses.js';
import { bearerToken, currentUser } from '../auth/authenticate.js';
import { participantSessionToken } from '../enrolment/participant-session.js';
import {
  requireApprovedResearcher,
  requireStudyMember,
  studyAccessOf,
} from '../studies/study-access.js';
import type { ParticipantRef } from './wearables.service.js';

type CallerPath = 'researcher' | 'session' | 'public';

/**
 * Who may act on a participant's wearable connection:
 * - a researcher who is a member (owner or collaborator) of the participant's study, with a
 *   bearer token; any other researcher gets the same 404 as for an unknown participant;
 * - the participant with the session the enrolment issues (after verification, or at once when
 *   the study does not require it), bound to study and participant;
 * - the participant without a session, through the public path bound to (participant id,
 *   e-mail, study code). That proves nothing about the caller: auth-url then only renews an
 *   existing connection, with its own Google account (see the service's reauthorizationUrl).
 * Every call without a bearer token names the study code.
 */
async function resolveCaller(
  request: FastifyRequest,
  reply: FastifyReply,
  input: { participantId: string; studyCode?: string | undefined; email?: string | undefined },
): Promise<{ participant: ParticipantRef; actorId: string | null; via: CallerPath }> {
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
  // The participant session of the enrolment flows: bound to study and participant.
  const sessionToken = participantSessionToken(request);
  if (sessionToken) {
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
  if (!input.email) throw new AppError(401, 'UNAUTHENTICATED', REAUTH_MESSAGES.emailRequired);
  const participant = await wearables.resolvePublicParticipant({
    participantId: input.participantId,
    studyCode: studyCodeOf(),
    email: input.email,
  });
  return { participant, actorId: null, via: 'public' };
}

export const wearablesRoutes: FastifyPluginAsync = async (app) => {
  const wearables = app.services.wearables;
  // Public calls are guessable: a tight per-address budget on top of the global one.
  const publicLimit = { config: perMinute(20) };

  route(app, wearablesApi.getAuthUrl, {
    ...publicLimit,
    handler: async (request, reply) => {
      const { participant, via } = await resolveCaller(request, reply, request.query);
      const options = { mode: request.query.mode, clientBinding: request.query.clientBinding };
      const result =
        via === 'public'
          ? await wearables.reauthorizationUrl(participant, options)
          : await wearables.authorizationUrl(participant, options);
      return { success: true as const, ...result };
    },
  });

  route(app, wearablesApi.completeCallback, {
    ...publicLimit,
    handler: async (request) => {
      const result = await wearables.completeDirect(request.body);
      // Back from the provider, the browser continues with the profile: it needs a session.
      // Reached only when the state allowed this account (a reauthorization without a session
      // is refused above for any Google account but the connected one).
      const session = await app.services.verification.sessionForParticipant(result.participantId);
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
      const result = await wearables.completePkce(request.body);
      const session = await app.services.verification.sessionForParticipant(result.participantId);
      return { success: true as const, ...result, ...(session ? { session } : {}) };
    },
  });

  route(app, wearablesApi.storeTokens, {
    ...publicLimit,
    handler: async (request) => ({
      success: true as const,
      ...(await wearables.confirmStored({
        participantId: request.body.participantId,
        studyCode: request.body.participantCode,
        healthUserId:
          request.body.participantInfo.fitbitUserId ?? request.body.participantInfo.userId,
      })),
    }),
  });

  route(app, wearablesApi.refreshToken, {
    ...publicLimit,
    handler: async (request, reply) => {
      const { participant } = await resolveCaller(request, reply, request.body);
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
      const { participant, actorId } = await resolveCaller(request, reply, request.body);
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
      const { participant } = await resolveCaller(request, reply, {
        participantId: request.params.id,
        ...request.query,
      });
      return { success: true as const, data: await wearables.status(participant.id) };
    },
  });

  route(app, wearablesApi.verifyParticipant, {
    ...publicLimit,
    handler: async (request) => ({
      success: true as const,
      data: await wearables.verifyParticipant(request.body),
    }),
  });

  route(app, wearablesApi.listWearableAuthorizations, {
    preHandler: requireStudyMember,
    handler: async (request) => ({
      success: true as const,
      ...(await wearables.listForStudy(studyAccessOf(request).study.id, request.query)),
    }),
  });
};
