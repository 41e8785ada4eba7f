/**
 * Studies, collaboration and per-study storage (see docs/product.md#researcher-flow).
 */

import { z } from 'zod';
import { DEFAULT_STUDY_SETTINGS, MIN_PASSWORD_LENGTH, WITHDRAWAL_DATA } from '../constants.js';
import { STUDY_MESSAGES } from '../texts/messages.js';
import { emailSchema, studyCodeSchema } from './common.js';
import { component } from './component.js';
import { successSchema } from './errors.js';

const STUDY_NAME_MAX = 200;
const STUDY_DESCRIPTION_MAX = 5000;
const STUDY_DURATION_MAX = 100;
const STUDY_PASSWORD_MAX = 128;
const MAX_COLLABORATORS_AT_CREATION = 20;
const NOTIFY_MESSAGE_MAX = 2000;

const studyName = z
  .string({ error: STUDY_MESSAGES.nameRequired })
  .trim()
  .min(1, { error: STUDY_MESSAGES.nameRequired, abort: true })
  .max(STUDY_NAME_MAX, `Study name is too long (max ${STUDY_NAME_MAX} characters)`);
const description = z
  .string()
  .trim()
  .max(STUDY_DESCRIPTION_MAX, `Description is too long (max ${STUDY_DESCRIPTION_MAX} characters)`);
const duration = z
  .string()
  .trim()
  .max(STUDY_DURATION_MAX, `Duration is too long (max ${STUDY_DURATION_MAX} characters)`);
const studyPassword = z
  .string()
  .min(MIN_PASSWORD_LENGTH, STUDY_MESSAGES.passwordTooShort)
  .max(STUDY_PASSWORD_MAX, `Password is too long (max ${STUDY_PASSWORD_MAX} characters)`);

/** Adherence rules (see docs/product.md#adherence). */
const validDayMinHours = z.number().int().min(1).max(24);
const noSyncDays = z.number().int().min(1).max(30);

const studySettingsSchema = z.object({
  allowSelfEnrollment: z.boolean().default(DEFAULT_STUDY_SETTINGS.allowSelfEnrollment),
  requireVerification: z.boolean().default(DEFAULT_STUDY_SETTINGS.requireVerification),
  dataRetentionDays: z
    .number()
    .int()
    .min(1)
    .max(36500)
    .default(DEFAULT_STUDY_SETTINGS.dataRetentionDays),
  /** Studies created before the setting existed read as keep (false). */
  removeDataDeletedAtSource: z.boolean().default(DEFAULT_STUDY_SETTINGS.removeDataDeletedAtSource),
  validDayMinHours: validDayMinHours.default(DEFAULT_STUDY_SETTINGS.validDayMinHours),
  riskNoSyncDays: noSyncDays.default(DEFAULT_STUDY_SETTINGS.riskNoSyncDays),
  reminderNoSyncDays: noSyncDays.nullable().default(DEFAULT_STUDY_SETTINGS.reminderNoSyncDays),
  /** Consent (see docs/product.md#electronic-consent); studies made before it read as off. */
  consentRequired: z.boolean().default(DEFAULT_STUDY_SETTINGS.consentRequired),
  withdrawalData: z.enum(WITHDRAWAL_DATA).default(DEFAULT_STUDY_SETTINGS.withdrawalData),
});
export type StudySettings = z.infer<typeof studySettingsSchema>;

/** What the create-study dialog sends. Empty optional strings are sent as absent by the form. */
export const createStudySchema = z.object({
  name: studyName,
  description: description.optional(),
  duration: duration.optional(),
  password: studyPassword.optional(),
  collaborators: z
    .array(emailSchema)
    .max(
      MAX_COLLABORATORS_AT_CREATION,
      `At most ${MAX_COLLABORATORS_AT_CREATION} collaborators can be invited at once`,
    )
    .default([]),
  settings: studySettingsSchema.default(DEFAULT_STUDY_SETTINGS),
});
export type CreateStudyInput = z.input<typeof createStudySchema>;

/**
 * Update: any of name, description, duration; a new `password` needs `currentPassword` when the
 * study has one (checked on the server against the stored one).
 */
