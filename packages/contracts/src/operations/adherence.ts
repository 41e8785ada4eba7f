/**
 * Adherence and charts, read from the study dataset's ledger: the heat map of a study, a
 * participant's daily charts and one day's heart rate; a member's daily digest choice; and the
 * participant's public link that stops their reminders.
 */

import {
  adherenceQuerySchema,
  adherenceResponseSchema,
  digestPreferenceResponseSchema,
  digestPreferenceSchema,
  heartRateDayQuerySchema,
  heartRateDayResponseSchema,
  participantChartsQuerySchema,
  participantChartsResponseSchema,
  stopRemindersSchema,
} from '../schemas/adherence.js';
import { messageResponseSchema } from '../schemas/auth.js';
import { studyIdParamsSchema } from '../schemas/studies.js';
import { participantParamsSchema } from '../schemas/study-lists.js';
import { defineOperation, type ErrorMap } from './operation.js';
import { MEMBER_ERRORS, RESEARCHER_ERRORS } from './roles.js';

const tags = ['adherence'] as const;

/** A range longer than the maximum, or ending before it starts. */
const RANGE_ERRORS = { 400: ['RANGE_TOO_LONG'] } as const satisfies ErrorMap;

/** As every `/api/participants/:participantId` route: non-members learn nothing (404). */
const PARTICIPANT_ERRORS = [
  RESEARCHER_ERRORS,
  { 404: ['PARTICIPANT_NOT_FOUND'] },
] as const satisfies readonly ErrorMap[];

export const getAdherence = defineOperation({
  method: 'GET',
  path: '/api/studies/:id/adherence',
  summary:
    'The heat map: every participant × day in the range (default the last 28 days), each day’s state, wear minutes, steps and the ledger’s reason; per participant last sync, battery, valid days under the study’s rule and the risk flag; a summary line (members only)',
  tags,
  auth: 'bearer',
  params: studyIdParamsSchema,
  query: adherenceQuerySchema,
  response: adherenceResponseSchema,
  errors: [MEMBER_ERRORS, RANGE_ERRORS],
});

export const getParticipantCharts = defineOperation({
  method: 'GET',
  path: '/api/participants/:participantId/charts',
  summary:
    'A participant’s days in the range (default the last 28): steps, resting heart rate, sleep by stage, wear minutes (members of the participant’s study only)',
  tags,
  auth: 'bearer',
  params: participantParamsSchema,
  query: participantChartsQuerySchema,
  response: participantChartsResponseSchema,
  errors: [...PARTICIPANT_ERRORS, RANGE_ERRORS],
});

export const getHeartRateDay = defineOperation({
  method: 'GET',
  path: '/api/participants/:participantId/heart-rate',
  summary:
    'One civil day of the participant’s heart rate in their time zone, downsampled on the server to at most 2,000 points with LTTB (members of the participant’s study only)',
  tags,
  auth: 'bearer',
  params: participantParamsSchema,
  query: heartRateDayQuerySchema,
  response: heartRateDayResponseSchema,
  errors: PARTICIPANT_ERRORS,
});

export const getDigestPreference = defineOperation({
  method: 'GET',
  path: '/api/studies/:id/digest',
  summary: 'Whether the caller gets the study’s daily adherence digest (members only)',
  tags,
  auth: 'bearer',
  params: studyIdParamsSchema,
  response: digestPreferenceResponseSchema,
  errors: MEMBER_ERRORS,
});

export const setDigestPreference = defineOperation({
  method: 'PUT',
  path: '/api/studies/:id/digest',
  summary: 'The caller’s own choice of the daily adherence digest (members only)',
  tags,
  auth: 'bearer',
  params: studyIdParamsSchema,
  body: digestPreferenceSchema,
  response: digestPreferenceResponseSchema,
  errors: MEMBER_ERRORS,
});

export const stopReminders = defineOperation({
  method: 'POST',
  path: '/api/participant/reminders/stop',
  summary:
    'The stop link of a participant’s sync reminders: no more reminders for that participant (idempotent)',
  tags,
  auth: 'public',
  body: stopRemindersSchema,
  response: messageResponseSchema,
  errors: { 400: ['REMINDER_LINK_INVALID'] },
});
