import type { FastifyPluginAsync } from 'fastify';
import { addParticipantRoute } from './add-participant.js';
import { enrolmentRoutes } from './enrolment.routes.js';
import { verificationRoutes } from './verification.routes.js';

/**
 * How a participant gets into a study and proves who they are: enrolment, verification codes,
 * participant sessions and the limits on these public calls.
 */
export { addParticipant } from './add-participant.js';
export { createEnrolmentService, type EnrolmentService } from './enrolment.service.js';
export { participantSessionToken } from './participant-session.js';
export {
  type Clock,
  createVerificationService,
  e164,
  systemClock,
  type VerificationService,
} from './verification.service.js';
export { type VerifiedChannels, verifiedChannelsOf } from './verified-channels.js';
export { type WearableAuthUrl, wearableAuthUrlFrom } from './wearable-auth-url.js';

export const routes: FastifyPluginAsync = async (app) => {
  await app.register(enrolmentRoutes);
  await app.register(verificationRoutes);
  await app.register(addParticipantRoute);
};
