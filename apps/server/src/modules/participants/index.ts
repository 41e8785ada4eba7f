/**
 * Roster reads and writes another module makes inside its own transaction (the study mailing
 * invites people and puts them on the roster in one step).
 */
export {
  existingParticipantEmails,
  existingPendingEmails,
  insertPending,
  markInvited,
  studiesOfLiveParticipants,
} from './participants.repository.js';
export { participantsRoutes as routes } from './participants.routes.js';
export { createParticipantsService, type ParticipantsService } from './participants.service.js';
