/**
 * The Pending Participants tab and the roster: pending (invited or pre-enrolled) participants,
 * the rows a roster (typed, CSV or JSON) adds and what its check reports.
 */

import { z } from 'zod';
import { CSV_MAX_BYTES, NAME_MAX_LENGTH } from '../constants.js';
import { isValidOptionalPhone } from '../phone.js';
import { PARTICIPANT_LIST_MESSAGES, participantMessage } from '../texts/messages.js';
import { EMAIL_PATTERN } from '../validators.js';
import { optionalPhoneSchema } from './common.js';
import { component } from './component.js';
import { successSchema } from './errors.js';

/**
 * Rows one roster (CSV or JSON) may add at once: twice the largest roster a study is expected to bring
 * (10,000 rows), so a big cohort fits in one file. A CSV
 * under 5 MB can hold far more bare addresses (~250,000), so the CSV route checks this too.
 */
export const ROSTER_MAX_ROWS = 20_000;
export const ROSTER_CSV_MAX_BYTES = CSV_MAX_BYTES;

export const PENDING_STATUSES = ['pre-enrolled', 'invited'] as const;

/**
 * A pending participant (invited or pre-enrolled, not yet enrolled). `status` may hold other values
 * later; the web shows them in red.
 */
const pendingParticipantSchema = component(
  'PendingParticipant',
  z.object({
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
  }),
);
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
