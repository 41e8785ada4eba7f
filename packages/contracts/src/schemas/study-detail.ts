/**
 * Study detail screen: participants, pending
 * participants, roster upload, members, stats and the e-mail calls. The calls themselves (paths,
 * statuses, error codes) are operations/participants.ts and operations/email.ts; the web uses the
 * same schemas, types and text builders.
 * Validation failures answer 400 with every field's message in `details.fields` (errors.ts).
 */

import { z } from 'zod';
import { CSV_MAX_BYTES, NAME_MAX_LENGTH } from '../constants.js';
import {
  CONTACT_MESSAGES,
  INVITE_MESSAGES,
  PARTICIPANT_LIST_MESSAGES,
  PARTICIPANT_MESSAGES,
  participantMessage,
  STUDY_MESSAGES,
} from '../texts/messages.js';
import { EMAIL_HISTORY_TEXTS, STUDY_MAIL_TEXTS } from '../texts/study-detail.js';
import { EMAIL_PATTERN, isValidOptionalPhone } from '../validators.js';
import { emailSchema, optionalPhoneSchema, studyCodeSchema } from './common.js';
import { successSchema } from './errors.js';
import { studyRoleSchema } from './studies.js';

// ---------------------------------------------------------------------------------------------
// Limits

/** Rows per page of the participant and pending tables (the client may ask for up to 500). */
const STUDY_DETAIL_PAGE_SIZE = 25;
const STUDY_DETAIL_PAGE_MAX = 500;
/** Addresses one invitation or contact mailing may carry (answered at once, sent by the queue). */
const EMAIL_MAX_RECIPIENTS = 1000;
/** Collaborator invitations per request. */
const COLLABORATOR_INVITE_MAX = 50;
/**
 * Rows one roster (CSV or JSON) may add at once: twice the 10,000-row roster of issue 9. A CSV
 * under 5 MB can hold far more bare addresses (~250,000), so the CSV route checks this too.
 */
export const ROSTER_MAX_ROWS = 20_000;
const EMAIL_SUBJECT_MAX = 300;
const EMAIL_BODY_MAX = 20_000;
export const ROSTER_CSV_MAX_BYTES = CSV_MAX_BYTES;

// ---------------------------------------------------------------------------------------------
// List queries

const searchSchema = z.string().trim().max(200).optional();
const orderSchema = z.enum(['asc', 'desc']).default('asc');
const pageFields = {
  limit: z.coerce.number().int().min(1).max(STUDY_DETAIL_PAGE_MAX).default(STUDY_DETAIL_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).default(0),
};

const PARTICIPANT_SORTS = ['name', 'email', 'phone', 'status', 'enrolledAt'] as const;
export type ParticipantSort = (typeof PARTICIPANT_SORTS)[number];
export const participantListQuerySchema = z.object({
  ...pageFields,
  sort: z.enum(PARTICIPANT_SORTS).default('enrolledAt'),
  order: orderSchema,
  search: searchSchema,
});
export type ParticipantListQuery = z.input<typeof participantListQuerySchema>;

const PENDING_SORTS = ['email', 'phone', 'status', 'createdAt'] as const;
export type PendingSort = (typeof PENDING_SORTS)[number];
export const pendingParticipantListQuerySchema = z.object({
  ...pageFields,
  sort: z.enum(PENDING_SORTS).default('createdAt'),
  order: orderSchema,
  search: searchSchema,
});
export type PendingParticipantListQuery = z.input<typeof pendingParticipantListQuerySchema>;

export const emailHistoryQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

// ---------------------------------------------------------------------------------------------
// Params

export const participantParamsSchema = z.object({ participantId: z.string().max(100) });
export const participantDocumentParamsSchema = z.object({
  participantId: z.string().max(100),
  documentId: z.string().max(100),
});
export const pendingParticipantParamsSchema = z.object({
  id: z.string().max(100),
  pendingId: z.string().max(100),
});
export const studyMemberParamsSchema = z.object({
  id: z.string().max(100),
  userId: z.string().max(100),
});

