/**
 * Texts of the study detail screen and of its calls: the spec's words that
 * `messages.ts` does not hold, ours where the spec is silent (where it said "not shown", the
 * wording is ours), the server's answers, the mail it adds and the bucket page it serves.
 */

/** Words several tables and dialogs of the screen label with. */
const LABEL = {
  name: 'Name',
  email: 'Email',
  phone: 'Phone',
  status: 'Status',
  actions: 'Actions',
  subject: 'Subject',
  message: 'Message',
  recipients: 'Recipients',
  firstName: 'First Name',
  lastName: 'Last Name',
  studyCode: 'Study Code',
  remove: 'Remove',
  delete: 'Delete',
} as const;

import { INVITATION_REPEAT_LIMITS } from '../constants.js';

const plural = (count: number, one: string, many = `${one}s`) => (count === 1 ? one : many);

const participantInvitationsSent = (count: number) =>
  `Invitations were sent to ${count} ${plural(count, 'participant')}.`;

/**
 * Invitations not sent again: the same one went to these recipients within the window, or they
 * had as many as the limit allows already.
 */
const invitationsSkipped = (count: number) =>
  `${count === 1 ? '1 invitation was' : `${count} invitations were`} already sent in the last ${INVITATION_REPEAT_LIMITS.windowHours} hours and ${count === 1 ? 'was' : 'were'} skipped.`;

/** The page frame, header, tabs and empty states, and what every tab shares. */
export const STUDY_DETAIL_TEXTS = {
  loading: 'Loading study details...',
  backToDashboard: 'Back to Dashboard',
  notFoundBody: 'It may have been deleted, or you are not a member of it.',
  codeLabel: 'Study Code:',
  copyCode: 'Copy study code',
  durationLabel: 'Duration:',
  edit: 'Edit',
  editOwnerOnly: 'Only the study owner can edit the study',
  refresh: 'Refresh',
  inviteParticipants: 'Invite/Contact Participants',
  inviteCollaborators: 'Invite/Contact Collaborator',
  tabsLabel: 'Study sections',
  tabs: {
    participants: 'Participants',
    pending: 'Pending Participants',
    members: 'Study Members',
    emails: 'Email History',
    extraction: 'Data Extraction',
  },
  /** A tab's label once its count is known: 'Participants (3)'. */
  tabCount: (label: string, count: number) => `${label} (${count})`,
  noParticipants: 'No Participants Yet',
  sendInvitations: 'Send Invitations',
  noPendingParticipants: 'No Pending Participants',
  noStudyMembers: 'No Study Members',
  noEmails: 'No Emails Sent Yet',
  mainResearcher: 'Main Researcher',
  collaborativeResearchers: (n: number) => `Collaborative Researchers (${n})`,
  roleMain: 'Main',
  roleCollaborator: 'Collaborator',
  backToEdit: 'Back to Edit',
  goToBucket: 'Go to Bucket',
  retry: 'Try Again',
  loadFailed: 'Failed to load this list',
  cancel: 'Cancel',
  close: 'Close',
  save: 'Save',
  saving: 'Saving...',
  sending: 'Sending...',
  notAvailable: 'N/A',
  notProvided: 'Not provided',
  /** A table cell with nothing to show. */
  emptyCell: '—',
  searchLabel: 'Search',
  rowsLabel: 'Rows per page:',
} as const;

const participantFields = {
  participantId: 'Participant ID',
  firstName: LABEL.firstName,
  lastName: LABEL.lastName,
  email: LABEL.email,
  phone: LABEL.phone,
  studyCode: LABEL.studyCode,
  status: LABEL.status,
  enrolledAt: 'Enrolled',
  authorizedAt: 'Authorized',
  informationCompleted: 'Information',
  informationCompletedAt: 'Information Completed',
  additionalInfo: 'Additional Information',
  documents: 'Documents',
} as const;
const updateParticipantFailed = 'Failed to update participant';

/** The Participants tab, the Participant Details dialog and the edit and delete dialogs. */
export const STUDY_PARTICIPANT_TEXTS = {
  tableLabel: 'Participants',
  searchPlaceholder: 'Search by name, e-mail or phone',
  columns: {
    name: LABEL.name,
    email: LABEL.email,
    phone: LABEL.phone,
    status: LABEL.status,
    enrolledAt: 'Enrolled Date',
    actions: LABEL.actions,
  },
  emptyBody: 'Invite participants by e-mail; they appear here once they enrol.',
  noMatches: 'No participants match your search.',
  view: (name: string) => `View details of ${name}`,
  edit: (name: string) => `Edit ${name}`,
  delete: (name: string) => `Delete ${name}`,
  deleteOwnerOnly: 'Only the study owner can delete participants',
  detailsTitle: 'Participant Details',
  loadingDetails: 'Loading participant details...',
  fields: participantFields,
  completed: 'Completed',
  incomplete: 'Incomplete',
  noDocuments: 'No documents uploaded',
  download: (name: string) => `Download ${name}`,
  downloadFailed: 'Failed to download document',
  editTitle: 'Edit Participant',
  updated: 'The participant has been updated.',
  updateFailed: updateParticipantFailed,
  deleteTitle: 'Delete Participant',
  deleteBody: (name: string) =>
    `Delete ${name} from this study? They disappear from the lists and their wearable connection ends. Their data is kept for the retention period.`,
  deleteConfirm: LABEL.delete,
  deleted: (name: string) => `${name} has been deleted from the study.`,
  deleteFailed: 'Failed to delete participant',
} as const;

