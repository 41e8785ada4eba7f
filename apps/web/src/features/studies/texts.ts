/**
 * Dashboard texts the spec leaves out (DESIGN: 'not shown' is ours to decide). Every text the spec
 * names comes from STUDY_MESSAGES in @research/contracts; these complete them.
 */
export const DASHBOARD_TEXTS = {
  title: 'Researcher Dashboard',
  subtitle: 'Manage your research studies and collaborations',
  loadMore: 'Load more studies',
  loadingMore: 'Loading...',
  ownedEmptyBody: 'Create a study to start enrolling participants and collecting wearable data.',
  collaborativeEmptyBody:
    'Studies you join with a study code and password from their owner appear here.',
  participants: (count: number) => `${count} ${count === 1 ? 'participant' : 'participants'}`,
  codeLabel: 'Code:',
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
  submit: 'Create Study',
  created: (code: string) =>
    `Your study has been created successfully. Study code: ${code}. Share this code with participants and collaborators.`,
  failed: 'Failed to create study',
} as const;

export const EDIT_STUDY_TEXTS = {
  title: 'Edit Study',
  changePassword: 'Change Password',
  submit: 'Save Changes',
  updated: 'The study has been updated successfully.',
  failed: 'Failed to update study',
} as const;

export const CHANGE_PASSWORD_TEXTS = {
  title: 'Change Study Password',
  intro: (name: string) => `Set a new password for "${name}". Collaborators join with it.`,
  current: 'Current Password',
  next: 'New Password',
  confirm: 'Confirm New Password',
  nextHelper: 'Minimum 6 characters',
  submit: 'Change Password',
  changed: 'The study password has been changed successfully.',
  failed: 'Failed to change password',
} as const;

export const JOIN_STUDY_TEXTS = {
  title: 'Join Study as Collaborator',
  intro: 'Enter the study code and password you received from the study owner.',
  code: 'Study Code',
  password: 'Study Password',
  submit: 'Join Study',
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