// ---------------------------------------------------------------------------------------------
// Participants

const PARTICIPANT_DISPLAY_STATUSES = ['active', 'inactive'] as const;

/**
 * A participant as the Participants tab lists it. Tokens never leave the server: only whether one
 * exists and when it expires. `status` is the stored enrolment status ('enrolled', …);
 * `displayStatus` is the active/inactive status the table shows (`participantDisplayStatus`),
 * computed by the server with the same SQL expression that `sort=status` orders by, so the chips
 * and the order always agree.
 */
const participantRowSchema = z.object({
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
});
export type ParticipantRow = z.infer<typeof participantRowSchema>;

export const participantListResponseSchema = successSchema({
  participants: z.array(participantRowSchema),
  totalCount: z.number().int(),
});

const participantDocumentSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** MIME type, e.g. 'application/pdf'. */
  type: z.string(),
  /** Bytes. */
  size: z.number().int(),
  uploadedAt: z.string(),
});

/** A participant's details, as the researcher's details dialog shows them. */
const participantDetailsSchema = z.object({
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
});
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

// ---------------------------------------------------------------------------------------------
// Pending participants and roster

export const PENDING_STATUSES = ['pre-enrolled', 'invited'] as const;

/**
 * A pending participant (invited or pre-enrolled, not yet enrolled). `status` may hold other values
 * later; the web shows them in red.
 */
const pendingParticipantSchema = z.object({
  id: z.string(),
  /** Set once the person has enrolled. */
  participantId: z.string().nullable(),
  email: z.string(),
  phoneNumber: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  studyCode: z.string(),
  studyName: z.string(),
  status: z.string(),
  createdAt: z.string(),
});
export type PendingParticipant = z.infer<typeof pendingParticipantSchema>;

export const pendingParticipantListResponseSchema = successSchema({
  pendingParticipants: z.array(pendingParticipantSchema),
  totalCount: z.number().int(),
});
export const pendingParticipantResponseSchema = successSchema({
  pendingParticipant: pendingParticipantSchema,
  message: z.string().optional(),
});

/** One roster row as typed or read from a CSV; checked by `validateRosterRows`. */
const rosterRowSchema = z.object({
  email: z.string().max(1000).default(''),
  phoneNumber: z.string().max(1000).optional(),
  firstName: z.string().max(1000).optional(),
  lastName: z.string().max(1000).optional(),
});
export interface RosterRow {
  email: string;
  phoneNumber?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
}

export interface RosterIssue {
  /** 'participants.{index}.{field}' (index from 0), as the error envelope's details.fields. */
  field: string;
  /** 'Participant N: …' with N counted from 1. */
  message: string;
}

/**
 * Roster rows: every row checked, every problem reported at once, each message
 * prefixed 'Participant N'. Empty list: 'At least one participant is required'.
 */
export function validateRosterRows(rows: readonly RosterRow[]): RosterIssue[] {
  if (rows.length === 0)
    return [{ field: 'participants', message: PARTICIPANT_LIST_MESSAGES.atLeastOne }];
  const issues: RosterIssue[] = [];
  rows.forEach((row, index) => {
    const at = (field: string, message: string) =>
      issues.push({
        field: `participants.${index}.${field}`,
        message: participantMessage(index + 1, message),
      });
    const email = row.email.trim();
    if (email === '') at('email', PARTICIPANT_LIST_MESSAGES.emailRequired);
    else if (!EMAIL_PATTERN.test(email)) at('email', PARTICIPANT_LIST_MESSAGES.invalidEmail);
    if (!isValidOptionalPhone(row.phoneNumber))
      at('phoneNumber', PARTICIPANT_LIST_MESSAGES.invalidPhone);
    if ((row.firstName ?? '').trim().length > NAME_MAX_LENGTH)
      at('firstName', PARTICIPANT_LIST_MESSAGES.firstNameTooLong);
    if ((row.lastName ?? '').trim().length > NAME_MAX_LENGTH)
      at('lastName', PARTICIPANT_LIST_MESSAGES.lastNameTooLong);
  });
  return issues;
}

