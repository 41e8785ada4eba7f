/**
 * Words the study detail screen's tables and dialogs share, and its count wording. Used by the
 * study texts only; not part of the package's surface.
 */

/** Words several tables and dialogs of the screen label with. */
export const LABEL = {
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

/** '1 participant', '2 participants'. */
export const plural = (count: number, one: string, many = `${one}s`) => (count === 1 ? one : many);
