/**
 * Mail from the study detail screen: participant and collaborator invitations, contact mail and
 * the Email History tab. The generated invitation texts are study-invitation-mail.ts.
 */

import { z } from 'zod';
import { isValidOptionalPhone } from '../phone.js';
import { CONTACT_MESSAGES, INVITE_MESSAGES, STUDY_MESSAGES } from '../texts/messages.js';
import { EMAIL_HISTORY_TEXTS } from '../texts/study-detail.js';
import { EMAIL_PATTERN } from '../validators.js';
import { emailSchema, studyCodeSchema } from './common.js';
import { component } from './component.js';
import { successSchema } from './errors.js';
import { invitationBodyProblem } from './study-invitation-mail.js';

/** Addresses one invitation or contact mailing may carry (answered at once, sent by the queue). */
const EMAIL_MAX_RECIPIENTS = 1000;
/** Collaborator invitations per request. */
const COLLABORATOR_INVITE_MAX = 50;
const EMAIL_SUBJECT_MAX = 300;
const EMAIL_BODY_MAX = 20_000;

const emailSubjectSchema = z
  .string({ error: CONTACT_MESSAGES.titleAndContentRequired })
  .trim()
  .min(1, { error: CONTACT_MESSAGES.titleAndContentRequired, abort: true })
  .max(EMAIL_SUBJECT_MAX, `Email title is too long (max ${EMAIL_SUBJECT_MAX} characters)`);
const emailBodySchema = z
  .string({ error: CONTACT_MESSAGES.titleAndContentRequired })
  .trim()
  .min(1, { error: CONTACT_MESSAGES.titleAndContentRequired, abort: true })
  .max(EMAIL_BODY_MAX, `Email content is too long (max ${EMAIL_BODY_MAX} characters)`);
const studyNameField = z
  .string({ error: STUDY_MESSAGES.nameRequired })
  .trim()
  .min(1, { error: STUDY_MESSAGES.nameRequired, abort: true })
  .max(300);

const invitedEmailSchema = z
  .string()
  .trim()
  .min(1, { error: INVITE_MESSAGES.enterEmails, abort: true })
  .regex(EMAIL_PATTERN, INVITE_MESSAGES.validEmails);
const invitedPhoneSchema = z
  .string()
  .trim()
  .refine(isValidOptionalPhone, INVITE_MESSAGES.validPhones)
  .optional();

/** What the participant invitation dialog sends. Every address becomes a pending 'invited' row. */
export const sendInvitationsSchema = z.object({
  studyCode: studyCodeSchema,
  studyName: studyNameField,
  participants: z
    .array(z.object({ email: invitedEmailSchema, phoneNumber: invitedPhoneSchema }))
    .min(1, INVITE_MESSAGES.addAtLeastOne)
    .max(EMAIL_MAX_RECIPIENTS, `At most ${EMAIL_MAX_RECIPIENTS} recipients can be sent at once`),
  emailSubject: emailSubjectSchema,
  emailBody: emailBodySchema.refine((body) => invitationBodyProblem(body) === null, {
    error: INVITE_MESSAGES.studyDescriptionRequired,
  }),
});

/**
 * Collaborator invitations. The browser never sends the study password: the server inserts the
 * code, the password and the join link into the mail. Blank subject/body take the default texts
 * below.
 */
export const sendCollaboratorInvitationsSchema = z.object({
  studyCode: studyCodeSchema,
  studyName: studyNameField,
  recipients: z
    .array(emailSchema)
    .min(1, CONTACT_MESSAGES.selectRecipient)
    .max(
      COLLABORATOR_INVITE_MAX,
      `At most ${COLLABORATOR_INVITE_MAX} recipients can be sent at once`,
    ),
  emailSubject: z.string().trim().max(EMAIL_SUBJECT_MAX).optional(),
  emailBody: z.string().trim().max(EMAIL_BODY_MAX).optional(),
  invitationType: z.literal('collaborator').default('collaborator'),
});

const CONTACT_AUDIENCES = ['participants', 'collaborators'] as const;

/**
 * Contact e-mail to chosen participants or collaborators. Extra typed addresses are fine for
 * participants (kept only when they look like an e-mail); collaborator mail goes to members only.
 */
export const sendContactEmailSchema = z.object({
  studyCode: studyCodeSchema,
  audience: z.enum(CONTACT_AUDIENCES),
  recipients: z
    .array(emailSchema)
    .min(1, CONTACT_MESSAGES.selectRecipient)
    .max(EMAIL_MAX_RECIPIENTS, `At most ${EMAIL_MAX_RECIPIENTS} recipients can be sent at once`),
  emailSubject: emailSubjectSchema,
  emailBody: emailBodySchema,
});

