import { adherenceApi, REMINDER_MESSAGES } from '@research/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/operation-route.js';
import { RATE_LIMITS } from '../../http/rate-limits.js';
import { currentUser } from '../auth/index.js';
import { requireStudyMember, studyAccessOf } from '../studies/index.js';

/** The member's digest choice and the participant's public stop link. */
export const remindersRoutes: FastifyPluginAsync = async (app) => {
  const reminders = app.services.reminders;
  const member = { preHandler: requireStudyMember };

  route(app, adherenceApi.getDigestPreference, {
    ...member,
    handler: async (request) => ({
      success: true as const,
      enabled: await reminders.digestPreference(studyAccessOf(request), currentUser(request).id),
    }),
  });

  route(app, adherenceApi.setDigestPreference, {
    ...member,
    handler: async (request) => ({
      success: true as const,
      enabled: await reminders.setDigestPreference(
        studyAccessOf(request),
        currentUser(request).id,
        request.body.enabled,
      ),
    }),
  });

  // Public like the participant's other calls; the token is 256 random bits, not guessable.
  route(app, adherenceApi.stopReminders, {
    config: RATE_LIMITS.participantAddress,
    handler: async (request) => {
      await reminders.stop(request.body.token);
      return { success: true as const, message: REMINDER_MESSAGES.stopped };
    },
  });
};
