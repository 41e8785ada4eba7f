/**
 * Texts of the study detail screen's mail dialogs: 'Invite/Contact Participants' and
 * 'Invite/Contact Collaborators', with the outcome each reports once sent.
 */

import { INVITATION_REPEAT_LIMITS } from '../constants.js';
import { STUDY_DETAIL_TEXTS } from './study-detail.js';
import { LABEL, plural } from './study-labels.js';

const participantInvitationsSent = (count: number) =>
  `Invitations were sent to ${count} ${plural(count, 'participant')}.`;

/**
 * Invitations not sent again: the same one went to these recipients within the window, or they
 * had as many as the limit allows already.
 */
const invitationsSkipped = (count: number) =>
  `${count === 1 ? '1 invitation was' : `${count} invitations were`} already sent in the last ${INVITATION_REPEAT_LIMITS.windowHours} hours and ${count === 1 ? 'was' : 'were'} skipped.`;

/** 'Invite/Contact Participants': rows, CSV, contact form and the Review & Edit step. */
export const INVITE_DIALOG_TEXTS = {
  dialogTitle: STUDY_DETAIL_TEXTS.inviteParticipants,
  modeLabel: 'Mode',
  invite: 'Invite',
  contact: 'Contact',
  email: LABEL.email,
  phone: 'Phone (optional)',
  phonePlaceholder: '(555) 123-4567',
  phoneColumn: LABEL.phone,
  participantRow: (n: number) => `Participant ${n}`,
  addParticipant: 'Add Participant',
  removeRow: (n: number) => `Remove participant ${n}`,
  uploadCsv: 'Upload CSV',
  /** Empties every row, the file's preview and its messages. */
  clearAll: 'Clear all',
  uploading: 'Reading...',
  csvHelp:
    'A CSV with an "email" column and optionally "phone", "firstName", "lastName". Up to 5 MB.',
  csvPreviewTitle: (count: number) => `${count} ${plural(count, 'participant')} from the file`,
  /** Preview rows past the ones shown. */
  csvMoreRows: (count: number) => `+${count} more`,
  csvSkipped: (messages: string[]) => `Not added from the file:\n${messages.join('\n')}`,
  continue: 'Continue',
  reviewInvitationTitle: 'Review & Edit Invitation Email',
  reviewContactTitle: 'Review & Edit Contact Email',
  subject: LABEL.subject,
  body: LABEL.message,
  recipientsSummary: (count: number) =>
    `This e-mail goes to ${count} ${plural(count, 'recipient')}.`,
  sendInvitations: STUDY_DETAIL_TEXTS.sendInvitations,
  sendEmails: 'Send Emails',
  invitationsSent: participantInvitationsSent,
  invitationsSkipped,
  /** Invitations sent and repeats skipped; only the skipped sentence when none was sent. */
  invitationOutcome: (sent: number, skipped: number): string => {
    if (skipped === 0) return participantInvitationsSent(sent);
    if (sent === 0) return invitationsSkipped(skipped);
    return `${participantInvitationsSent(sent)} ${invitationsSkipped(skipped)}`;
  },
  emailsSent: (count: number) => `Your e-mail was sent to ${count} ${plural(count, 'recipient')}.`,
  contactTitle: 'Email Title',
  contactContent: 'Email Content',
  recipients: LABEL.recipients,
  selectAll: 'Select All',
  clear: 'Clear',
  noParticipants: 'This study has no participants yet.',
  extraRecipients: 'Additional recipients',
  extraRecipientsHelper:
    'Optional. E-mail addresses of this study’s participants, pending participants or members, separated by commas.',
  selectedCount: (count: number) => `${count} selected`,
  recipientSearch: 'Search participants',
  noRecipientMatches: 'No participants match your search.',
  showingSome: (shown: number, total: number) =>
    `Showing ${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}. Search to find others.`,
  sendFailed: 'Failed to send emails',
} as const;

const collaboratorInvitationsSent = (count: number) =>
  `Invitations were sent to ${count} ${plural(count, 'collaborator')}.`;
/** Recipients who were members already get a 'you have access' note, not an invitation. */
const collaboratorsAlreadyMembers = (count: number) =>
  `${count === 1 ? '1 recipient is already a member' : `${count} recipients are already members`} of this study; they were told they have access.`;

/** 'Invite/Contact Collaborators'. */
export const COLLABORATOR_DIALOG_TEXTS = {
  dialogTitle: 'Invite/Contact Collaborators',
  emails: 'Collaborator Emails',
  emailsHelper: 'E-mail addresses separated by commas.',
  message: 'Message (optional)',
  messageHelper: 'Left blank, a standard invitation text is used.',
  credentialsNote: (block: string) =>
    `Added below your message when the e-mail is sent:\n\n${block}`,
  reviewInvitationTitle: 'Review & Edit Collaborator Invitation Email',
  reviewContactTitle: 'Review & Edit Collaborator Contact Email',
  noMembers: 'This study has no other members yet.',
  invitationsSent: collaboratorInvitationsSent,
  alreadyMembers: collaboratorsAlreadyMembers,
  /** Invitations sent and members told apart; only the members' sentence when none was invited. */
  invitationOutcome: (sent: number, alreadyMembers: number, skipped = 0): string => {
    const parts = [
      sent > 0 || (alreadyMembers === 0 && skipped === 0) ? collaboratorInvitationsSent(sent) : '',
      alreadyMembers > 0 ? collaboratorsAlreadyMembers(alreadyMembers) : '',
      skipped > 0 ? invitationsSkipped(skipped) : '',
    ];
    return parts.filter(Boolean).join(' ');
  },
} as const;
