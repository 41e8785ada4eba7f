/**
 * Participants of a study as its members see them: the participant and pending lists,
 * a participant's details, documents, edits and deletion, the roster, members and tab counts.
 */

import { messageResponseSchema } from '../schemas/auth.js';
import { studyIdParamsSchema } from '../schemas/studies.js';
import {
  participantDocumentParamsSchema,
  participantListQuerySchema,
  participantParamsSchema,
  pendingParticipantListQuerySchema,
  pendingParticipantParamsSchema,
  studyMemberParamsSchema,
} from '../schemas/study-lists.js';
import { memberListResponseSchema, studyStatsResponseSchema } from '../schemas/study-members.js';
import {
  participantInfoResponseSchema,
  participantListResponseSchema,
  updateParticipantSchema,
} from '../schemas/study-participants.js';
import {
  addPendingParticipantsSchema,
  pendingParticipantListResponseSchema,
  pendingParticipantResponseSchema,
  ROSTER_MAX_ROWS,
  rosterResultResponseSchema,
  updatePendingParticipantSchema,
} from '../schemas/study-roster.js';
import { defineOperation, type ErrorMap } from './operation.js';
import { MEMBER_ERRORS, RESEARCHER_ERRORS } from './roles.js';

const tags = ['participants'] as const;

/**
 * Routes under `/api/participants/:participantId`: an approved researcher, and the participant
 * found in a study they are a member of (else 404, so non-members learn nothing).
 */
const PARTICIPANT_ERRORS = [
  RESEARCHER_ERRORS,
  { 404: ['PARTICIPANT_NOT_FOUND'] },
] as const satisfies readonly ErrorMap[];

/**
 * Deleting a participant revokes their wearable grant at Google first; the provider's refusal or
 * outage ends the call (nothing is deleted), and a grant revoked meanwhile is NOT_CONNECTED.
 */
const REVOKE_ERRORS = {
  400: ['ACCOUNT_NOT_LINKED', 'PROVIDER_REFUSED'],
  404: ['NOT_CONNECTED'],
  502: ['PROVIDER_ERROR'],
  503: ['PROVIDER_UNAVAILABLE'],
} as const satisfies ErrorMap;

export const listParticipants = defineOperation({
  method: 'GET',
  path: '/api/studies/:id/participants',
  summary: 'Participants of a study, a page at a time, sorted and searched (members only)',
  tags,
  auth: 'bearer',
  tokenAccess: true,
  params: studyIdParamsSchema,
  query: participantListQuerySchema,
  response: participantListResponseSchema,
  errors: MEMBER_ERRORS,
});

export const getParticipantInfo = defineOperation({
  method: 'GET',
  path: '/api/participants/:participantId/info',
  summary: 'Participant details with documents (members of the participant’s study only)',
  tags,
  auth: 'bearer',
  params: participantParamsSchema,
  response: participantInfoResponseSchema,
  errors: PARTICIPANT_ERRORS,
});

export const downloadParticipantDocument = defineOperation({
  method: 'GET',
  path: '/api/participants/:participantId/documents/:documentId',
  summary: 'Download a participant document (members of the participant’s study only)',
  tags,
  auth: 'bearer',
  params: participantDocumentParamsSchema,
  response: 'raw',
  rawResponse: {
    status: 200,
    description: 'The document as uploaded, as an attachment, with its own Content-Type',
    contentTypes: ['*/*'],
  },
  errors: [...PARTICIPANT_ERRORS, { 404: ['DOCUMENT_NOT_FOUND'] }],
});

export const updateParticipant = defineOperation({
  method: 'PUT',
  path: '/api/participants/:participantId',
  summary: 'Edit a participant’s names and e-mail (owner and collaborators)',
  tags,
  auth: 'bearer',
  params: participantParamsSchema,
  body: updateParticipantSchema,
  response: participantInfoResponseSchema,
  errors: [
    ...PARTICIPANT_ERRORS,
    { 400: ['STUDY_CODE_MISMATCH'], 409: ['PARTICIPANT_EMAIL_TAKEN'] },
  ],
});

export const deleteParticipant = defineOperation({
  method: 'DELETE',
  path: '/api/participants/:participantId',
  summary: 'Delete a participant (study owner only; hidden at once, kept for the retention period)',
  tags,
  auth: 'bearer',
  params: participantParamsSchema,
  response: messageResponseSchema,
  errors: [...PARTICIPANT_ERRORS, { 403: ['OWNER_ONLY'] }, REVOKE_ERRORS],
});

export const listPendingParticipants = defineOperation({
  method: 'GET',
  path: '/api/studies/:id/pending-participants',
  summary: 'Pending participants (not yet enrolled), a page at a time (members only)',
  tags,
  auth: 'bearer',
  params: studyIdParamsSchema,
  query: pendingParticipantListQuerySchema,
  response: pendingParticipantListResponseSchema,
  errors: MEMBER_ERRORS,
});