/** The Pending Participants tab and its edit and remove dialogs. */
export const STUDY_PENDING_TEXTS = {
  tableLabel: 'Pending participants',
  searchPlaceholder: 'Search by e-mail or phone',
  columns: {
    email: LABEL.email,
    phone: LABEL.phone,
    status: LABEL.status,
    createdAt: 'Added Date',
    actions: LABEL.actions,
  },
  emptyBody: 'Invited and pre-enrolled participants wait here until they enrol.',
  noMatches: 'No pending participants match your search.',
  edit: (email: string) => `Edit phone of ${email}`,
  remove: (email: string) => `${LABEL.remove} ${email}`,
  editTitle: 'Edit Pending Participant',
  phone: 'Phone Number',
  phoneHelper: 'Optional. 10 digits, or + and the country code for a number abroad.',
  updated: 'The pending participant has been updated.',
  updateFailed: updateParticipantFailed,
  removeTitle: 'Remove Pending Participant',
  removeBody: (email: string) =>
    `Remove ${email} from the pending list? Their invitation stops working.`,
  removeConfirm: LABEL.remove,
  removed: (email: string) => `${email} has been removed from the pending list.`,
  removeFailed: 'Failed to remove participant',
} as const;

/** The Study Members tab and the collaborator removal. */
export const STUDY_MEMBER_TEXTS = {
  columns: {
    name: LABEL.name,
    email: LABEL.email,
    phone: LABEL.phone,
    status: LABEL.status,
    joinedDate: 'Joined Date',
    role: 'Role',
    actions: LABEL.actions,
  },
  remove: (name: string) => `${LABEL.remove} ${name}`,
  removeTitle: 'Remove Collaborator',
  removeBody: (name: string) =>
    `Remove ${name} from this study? They lose access at once and can rejoin only with the study code and password.`,
  removeConfirm: LABEL.remove,
  removedTitle: 'Collaborator Removed',
  removed: (name: string) => `${name} no longer has access to this study.`,
  removeFailedTitle: 'Failed to Remove Collaborator',
  removeFailed: 'Failed to remove collaborator',
} as const;

/** The Email History tab: summary lines and the Email Details dialog. */
export const EMAIL_HISTORY_TEXTS = {
  invited: (n: number) => `Invited ${n} participant(s)`,
  contactedParticipants: (n: number) => `Contacted ${n} participant(s)`,
  contactedCollaborators: (n: number) => `Contacted ${n} collaborator(s)`,
  listLabel: 'Sent e-mails',
  emptyBody: 'Invitations and messages you send from this study are listed here.',
  view: 'View',
  detailsTitle: 'Email Details',
  subject: LABEL.subject,
  recipients: LABEL.recipients,
  recipientCount: (count: number) => `${count} ${plural(count, 'recipient')}`,
  body: LABEL.message,
  sentAt: 'Sent',
  deliveryStatus: 'Delivery Status',
  noSubject: '(no subject)',
  loadMore: 'Load more',
  loadingDetails: 'Loading email details...',
  loadDetailsFailed: 'Failed to load email details',
  recipientsCut: (shown: number, total: number) =>
    `Showing the first ${shown} of ${total} recipients (by address).`,
} as const;

/** The Data Extraction tab's cloud storage card. */
export const STUDY_STORAGE_TEXTS = {
  storageTitle: 'Cloud Storage',
  storageBody:
    'Extracted data is written to this study’s storage bucket as raw JSON, tidy CSV files and a manifest.',
  bucketLabel: 'Bucket:',
  opening: 'Opening...',
  bucketErrorTitle: 'Bucket Error',
} as const;

/** 'Invite/Contact Participants': rows, CSV, contact form and the Review & Edit step. */
export const INVITE_DIALOG_TEXTS = {
  dialogTitle: STUDY_DETAIL_TEXTS.inviteParticipants,
  modeLabel: 'Mode',
  invite: 'Invite',
  contact: 'Contact',
  email: LABEL.email,
  phone: 'Phone (optional)',
  phonePlaceholder: '(111) - 0000 - 000',
  phoneColumn: LABEL.phone,
  participantRow: (n: number) => `Participant ${n}`,
  addParticipant: 'Add Participant',
  removeRow: (n: number) => `Remove participant ${n}`,
  uploadCsv: 'Upload CSV',
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

/** 'Edit Study' on the study screen (name, description, duration, enrolment settings). */
export const STUDY_EDIT_TEXTS = {
  title: 'Edit Study',
  name: 'Study Name',
  description: 'Description',
  duration: 'Duration',
  durationPlaceholder: 'e.g., 4 weeks',
  submit: 'Save Changes',
  updated: 'The study has been updated successfully.',
  failed: 'Failed to update study',
} as const;

/**
 * Server answers of the study detail calls. The spec gives no wording for these; each names the
 * rule so the toast ('Failed to …' title + this text) tells the user what to do.
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

/** Joining a study one is already a member of (issue 8): 200, not 'Study Joined'. */
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
