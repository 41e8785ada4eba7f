/**
 * Texts of the researcher dashboard and its study dialogs where the product gives no wording (the
 * wording here is ours). The product's own texts, kept verbatim, are STUDY_MESSAGES (messages.ts);
 * these complete them.
 */

import { NOTIFY_RESEARCHER_LIMITS } from '../constants.js';
import { ACCOUNT_FORM_TEXTS } from './auth.js';
import { PLACEHOLDER_TEXTS } from './shell.js';

export const STUDY_DASHBOARD_TEXTS = {
  title: 'Researcher Dashboard',
  subtitle: 'Manage your research studies and collaborations',
  loading: 'Loading your studies...',
  loadMore: 'Load more studies',
  loadingMore: PLACEHOLDER_TEXTS.loading,
  joinStudy: 'Join Study',
  createStudy: 'Create Study',
  // No count until the list has answered: '(0)' while loading would be a wrong number.
  yourStudies: (n?: number) => `Your Studies${n === undefined ? '' : ` (${n})`}`,
  collaborativeStudies: (n?: number) => `Collaborative Studies${n === undefined ? '' : ` (${n})`}`,
  ownedEmptyTitle: 'No Studies Yet',
  ownedEmptyAction: 'Create Your First Study',
  collaborativeEmptyTitle: 'No Collaborative Studies Yet',
  collaborativeEmptyAction: 'Join Your First Collaborative Study',
  ownedEmptyBody: 'Create a study to start enrolling participants and collecting wearable data.',
  collaborativeEmptyBody:
    'Studies you join with a study code and password from their owner appear here.',
  participants: (count: number) => `${count} ${count === 1 ? 'participant' : 'participants'}`,
  codeLabel: 'Code:',
  collaborator: 'Collaborator',
  viewStudy: 'View Study',
  /** A card's description preview, cut short, ends with this. */
  ellipsis: '...',
  copyCode: 'Copy study code',
  created: (date: string) => `Created ${date}`,
  ownedBy: (name: string) => `Owner: ${name}`,
  moreActions: (name: string) => `More actions for ${name}`,
  cancel: 'Cancel',
  retry: 'Try Again',
  tabsLabel: 'Study lists',
  loadCollaborativeFailed: 'Failed to load collaborative studies',
} as const;

export const CREATE_STUDY_TEXTS = {
  title: 'Create New Study',
  name: 'Study Name',
  description: 'Description',
  duration: 'Duration',
  durationPlaceholder: 'e.g., 4 weeks',
  password: 'Study Password',
  passwordHelper:
    'Optional. At least 6 characters; collaborators join with the code and this password.',
  collaborators: 'Collaborator Emails',
  collaboratorsPlaceholder: 'alice@university.edu, bob@hospital.org',
  collaboratorsHelper: 'Optional. Separate e-mail addresses with commas.',
  submit: STUDY_DASHBOARD_TEXTS.createStudy,
  created: (code: string) =>
    `Your study has been created successfully. Study code: ${code}. Share this code with participants and collaborators.`,
  failed: 'Failed to create study',
} as const;

export const EDIT_STUDY_TEXTS = {
  title: 'Edit Study',
  name: CREATE_STUDY_TEXTS.name,
  description: CREATE_STUDY_TEXTS.description,
  duration: CREATE_STUDY_TEXTS.duration,
  durationPlaceholder: CREATE_STUDY_TEXTS.durationPlaceholder,
  changePassword: 'Change Password',
  submit: 'Save Changes',
  updated: 'The study has been updated successfully.',
  failed: 'Failed to update study',
} as const;

export const CHANGE_STUDY_PASSWORD_TEXTS = {
  title: 'Change Study Password',
  intro: (name: string) => `Set a new password for "${name}". Collaborators join with it.`,
  introFirst: (name: string) =>
    `"${name}" has no password yet. Set one: collaborators join with the study code and this password.`,
  current: 'Current Password',
  next: 'New Password',
  confirm: 'Confirm New Password',
  nextHelper: ACCOUNT_FORM_TEXTS.passwordHelper,
  submit: 'Change Password',
  submitFirst: 'Set Password',
  changed: 'The study password has been changed successfully.',
  failed: 'Failed to change password',
} as const;

export const JOIN_STUDY_TEXTS = {
  title: 'Join Study as Collaborator',
  intro: 'Enter the study code and password you received from the study owner.',
  code: 'Study Code',
  password: CREATE_STUDY_TEXTS.password,
  submit: STUDY_DASHBOARD_TEXTS.joinStudy,
} as const;

export const DELETE_STUDY_TEXTS = {
  menuItem: 'Delete Study',
  confirmTitle: 'Delete Study?',
  confirmBody: (name: string) =>
    `"${name}" will be removed from your dashboard and participants can no longer join it. This cannot be undone.`,
  confirm: 'Delete',
  deleted: (name: string) => `"${name}" has been deleted.`,
  failed: 'Failed to delete study',
} as const;

/** Answers of the public 'notify researcher' call (a participant writes to the study's owner). */
export const NOTIFY_RESEARCHER_MESSAGES = {
  sent: 'Your message was sent to the research team.',
  tooManyFromSender: `You have already sent ${NOTIFY_RESEARCHER_LIMITS.perSenderPerHour} messages about this study in the last hour. Please wait an hour before sending another.`,
  tooManyForStudy:
    'The research team of this study has received many messages in the last hour. Please try again later.',
} as const;