export const addPendingParticipants = defineOperation({
  method: 'POST',
  path: '/api/studies/:id/pending-participants',
  summary:
    'Add pending participants (status pre-enrolled). All rows are checked first; nothing is stored if one is invalid. Duplicates are reported, not added.',
  tags,
  auth: 'bearer',
  params: studyIdParamsSchema,
  body: addPendingParticipantsSchema,
  status: 201,
  response: rosterResultResponseSchema,
  errors: MEMBER_ERRORS,
});

export const updatePendingParticipant = defineOperation({
  method: 'PUT',
  path: '/api/studies/:id/pending-participants/:pendingId',
  summary: 'Change a pending participant’s phone (blank removes it)',
  tags,
  auth: 'bearer',
  params: pendingParticipantParamsSchema,
  body: updatePendingParticipantSchema,
  response: pendingParticipantResponseSchema,
  errors: [MEMBER_ERRORS, { 404: ['PENDING_NOT_FOUND'] }],
});

export const deletePendingParticipant = defineOperation({
  method: 'DELETE',
  path: '/api/studies/:id/pending-participants/:pendingId',
  summary: 'Remove a pending participant',
  tags,
  auth: 'bearer',
  params: pendingParticipantParamsSchema,
  response: messageResponseSchema,
  errors: [MEMBER_ERRORS, { 404: ['PENDING_NOT_FOUND'] }],
});

export const uploadRoster = defineOperation({
  method: 'POST',
  path: '/api/studies/:id/roster',
  summary: `Upload a roster CSV (multipart: csvFile, studyCode, optional dryRun=true, optional intent=add|invite). Columns email/e-mail, phone/phoneNumber, first/last name, matched loosely; "," or ";", BOM and CRLF are fine. The file must be under 5 MB (5,242,880 bytes and more: 413) and hold at most ${ROSTER_MAX_ROWS} rows (400). Every row is checked first and every problem is returned in details.fields; nothing is stored if any row is invalid. Duplicates (in the file, already participants, already pending) are listed in \`duplicates\` and not added. 201 with \`created\`; a dry run answers 200 with the parsed rows in \`participants\` and stores nothing. intent=invite is the invite dialog's check: always a dry run, and addresses already pending stay in \`participants\` (the invitation makes them 'invited'); only participants and repeats are duplicates.`,
  tags,
  auth: 'bearer',
  params: studyIdParamsSchema,
  multipart:
    'csvFile: the roster CSV (under 5 MB); studyCode: the study’s code (optional, checked when sent); dryRun: "true" to check only; intent: "add" (default) or "invite".',
  status: [200, 201],
  response: rosterResultResponseSchema,
  errors: [
    MEMBER_ERRORS,
    {
      400: [
        'BAD_MULTIPART',
        'CSV_READ_FAILED',
        'CSV_FILE_MISSING',
        'CSV_EMPTY',
        'CSV_PARSE_FAILED',
        'CSV_NO_EMAIL_COLUMN',
        'CSV_TOO_MANY_ROWS',
        'STUDY_CODE_MISMATCH',
      ],
      413: ['FILE_TOO_LARGE'],
      415: ['NOT_CSV'],
    },
  ],
});

export const listMembers = defineOperation({
  method: 'GET',
  path: '/api/studies/:id/members',
  summary: 'The study’s main researcher and collaborators (members only)',
  tags,
  auth: 'bearer',
  params: studyIdParamsSchema,
  response: memberListResponseSchema,
  errors: MEMBER_ERRORS,
});

export const removeMember = defineOperation({
  method: 'DELETE',
  path: '/api/studies/:id/members/:userId',
  summary: 'Remove a collaborator (study owner only); their access ends at once',
  tags,
  auth: 'bearer',
  params: studyMemberParamsSchema,
  response: messageResponseSchema,
  errors: [
    MEMBER_ERRORS,
    { 400: ['CANNOT_REMOVE_OWNER'], 403: ['OWNER_ONLY'], 404: ['MEMBER_NOT_FOUND'] },
  ],
});

export const getStudyStats = defineOperation({
  method: 'GET',
  path: '/api/studies/:id/stats',
  summary:
    'Tab counts: participants (live), pendingParticipants (not yet enrolled), members (owner + collaborators), emails (mailings sent), authorizedParticipants (active wearable connection), lastEmailSentAt (newest mailing or null)',
  tags,
  auth: 'bearer',
  params: studyIdParamsSchema,
  response: studyStatsResponseSchema,
  errors: MEMBER_ERRORS,
});