export const emailSendResponseSchema = successSchema({
  message: z.string(),
  emailId: z.string(),
  /** Addresses queued (duplicates in the request count once). */
  sentCount: z.number().int(),
});

/**
 * Participant invitations: an identical invitation to a recipient within the repeat window, or
 * one past the per-recipient limit, is not sent again; `skippedCount` says how many. The mailing
 * holds the others; when every one was skipped no mailing is stored and `emailId` is null.
 */
export const invitationResponseSchema = emailSendResponseSchema.extend({
  emailId: z.string().nullable(),
  skippedCount: z.number().int(),
});

/**
 * Collaborator invitations: the mailing holds the newcomers only, and `sentCount` is its size.
 * Recipients already members get a separate 'you already have access' note, counted in
 * `alreadyMembers` and kept out of the history; when everyone is a member no mailing is stored
 * and `emailId` is null.
 */
export const collaboratorInvitationResponseSchema = emailSendResponseSchema.extend({
  emailId: z.string().nullable(),
  alreadyMembers: z.number().int(),
  /** Newcomers not invited again (see invitationResponseSchema). */
  skippedCount: z.number().int(),
});

const EMAIL_KINDS = [
  'invitation',
  'participant_contact',
  'collaborator_invitation',
  'collaborator_contact',
  // Sent by the platform itself (no sender): the daily digest and the participants' reminders.
  'adherence_digest',
  'sync_reminder',
  'reauthorization_reminder',
] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];
const DELIVERY_STATUSES = ['queued', 'sent', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

const deliveryCountsSchema = z.object({
  queued: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
});

/**
 * One row of the Email History list (a sent mailing, with the kind stored at send
 * time and real delivery counts). No body and no recipients: the Email Details dialog reads them
 * from GET /api/email/history/:studyId/:emailId.
 */
const emailRecordSchema = component(
  'EmailRecord',
  z.object({
    id: z.string(),
    kind: z.enum(EMAIL_KINDS),
    emailSubject: z.string(),
    /** Number of recipients of the mailing. */
    sentCount: z.number().int(),
    sentAt: z.string(),
    deliveryStatus: deliveryCountsSchema,
  }),
);
export type EmailRecord = z.infer<typeof emailRecordSchema>;

/** The Email Details dialog lists at most this many recipients (the first by address). */
export const EMAIL_DETAILS_RECIPIENTS_MAX = 1000;

/** One mailing with its full body and recipients, each with its own delivery status. */
const emailDetailsSchema = emailRecordSchema.extend({
  emailBody: z.string(),
  /**
   * The first EMAIL_DETAILS_RECIPIENTS_MAX recipients by address; `sentCount` has the full
   * number, so `participants.length < sentCount` means the list was cut.
   */
  participants: z.array(
    z.object({ participantEmail: z.string(), status: z.enum(DELIVERY_STATUSES) }),
  ),
});
export type EmailDetails = z.infer<typeof emailDetailsSchema>;

export const emailHistoryResponseSchema = successSchema({
  emails: z.array(emailRecordSchema),
  totalCount: z.number().int(),
});

export const emailDetailsParamsSchema = z.object({
  studyId: z.string().max(100),
  emailId: z.string().max(100),
});
export const emailDetailsResponseSchema = successSchema({ email: emailDetailsSchema });

/** The Email History summary line without the time. */
export function emailSummary(kind: EmailKind, count: number): string {
  if (kind === 'invitation') return EMAIL_HISTORY_TEXTS.invited(count);
  if (kind === 'adherence_digest') return EMAIL_HISTORY_TEXTS.adherenceDigest(count);
  if (kind === 'sync_reminder') return EMAIL_HISTORY_TEXTS.syncReminder(count);
  if (kind === 'reauthorization_reminder')
    return EMAIL_HISTORY_TEXTS.reauthorizationReminder(count);
  if (kind === 'collaborator_invitation' || kind === 'collaborator_contact')
    return EMAIL_HISTORY_TEXTS.contactedCollaborators(count);
  return EMAIL_HISTORY_TEXTS.contactedParticipants(count);
}

/**
 * Extra typed recipients, kept only when they look like an e-mail with no spaces:
 * commas, semicolons and line breaks separate them; each address lower-cased.
 */
export const keepTypedRecipients = (typed: string): string[] =>
  typed
    .split(/[,;\n]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '' && !/\s/.test(entry) && EMAIL_PATTERN.test(entry))
    .map((entry) => entry.toLowerCase());
