/**
 * Electronic consent (see docs/product.md#electronic-consent): the study's consent form in
 * versions, participants' signatures and withdrawals.
 */

import { z } from 'zod';
import { CONSENT_LIMITS } from '../constants.js';
import { CONSENT_MESSAGES } from '../texts/consent.js';
import { successSchema } from './errors.js';

export const consentStatementsSchema = z
  .array(
    z
      .string()
      .trim()
      .min(1, CONSENT_MESSAGES.statementEmpty)
      .max(CONSENT_LIMITS.statementMaxChars, CONSENT_MESSAGES.statementTooLong),
  )
  .max(CONSENT_LIMITS.maxStatements, CONSENT_MESSAGES.tooManyStatements);

/** The owner's draft written in Markdown (PUT), replacing any draft. */
export const saveConsentDraftBodySchema = z.object({
  markdown: z
    .string()
    .max(CONSENT_LIMITS.markdownMaxChars, CONSENT_MESSAGES.markdownTooLong)
    .refine((text) => text.trim().length > 0, CONSENT_MESSAGES.formEmpty),
  statements: consentStatementsSchema.default([]),
});

/** The fields sent with an uploaded PDF form: the statements as a JSON list. */
export const consentPdfFieldsSchema = z.object({
  statements: z
    .string()
    .max(20_000)
    .default('[]')
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: CONSENT_MESSAGES.statementEmpty });
        return z.NEVER;
      }
    })
    .pipe(consentStatementsSchema),
});

export const publishConsentBodySchema = z.object({
  /** Existing participants must sign this version before anything more is collected. */
  reconsentRequired: z.boolean(),
});

export const CONSENT_FORM_KINDS = ['markdown', 'pdf'] as const;

const consentVersionSchema = z.object({
  id: z.string(),
  /** Null for the draft. */
  number: z.number().int().nullable(),
  kind: z.enum(CONSENT_FORM_KINDS),
  markdown: z.string().nullable(),
  pdfName: z.string().nullable(),
  statements: z.array(z.string()),
  /** SHA-256 (hex) of the form: the Markdown text as UTF-8, or the PDF's bytes. */
  sha256: z.string(),
  reconsentRequired: z.boolean(),
  createdAt: z.string(),
  publishedAt: z.string().nullable(),
  signatureCount: z.number().int(),
});
export type ConsentVersion = z.infer<typeof consentVersionSchema>;

export const consentOverviewResponseSchema = successSchema({
  consentRequired: z.boolean(),
  withdrawalData: z.enum(['keep', 'delete']),
  draft: consentVersionSchema.nullable(),
  /** Newest first. */
  versions: z.array(consentVersionSchema),
  /** The lowest version number a participant's signature must have; null with no version. */
  requiredNumber: z.number().int().nullable(),
});
export type ConsentOverview = z.infer<typeof consentOverviewResponseSchema>;

export const consentDraftResponseSchema = successSchema({
  draft: consentVersionSchema,
  message: z.string(),
});
export const consentPublishResponseSchema = successSchema({
  version: consentVersionSchema,
  message: z.string(),
});

export const CONSENT_STATES = [
  'not-required',
  'unavailable',
  'pending',
  'signed',
  'withdrawn',
] as const;
export type ConsentState = (typeof CONSENT_STATES)[number];

const consentSignatureSchema = z.object({
  id: z.string(),
  participantId: z.string(),
  versionId: z.string(),
  versionNumber: z.number().int(),
  sha256: z.string(),
  fullName: z.string(),
  statements: z.array(z.string()),
  signedAt: z.string(),
  ip: z.string().nullable(),
});
export type ConsentSignature = z.infer<typeof consentSignatureSchema>;

export const consentParticipantStateSchema = z.object({
  participantId: z.string(),
  state: z.enum(['pending', 'withdrawn']),
});

export const consentSignaturesResponseSchema = successSchema({
  /** Newest first. */
  signatures: z.array(consentSignatureSchema),
  /** Live participants whose data is held back, and why (everyone else may be fetched). */
  heldBack: z.array(consentParticipantStateSchema),
});
export type ConsentSignaturesResponse = z.infer<typeof consentSignaturesResponseSchema>;

export const consentVersionParamsSchema = z.object({
  id: z.string().max(100),
  versionId: z.string().max(100),
});
export const consentSignatureParamsSchema = z.object({
  id: z.string().max(100),
  signatureId: z.string().max(100),
});
export const consentWithdrawalParamsSchema = z.object({
  id: z.string().max(100),
  participantId: z.string().max(100),
});

/** What the participant's consent step reads. */
export const participantConsentResponseSchema = successSchema({
  state: z.enum(CONSENT_STATES),
  studyName: z.string(),
  /** The version in force (to read and sign, or signed). */
  version: z
    .object({
      id: z.string(),
      number: z.number().int(),
      kind: z.enum(CONSENT_FORM_KINDS),
      markdown: z.string().nullable(),
      pdfName: z.string().nullable(),
      statements: z.array(z.string()),
      sha256: z.string(),
    })
    .nullable(),
  /** A participant who signed an earlier version and must sign this one. */
  reconsent: z.boolean(),
  /** Their latest signature, if any. */
  signature: z
    .object({ id: z.string(), versionNumber: z.number().int(), signedAt: z.string() })
    .nullable(),
});
export type ParticipantConsent = z.infer<typeof participantConsentResponseSchema>;

export const signConsentBodySchema = z.object({
  versionId: z.string().max(100),
  /** The statements ticked, as listed: they must be every statement of the version. */
  statements: z
    .array(z.string().max(CONSENT_LIMITS.statementMaxChars))
    .max(CONSENT_LIMITS.maxStatements),
  fullName: z
    .string({ error: CONSENT_MESSAGES.fullNameRequired })
    .trim()
    .min(1, { error: CONSENT_MESSAGES.fullNameRequired, abort: true })
    .max(CONSENT_LIMITS.fullNameMaxChars, CONSENT_MESSAGES.fullNameTooLong),
});

export const signConsentResponseSchema = successSchema({
  signature: z.object({ id: z.string(), versionNumber: z.number().int(), signedAt: z.string() }),
  message: z.string(),
});

export const consentCopyLinkQuerySchema = z.object({
  signature: z.string().max(100),
  expires: z.coerce.number().int(),
  token: z.string().max(200),
});

export const withdrawBodySchema = z.object({
  /** The page asked for a confirmation. */
  confirm: z.literal(true),
});
