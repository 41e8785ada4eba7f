/**
 * Roster reads and writes another module makes inside its own transaction (the study mailing
 * invites people and puts them on the roster in one step).
 */

export { liveContactsOf, type ParticipantContact } from './participant-contacts.js';
/**
 * The participant rows of the participant side (enrolment, profile, documents, verification,
 * the operator's add-participant, the wearable grant's time), taking the caller's transaction.
 */
export {
  type DocumentRow,
  findLiveParticipantByEmail,
  findLiveParticipantInStudy,
  findParticipantAnyStudy,
  findPendingByEmail,
  insertParticipant,
  insertParticipantDocuments,
  insertParticipantRow,
  linkPendingToParticipant,
  liveParticipantIdByAddress,
  markParticipantAuthorized,
  markParticipantWithdrawn,
  type ParticipantRow,
  type PendingRow,
  participantDocumentsOf,
  participantIdTaken,
  updateParticipantInfo,
} from './participant-records.repository.js';
export {
  existingParticipantEmails,
  existingPendingEmails,
  insertPending,
  markInvited,
  studiesOfLiveParticipants,
} from './participants.repository.js';
export { participantsRoutes as routes } from './participants.routes.js';
export { createParticipantsService, type ParticipantsService } from './participants.service.js';
export {
  liveParticipantsFingerprint,
  liveParticipantsOfStudy,
} from './participants-enrolled.repository.js';
