/**
 * Texts of the study detail screen: its frame, its tabs and the dialogs of one row (details,
 * edit, delete). The product's wording where it gives one (kept verbatim; see docs/product.md),
 * ours where it gives none. The invite and contact dialogs are study-dialogs.ts; the server's
 * answers, mail and bucket page are study-answers.ts.
 */

import { ROUTE_LOADING_TEXTS } from './shell.js';
import { LABEL, plural } from './study-labels.js';

/** The page frame, header, tabs and empty states, and what every tab shares. */
export const STUDY_DETAIL_TEXTS = {
  loading: ROUTE_LOADING_TEXTS.studyDetail,
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
    extraction: 'Data export',
    adherence: 'Adherence',
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
  /** Under a changed e-mail address: what the change does to the participant's access. */
  emailChangeHint:
    'The participant will confirm the new address with a code when they next return to the study; the old address no longer gives access.',
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
  adherenceDigest: (n: number) => `Adherence digest to ${n} member(s)`,
  syncReminder: (n: number) => `Reminded ${n} participant(s) to sync`,
  reauthorizationReminder: (n: number) => `Sent ${n} participant(s) the reconnect link`,
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