/** POST /api/studies/:id/pending-participants: rows become 'pre-enrolled' pending participants. */
export const addPendingParticipantsSchema = z
  .object({
    participants: z.array(rosterRowSchema).max(ROSTER_MAX_ROWS),
  })
  .superRefine((value, ctx) => {
    for (const issue of validateRosterRows(value.participants as RosterRow[])) {
      ctx.addIssue({
        code: 'custom',
        path: issue.field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
        message: issue.message,
        input: value,
      });
    }
  });

/**
 * What a roster check is for. 'add' (default): rows become pending 'pre-enrolled'; addresses
 * already pending or participants are duplicates. 'invite': the invite dialog fills its rows from
 * the file, always as a dry run; an address already pending stays in (the invitation makes its
 * status 'invited'), only live participants and repeats in the file are reported and left out.
 */
export const ROSTER_INTENTS = ['add', 'invite'] as const;
export type RosterIntent = (typeof ROSTER_INTENTS)[number];
export const rosterIntentSchema = z.enum(ROSTER_INTENTS).default('add');

/** Why a roster row was not added: seen earlier in the file, or already in the study. */
const rosterDuplicateSchema = z.object({
  /** Row number counted from 1 (the 'Participant N' of the messages). */
  row: z.number().int(),
  email: z.string(),
  reason: z.enum(['file', 'participant', 'pending']),
  message: z.string(),
});
export type RosterDuplicate = z.infer<typeof rosterDuplicateSchema>;

/**
 * Answer of the roster upload and of POST …/pending-participants: how many were created and
 * which rows were skipped as duplicates. A dry run (roster only) returns the parsed rows in
 * `participants` and stores nothing.
 */
export const rosterResultResponseSchema = successSchema({
  created: z.number().int(),
  duplicates: z.array(rosterDuplicateSchema),
  totalRows: z.number().int(),
  dryRun: z.boolean(),
  participants: z
    .array(
      z.object({
        email: z.string(),
        phoneNumber: z.string().nullable(),
        firstName: z.string().nullable(),
        lastName: z.string().nullable(),
      }),
    )
    .optional(),
  message: z.string(),
});
export type RosterResult = z.infer<typeof rosterResultResponseSchema>;

/** PUT …/pending-participants/:pendingId: phone optional (blank clears it). */
export const updatePendingParticipantSchema = z.object({
  phoneNumber: optionalPhoneSchema.nullable(),
});

// ---------------------------------------------------------------------------------------------
// Members and stats

/** A member of a study (owner or collaborator). */
const studyMemberSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  /** 'active' for an approved researcher account; anything else is shown as a warning. */
  status: z.string(),
  joinedDate: z.string().nullable(),
  role: studyRoleSchema,
});
export type StudyMember = z.infer<typeof studyMemberSchema>;

export const memberListResponseSchema = successSchema({ members: z.array(studyMemberSchema) });

/**
 * GET /api/studies/:id/stats — the tab counts in one call:
 * participants (live participants), pendingParticipants (live pending rows, not yet enrolled),
 * members (owner + collaborators), emails (mailings in the history), authorizedParticipants
 * (participants with an active wearable authorization), lastEmailSentAt (newest mailing or null).
 */
const studyStatsSchema = z.object({
  participants: z.number().int(),
  pendingParticipants: z.number().int(),
  members: z.number().int(),
  emails: z.number().int(),
  authorizedParticipants: z.number().int(),
  lastEmailSentAt: z.string().nullable(),
});
export type StudyStats = z.infer<typeof studyStatsSchema>;
export const studyStatsResponseSchema = successSchema({ stats: studyStatsSchema });

// ---------------------------------------------------------------------------------------------
// E-mail

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

/** The description line of the generated invitation. */
const INVITATION_DESCRIPTION_LABEL = 'Study description:';
const EMPTIED_DESCRIPTION_LINE = new RegExp(
  `^[ \\t]*${INVITATION_DESCRIPTION_LABEL}[ \\t]*\\r?$`,
  'im',
);

