/**
 * Researcher applications and the master's administration.
 */

import { z } from 'zod';
import { NAME_MAX_LENGTH } from '../constants.js';
import { isAccountPhone, storedPhone } from '../phone.js';
import { APPLICATION_MESSAGES } from '../texts/messages.js';
import {
  applicationStatusSchema,
  emailSchema,
  isoDateSchema,
  textSchema,
  textSchemaWith,
} from './common.js';
import { component } from './component.js';
import { successSchema } from './errors.js';

const TEXT_FIELD_MAX = 200;
const DESCRIPTION_MAX = 2000;
export const REVIEW_NOTES_MAX = 2000;

const required = (label: string, max: number) =>
  textSchemaWith(`${label} is required`)
    .trim()
    .min(1, { error: `${label} is required`, abort: true })
    .max(max, `${label} is too long (max ${max} characters)`);

const optionalText = (label: string, max: number) =>
  textSchema.trim().max(max, `${label} is too long (max ${max} characters)`).optional();

/** The researcher registration form; the same rules in the browser and on the server. */
export const researcherApplicationSchema = z.object({
  firstName: required('First name', NAME_MAX_LENGTH),
  lastName: required('Last name', NAME_MAX_LENGTH),
  email: emailSchema,
  dateOfBirth: isoDateSchema,
  phoneNumber: textSchemaWith('Phone number is required')
    .trim()
    .min(1, { error: 'Phone number is required', abort: true })
    .refine(isAccountPhone, 'Phone number must have 10 digits')
    // Stored in E.164 like every phone; shown with displayPhone.
    .transform((phone) => storedPhone(phone) ?? phone),
  institution: required('Institution', TEXT_FIELD_MAX),
  position: required('Position', TEXT_FIELD_MAX),
  department: optionalText('Department', TEXT_FIELD_MAX),
  researchArea: optionalText('Research area', TEXT_FIELD_MAX),
  description: optionalText('Description', DESCRIPTION_MAX),
});
export type ResearcherApplicationInput = z.infer<typeof researcherApplicationSchema>;

const verificationDocumentSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Bytes. */
  size: z.number().int(),
  type: z.string(),
  uploadedAt: z.string(),
});
export type VerificationDocument = z.infer<typeof verificationDocumentSchema>;

const researcherApplicationViewSchema = component(
  'ResearcherApplication',
  z.object({
    id: z.string(),
    userId: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    dateOfBirth: z.string(),
    phoneNumber: z.string(),
    institution: z.string(),
    position: z.string(),
    department: z.string().nullable(),
    researchArea: z.string().nullable(),
    description: z.string().nullable(),
    status: applicationStatusSchema,
    submittedAt: z.string(),
    reviewedAt: z.string().nullable(),
    reviewNotes: z.string().nullable(),
    verificationDocuments: z.array(verificationDocumentSchema),
  }),
);
export type ResearcherApplicationView = z.infer<typeof researcherApplicationViewSchema>;

export const submitApplicationResponseSchema = successSchema({ applicationId: z.string() });

/** GET /api/auth/application-status: the signed-in user's current application, if any. */
export const applicationStatusResponseSchema = successSchema({
  application: researcherApplicationViewSchema.nullable(),
});

/**
 * GET /api/auth/previous-application: what the signed-in user's latest rejected application said
 * (still live, or archived by a resubmission or a master's reset), so a new application starts
 * from every field they gave; null when there is none. Only ever the caller's own.
 */
const previousApplicationSchema = researcherApplicationViewSchema.pick({
  firstName: true,
  lastName: true,
  dateOfBirth: true,
  phoneNumber: true,
  institution: true,
  position: true,
  department: true,
  researchArea: true,
  description: true,
});
export type PreviousApplication = z.infer<typeof previousApplicationSchema>;
export const previousApplicationResponseSchema = successSchema({
  application: previousApplicationSchema.nullable(),
});

const listQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

export const applicationListQuerySchema = listQuerySchema.extend({
  status: applicationStatusSchema.optional(),
  email: emailSchema.optional(),
});

export const applicationListResponseSchema = successSchema({
  applications: z.array(researcherApplicationViewSchema),
  totalCount: z.number().int(),
});

const researcherSchema = component(
  'Researcher',
  z.object({
    id: z.string(),
    applicationId: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    institution: z.string(),
    department: z.string().nullable(),
    position: z.string(),
    researchArea: z.string().nullable(),
    status: applicationStatusSchema,
    approvedAt: z.string().nullable(),
    lastLoginAt: z.string().nullable(),
  }),
);
export type Researcher = z.infer<typeof researcherSchema>;

export const researcherListQuerySchema = listQuerySchema.extend({
  status: z.enum(['all', 'approved']).default('all'),
});

export const researcherListResponseSchema = successSchema({
  researchers: z.array(researcherSchema),
  totalCount: z.number().int(),
});

export const approveApplicationSchema = z.object({
  reviewNotes: textSchema
    .trim()
    .max(REVIEW_NOTES_MAX, `Approval notes are too long (max ${REVIEW_NOTES_MAX} characters)`)
    .optional(),
});

export const reviewApplicationSchema = z.object({
  action: z.literal('reject'),
  reviewNotes: textSchemaWith(APPLICATION_MESSAGES.rejectionReasonRequiredOnReject)
    .trim()
    .min(1, { error: APPLICATION_MESSAGES.rejectionReasonRequiredOnReject, abort: true })
    .max(REVIEW_NOTES_MAX, `Rejection reason is too long (max ${REVIEW_NOTES_MAX} characters)`),
});

export const applicationIdParamsSchema = z.object({ id: z.uuid('Unknown application') });
export const documentParamsSchema = z.object({
  id: z.uuid('Unknown application'),
  documentId: z.uuid('Unknown document'),
});
