/**
 * Mail from the study screen: participant and collaborator invitations, contact
 * mail, and the study's mailing history. Sends name the study by code; the server resolves it and
 * the caller's membership (404 unknown code, 403 not a member).
 */

import { INVITATION_REPEAT_LIMITS } from '../constants.js';
import { studyIdAltParamsSchema } from '../schemas/studies.js';
import {
  collaboratorInvitationResponseSchema,
  EMAIL_DETAILS_RECIPIENTS_MAX,
  emailDetailsParamsSchema,
  emailDetailsResponseSchema,
  emailHistoryResponseSchema,
  emailSendResponseSchema,
  invitationResponseSchema,
  sendCollaboratorInvitationsSchema,
  sendContactEmailSchema,
  sendInvitationsSchema,
} from '../schemas/study-email.js';
import { emailHistoryQuerySchema } from '../schemas/study-lists.js';
import { defineOperation } from './operation.js';
import { MEMBER_ERRORS } from './roles.js';

const tags = ['email'] as const;

export const sendInvitations = defineOperation({
  method: 'POST',
  path: '/api/email/invitations',
  summary: `Invite participants by e-mail (members). Every address becomes or stays a pending participant with status invited. The enrol link and code are appended when the body lacks them. An identical invitation (same subject and text) to a recipient within ${INVITATION_REPEAT_LIMITS.windowHours} hours, or one past ${INVITATION_REPEAT_LIMITS.perRecipient} to them in that time, is not sent again: skippedCount counts these, sentCount the mails queued; when all are skipped no mailing is stored (emailId null).`,
  tags,
  auth: 'bearer',
  body: sendInvitationsSchema,
  response: invitationResponseSchema,
  errors: MEMBER_ERRORS,
});

export const sendCollaboratorInvitations = defineOperation({
  method: 'POST',
  path: '/api/email/collaborator-invitations',
  summary:
    'Invite collaborators by e-mail (members). The server adds the study code, password and the dashboard join link. Members already in the study are told they have access, counted in alreadyMembers and kept out of the mailing: sentCount is the mailing’s size, and when everyone is a member no mailing is stored (emailId null). Repeats are skipped as for participant invitations (skippedCount).',
  tags,
  auth: 'bearer',
  body: sendCollaboratorInvitationsSchema,
  response: collaboratorInvitationResponseSchema,
  errors: MEMBER_ERRORS,
});

export const sendContactEmail = defineOperation({
  method: 'POST',
  path: '/api/email/contact',
  summary:
    'E-mail chosen participants (audience participants) or study members (audience collaborators). Every address must belong to the study: audience participants takes its participants, pending participants and members, audience collaborators its members only; any other address answers 400 and nothing is sent.',
  tags,
  auth: 'bearer',
  body: sendContactEmailSchema,
  response: emailSendResponseSchema,
  // BAD_REQUEST (a transport code): no recipient left once repeats are dropped.
  errors: [MEMBER_ERRORS, { 400: ['NOT_A_MEMBER_RECIPIENT', 'NOT_A_STUDY_RECIPIENT'] }],
});

export const getEmailHistory = defineOperation({
  method: 'GET',
  path: '/api/email/history/:studyId',
  summary:
    'Mailings of a study, newest first: subject, kind, recipient count, delivery counts and sent time (no body, no recipients)',
  tags,
  auth: 'bearer',
  params: studyIdAltParamsSchema,
  query: emailHistoryQuerySchema,
  response: emailHistoryResponseSchema,
  errors: MEMBER_ERRORS,
});

export const getEmailDetails = defineOperation({
  method: 'GET',
  path: '/api/email/history/:studyId/:emailId',
  summary: `One mailing of the study (members): subject, full body, delivery counts and the first ${EMAIL_DETAILS_RECIPIENTS_MAX} recipients by address with their delivery status (queued, sent, failed); sentCount is the full number. A mailing of another study answers 404.`,
  tags,
  auth: 'bearer',
  params: emailDetailsParamsSchema,
  response: emailDetailsResponseSchema,
  errors: [MEMBER_ERRORS, { 404: ['EMAIL_NOT_FOUND'] }],
});