/**
 * 'Study description is required' applies to the invitation, not to the study: a study may have
 * no description (the generated body then reads 'Study description: No description
 * provided'), so requiring the study's description would contradict it. What may not be empty is
 * the invitation's description line: the researcher may edit it, or drop the line altogether,
 * but not send 'Study description:' with nothing after it.
 */
export function invitationBodyProblem(body: string): string | null {
  return EMPTIED_DESCRIPTION_LINE.test(body) ? INVITE_MESSAGES.studyDescriptionRequired : null;
}

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
const emailRecordSchema = z.object({
  id: z.string(),
  kind: z.enum(EMAIL_KINDS),
  emailSubject: z.string(),
  /** Number of recipients of the mailing. */
  sentCount: z.number().int(),
  sentAt: z.string(),
  deliveryStatus: deliveryCountsSchema,
});
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

// ---------------------------------------------------------------------------------------------
// E-mail texts — the web's Review & Edit shows exactly what the server would send.

export interface InvitationEmailInput {
  studyName: string;
  description?: string | null;
  duration?: string | null;
  studyCode: string;
  /** Origin of the web app, e.g. 'https://study.example.org' (the server's PUBLIC_URL). */
  baseUrl: string;
}

/** `${baseUrl}/participant/enroll?code=…` — the link an invitation carries. */
export const enrollLink = (baseUrl: string, studyCode: string): string =>
  `${baseUrl.replace(/\/+$/, '')}/participant/enroll?code=${encodeURIComponent(studyCode)}`;

/** Generated invitation subject and body. */
export function invitationEmail(input: InvitationEmailInput): { subject: string; body: string } {
  const description = input.description?.trim() || STUDY_MESSAGES.noDescription;
  const duration = input.duration?.trim() || INVITE_MESSAGES.durationNotSpecified;
  return {
    subject: INVITE_MESSAGES.invitationSubject(input.studyName),
    body: [
      'Hello,',
      '',
      `You are invited to participate in the research study "${input.studyName}".`,
      '',
      `${INVITATION_DESCRIPTION_LABEL} ${description}`,
      `Duration: ${duration}`,
      '',
      'To take part, open the enrollment page, enter the study code below and connect your Fitbit account so that your wearable data can be shared with the study.',
      '',
      ...STUDY_MAIL_TEXTS.enrolLines(input.studyCode, enrollLink(input.baseUrl, input.studyCode)),
      '',
      'Thank you,',
      'The Research Team',
    ].join('\n'),
  };
}

/** Default collaborator invitation subject and body. */
export function collaboratorInvitationDefaults(studyName: string): {
  subject: string;
  body: string;
} {
  return {
    subject: INVITE_MESSAGES.collaboratorSubject(studyName),
    body: [
      'Hello,',
      '',
      `You are invited to collaborate on the research study "${studyName}".`,
      '',
      'Use the research dashboard to join the study with the study code and password below.',
    ].join('\n'),
  };
}

/** `${baseUrl}/researcher/dashboard?code=…&password=…` — opens the join dialog filled in. */
export const collaboratorJoinLink = (
  baseUrl: string,
  studyCode: string,
  password: string | null,
): string => {
  const params = new URLSearchParams({ code: studyCode });
  if (password) params.set('password', password);
  return `${baseUrl.replace(/\/+$/, '')}/researcher/dashboard?${params.toString()}`;
};

/**
 * The part the server appends to a collaborator invitation: code, password and join link. The
 * web's review shows it with `password: null` (the browser never sees the password).
 */
export function collaboratorCredentialsBlock(input: {
  studyCode: string;
  password: string | null;
  baseUrl: string;
}): string {
  return [
    `Study code: ${input.studyCode}`,
    `Study password: ${input.password ?? '(added when the email is sent)'}`,
    `Join here: ${collaboratorJoinLink(input.baseUrl, input.studyCode, input.password)}`,
  ].join('\n');
}

/** The Email History summary line without the time. */
export function emailSummary(kind: EmailKind, count: number): string {
  if (kind === 'invitation') return EMAIL_HISTORY_TEXTS.invited(count);
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
