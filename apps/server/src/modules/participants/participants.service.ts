import { createEnrolledOperations } from './participants-enrolled.js';
import { createMemberOperations } from './participants-members.js';
import { createRosterOperations } from './participants-roster.js';
import type { ParticipantsDeps } from './participants-shared.js';

export { rosterDuplicatesInFile } from './participants-roster.js';
export type { Actor, ParticipantAccess, ParticipantsDeps } from './participants-shared.js';

/**
 * Participants of a study and the people around them: the enrolled participants (details,
 * documents, changes), the roster of people added before they enrol, and the study's team.
 * Each part is its own file; the service is their union.
 */
export function createParticipantsService(deps: ParticipantsDeps) {
  return {
    ...createEnrolledOperations(deps),
    ...createRosterOperations(deps),
    ...createMemberOperations(deps),
  };
}

export type ParticipantsService = ReturnType<typeof createParticipantsService>;
