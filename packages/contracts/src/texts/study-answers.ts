/**
 * What the server says on the study detail screen's calls: its answers, the mail it adds to the
 * researcher's text, the answer to joining a study twice and the bucket page it serves.
 */

import { INVITATION_REPEAT_LIMITS } from '../constants.js';

/**
 * Server answers of the study detail calls, in our words: each names the rule so the toast
 * ('Failed to …' title + this text) tells the user what to do.
 */
export const STUDY_DETAIL_MESSAGES = {
  participantNotFound: 'Participant not found',
  pendingParticipantNotFound: 'Pending participant not found',
  documentNotFound: 'Document not found',
  memberNotFound: 'Study member not found',
  emailNotFound: 'Email not found',
  onlyOwnerDeletesParticipants: 'Only the study owner can delete participants.',
  onlyOwnerRemovesMembers: 'Only the study owner can remove study members.',
  cannotRemoveOwner: 'The main researcher cannot be removed from the study.',
  participantEmailTaken: 'Another participant of this study already uses this email address.',
  studyCodeMismatch: 'The study code does not belong to this study.',
  alreadyParticipant: (email: string) => `${email} is already a participant of this study`,
  alreadyPending: (email: string) => `${email} is already a pending participant of this study`,
  duplicateInFile: (email: string, firstRow: number) =>
    `${email} is already listed as participant ${firstRow}`,
  tooManyRecipients: (max: number) => `At most ${max} recipients can be sent at once`,
  recipientNotInStudy: (email: string) => `${email} is not a member of this study`,
  /** Contact mail goes only to people the study already knows (never to any typed address). */
  recipientNotKnownToStudy: (email: string) =>
    `${email} is not a participant, pending participant or member of this study`,
  csvMissingEmailColumn: 'The CSV file needs an email column',
  csvTooManyRows: (max: number) => `The CSV file has more than ${max} participants`,
  /** The roster form (multipart) holds more files or fields than it takes. */
  formTooManyParts: 'The form has too many parts.',
  unknownRosterIntent: 'Unknown roster intent',
  /** Fallback when the roster check names no row. */
  invalidRoster: 'Invalid roster',
  pendingAdded: (n: number) => `Added ${n} pending participant(s)`,
  participantDeleted: 'Participant deleted',
  participantUpdated: 'Participant updated',
  pendingParticipantRemoved: 'Pending participant removed',
  memberRemoved: 'Study member removed',
  /** The answer's message when repeats were skipped (sent and skipped, both counted). */
  invitationOutcome: (sent: number, skipped: number) =>
    skipped === 0
      ? `Invitations sent to ${sent} participant(s)`
      : `Invitations sent to ${sent} participant(s); ${skipped} already sent in the last ${INVITATION_REPEAT_LIMITS.windowHours} hours were skipped`,
  emailsSent: (n: number) => `Emails sent to ${n} recipient(s)`,
  collaboratorInvitationsSent: (n: number) => `Invitations sent to ${n} collaborator(s)`,
} as const;

/** What the server writes into the study screen's mail besides the researcher's own text. */
export const STUDY_MAIL_TEXTS = {
  /** The way in, as the generated invitation ends and as appended to a body that lost it. */
  enrolLines: (studyCode: string, link: string) => [
    `Study code: ${studyCode}`,
    `Enroll here: ${link}`,
  ],
  joinAction: 'Join the study',
  openAction: 'Open the study',
  /** To an invited collaborator who is a member already. */
  alreadyMember: (studyName: string) => [
    `You already have access to the research study "${studyName}" as a member; there is nothing to join.`,
    'Open the study from your research dashboard.',
  ],
} as const;

/**
 * Joining a study one is already a member of answers 200 with these, not 'Study Joined': nothing
 * was joined, and nothing failed either.
 */
export const JOIN_MESSAGES = {
  alreadyMemberTitle: 'Already a Collaborator',
  alreadyMember: 'You are already a collaborator on this study.',
} as const;

/** The signed links to a study's files: the "Go to Bucket" page and its downloads. */
export const BUCKET_PAGE_TEXTS = {
  title: 'Study files',
  expiryNote: (minutes: number) =>
    `Download links on this page expire after ${minutes} minutes. Reopen the bucket from the study page for fresh links.`,
  empty: 'No files yet. Extracted data appears here.',
  columns: { file: 'File', size: 'Size', lastModified: 'Last modified' },
  /** After a file's time, which is shown in UTC. */
  utc: 'UTC',
  nextPage: 'Next page',
  listingLinkInvalid:
    'This link is invalid or has expired. Open the bucket again from the study page.',
  downloadLinkInvalid: 'This download link is invalid or has expired.',
  studyDeleted: 'This study has been deleted. Its files are no longer available.',
  notAMember:
    'You are no longer a member of this study, so its files are no longer available to you.',
} as const;