export const updateStudySchema = z.object({
  name: studyName.optional(),
  description: description.optional(),
  duration: duration.optional(),
  password: z
    .string()
    .min(MIN_PASSWORD_LENGTH, STUDY_MESSAGES.newPasswordTooShort)
    .max(STUDY_PASSWORD_MAX, `Password is too long (max ${STUDY_PASSWORD_MAX} characters)`)
    .optional(),
  currentPassword: z.string().max(STUDY_PASSWORD_MAX).optional(),
  /** Owner only, like every change here; the fields given replace the stored ones. */
  settings: z
    .object({
      allowSelfEnrollment: z.boolean().optional(),
      requireVerification: z.boolean().optional(),
      dataRetentionDays: z.number().int().min(1).max(36500).optional(),
      removeDataDeletedAtSource: z.boolean().optional(),
      validDayMinHours: validDayMinHours.optional(),
      riskNoSyncDays: noSyncDays.optional(),
      reminderNoSyncDays: noSyncDays.nullable().optional(),
      consentRequired: z.boolean().optional(),
      withdrawalData: z.enum(WITHDRAWAL_DATA).optional(),
    })
    .optional(),
});
export type UpdateStudyInput = z.infer<typeof updateStudySchema>;

export const joinStudySchema = z.object({
  studyCode: z
    .string()
    .trim()
    .min(1, { error: STUDY_MESSAGES.joinFieldsRequired, abort: true })
    .max(16, STUDY_MESSAGES.joinFailed),
  password: z
    .string()
    .min(1, STUDY_MESSAGES.joinFieldsRequired)
    .max(STUDY_PASSWORD_MAX, STUDY_MESSAGES.joinFailed),
});

export const studyRoleSchema = z.enum(['main', 'collab']);

/**
 * A study as the dashboard lists it. `password` is present for the owner only; `hasPassword`
 * tells every member whether one is set (so a first one is set without a current one) and is
 * all a list ever says about it.
 */
const studySchema = component(
  'Study',
  z.object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    duration: z.string().nullable(),
    studyCode: z.string(),
    status: z.string(),
    participantCount: z.number().int(),
    createdAt: z.string(),
    role: studyRoleSchema,
    ownerName: z.string(),
    password: z.string().nullable().optional(),
    hasPassword: z.boolean(),
    collaborators: z.array(z.string()),
    settings: studySettingsSchema,
  }),
);
export type Study = z.infer<typeof studySchema>;

/** Cards per dashboard page; the grid loads more on demand. */
export const STUDY_PAGE_SIZE = 24;

export const studyListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(STUDY_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).default(0),
});

export const studyListResponseSchema = successSchema({
  data: z.array(studySchema),
  totalCount: z.number().int(),
});
export const studyResponseSchema = successSchema({
  study: studySchema,
  message: z.string().optional(),
  /** Join only: true when the caller was a collaborator already (no 'Study Joined'). */
  alreadyMember: z.boolean().optional(),
});
/** Any id is accepted here: one that names no study is a 404, like a deleted study. */
export const studyIdParamsSchema = z.object({ id: z.string().max(100) });
export const studyIdAltParamsSchema = z.object({ studyId: z.string().max(100) });

/**
 * Public: POST /api/auth/verify-study-code (what a participant sees of a study before enrolling).
 */
export const verifyStudyCodeSchema = z.object({ studyCode: studyCodeSchema });
const studyLookupSchema = z.object({
  studyName: z.string(),
  studyDescription: z.string().nullable(),
  studyCode: z.string(),
  researcherName: z.string(),
});
export const verifyStudyCodeResponseSchema = successSchema({ study: studyLookupSchema });

/** Public: a participant writes to the study's owner. */
export const notifyResearcherSchema = z.object({
  studyCode: studyCodeSchema,
  participantEmail: emailSchema,
  message: z
    .string()
    .trim()
    .min(1, { error: 'Message is required', abort: true })
    .max(NOTIFY_MESSAGE_MAX, `Message is too long (max ${NOTIFY_MESSAGE_MAX} characters)`),
});

export const bucketUrlResponseSchema = successSchema({
  signedUrl: z.string(),
  message: z.string(),
});
