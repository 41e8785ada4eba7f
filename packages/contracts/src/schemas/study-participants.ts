/**
 * The Participants tab of the study detail screen: the rows it lists, a participant's details and
 * the researcher's edit. Validation failures answer 400 with every field's message in
 * `details.fields` (errors.ts).
 */

import { z } from 'zod';
import { NAME_MAX_LENGTH } from '../constants.js';
import { PARTICIPANT_LIST_MESSAGES, PARTICIPANT_MESSAGES } from '../texts/messages.js';
import { emailSchema } from './common.js';
import { component } from './component.js';
import { collectedDaySchema } from './dataset.js';
import { successSchema } from './errors.js';

const PARTICIPANT_DISPLAY_STATUSES = ['active', 'inactive'] as const;

/**
 * A participant as the Participants tab lists it. Tokens never leave the server: only whether one
 * exists and when it expires. `status` is the stored enrolment status ('enrolled', …);
 * `displayStatus` is the active/inactive status the table shows (`participantDisplayStatus`),
 * computed by the server with the same SQL expression that `sort=status` orders by, so the chips
 * and the order always agree.
 */
const participantRowSchema = component(
  'ParticipantRow',
  z.object({
    id: z.string(),
    participantId: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    participantEmail: z.string(),
    phoneNumber: z.string().nullable(),
    status: z.string(),
    enrolledAt: z.string(),
    authorizationStatus: z.boolean(),
    hasAccessToken: z.boolean(),
    tokenExpiresAt: z.string().nullable(),
    fitbitUserId: z.string().nullable(),
    displayStatus: z.enum(PARTICIPANT_DISPLAY_STATUSES),
    /** The device's last sync as Google last reported it; null while unknown. */
    lastDeviceSyncAt: z.string().nullable(),
    /** The latest day continuous collection stored data for; null while there is none. */
    latestDay: collectedDaySchema.nullable(),
  }),
);
export type ParticipantRow = z.infer<typeof participantRowSchema>;

export const participantListResponseSchema = successSchema({
  participants: z.array(participantRowSchema),
  totalCount: z.number().int(),
});

const participantDocumentSchema = component(
  'ParticipantDocument',
  z.object({
    id: z.string(),
    name: z.string(),
    /** MIME type, e.g. 'application/pdf'. */
    type: z.string(),
    /** Bytes. */
    size: z.number().int(),
    uploadedAt: z.string(),
  }),
);

/** A participant's details, as the researcher's details dialog shows them. */
const participantDetailsSchema = component(
  'ParticipantDetails',
  z.object({
    participantId: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    email: z.string(),
    phoneNumber: z.string().nullable(),
    studyCode: z.string(),
    status: z.string(),
    enrolledAt: z.string(),
    authorizedAt: z.string().nullable(),
    additionalInfo: z.string().nullable(),
    documents: z.array(participantDocumentSchema),
    informationCompleted: z.boolean(),
    informationCompletedAt: z.string().nullable(),
  }),
);
export type ParticipantDetails = z.infer<typeof participantDetailsSchema>;

export const participantInfoResponseSchema = successSchema({
  participant: participantDetailsSchema,
  message: z.string().optional(),
});

/** PUT /api/participants/:participantId. Blank names: 'First name and last name are required'. */
export const updateParticipantSchema = z.object({
  firstName: z
    .string({ error: PARTICIPANT_MESSAGES.namesRequired })
    .trim()
    .min(1, { error: PARTICIPANT_MESSAGES.namesRequired, abort: true })
    .max(NAME_MAX_LENGTH, PARTICIPANT_LIST_MESSAGES.firstNameTooLong),
  lastName: z
    .string({ error: PARTICIPANT_MESSAGES.namesRequired })
    .trim()
    .min(1, { error: PARTICIPANT_MESSAGES.namesRequired, abort: true })
    .max(NAME_MAX_LENGTH, PARTICIPANT_LIST_MESSAGES.lastNameTooLong),
  participantEmail: emailSchema.optional(),
  /** Sent by the seeds' client; when present it must be this participant's study code. */
  studyCode: z.string().trim().max(16).optional(),
});
