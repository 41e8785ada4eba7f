/**
 * Texts of the researcher application screens and calls where the product gives no wording (the
 * wording here is ours): the form, the status page, the server's answers and its e-mails. The
 * product's own texts, kept verbatim, are APPLICATION_MESSAGES (messages.ts); these complete them.
 */

import { RESEARCHER_DOCUMENTS } from '../constants.js';
import { ACCOUNT_FORM_TEXTS } from './auth.js';
import { VIEW_APPLICATION_STATUS } from './landing.js';
import { PLACEHOLDER_TEXTS } from './shell.js';

const MAX_MB = RESEARCHER_DOCUMENTS.maxFileBytes / (1024 * 1024);

/** /researcher/register: the application form. */
export const REGISTER_TEXTS = {
  title: 'Researcher Registration',
  intro:
    'Apply for researcher access to create and manage studies. An administrator reviews every application.',
  personalSection: 'Personal Information',
  professionalSection: 'Professional Information',
  documentsSection: 'Verification Documents',
  fields: {
    firstName: 'First Name',
    lastName: 'Last Name',
    email: ACCOUNT_FORM_TEXTS.emailAddress,
    dateOfBirth: 'Date of Birth',
    phoneNumber: 'Phone Number',
    institution: 'Institution/University',
    position: 'Position/Role',
    department: 'Department',
    researchArea: 'Research Area',
    description: 'Description',
  },
  emailLockedHelper: 'The e-mail address of your account.',
  phonePlaceholder: '(555) 123-4567',
  descriptionHelper: 'Optional. Tell us about your research and how you plan to use the platform.',
  documentsIntro: `Optional. Attach proof of your research affiliation, such as a staff ID or an appointment letter: up to ${RESEARCHER_DOCUMENTS.maxFiles} files (PDF, PNG or JPEG), ${MAX_MB} MB each.`,
  chooseFiles: 'Choose Files',
  documentsInputLabel: 'Verification documents',
  removeFile: (name: string) => `Remove ${name}`,
  fileTooLarge: (name: string) => `"${name}" is larger than ${MAX_MB} MB.`,
  wrongFileType: (name: string) => `"${name}" is not a PDF, PNG or JPEG file.`,
  fixFields: 'Please correct the highlighted fields.',
  submit: 'Submit Application',
  submitting: 'Submitting...',
  /** Around the address, which is shown in bold: before, then after. */
  submittedNote: [
    'Thank you for applying. A confirmation e-mail is on its way to ',
    ', and you will receive another e-mail once your application has been reviewed.',
  ],
  redirecting: 'Taking you to your application status in 3 seconds...',
  goToStatus: VIEW_APPLICATION_STATUS,
} as const;

/** /researcher/application-status: a pending or rejected application. */
export const APPLICATION_STATUS_TEXTS = {
  pendingTitle: 'Application Under Review',
  pendingChip: 'Pending Review',
  pendingIntro:
    'Thank you for applying. An administrator is reviewing your application; you will receive an e-mail as soon as a decision is made.',
  pendingWarningTitle: 'Please do not submit multiple applications',
  pendingWarnings: [
    'Your application is already in the review queue. Submitting another one will not speed up the review.',
    'If your details have changed, wait for the decision before applying again.',
  ],
  rejectedTitle: 'Application Not Approved',
  rejectedChip: 'Not Approved',
  rejectedIntro:
    'Unfortunately, your researcher application was not approved. You can read the reason below and submit a new application.',
  resubmit: 'Resubmit Application',
  name: 'Name',
  email: ACCOUNT_FORM_TEXTS.email,
  institution: 'Institution',
  submitted: 'Submitted',
  reason: 'Rejection Reason',
  reviewDate: 'Review Date',
  loadingDetails: PLACEHOLDER_TEXTS.loading,
  notGiven: PLACEHOLDER_TEXTS.notGiven,
} as const;

/** The server's answers of the application calls. */
export const APPLICATION_SERVER_MESSAGES = {
  alreadyPending:
    'You already have an application under review. Please wait for the decision before applying again.',
  alreadyApproved: 'Your application has already been approved.',
  emailMismatch: 'The email address must be the one you signed in with.',
  notPending: 'This application has already been reviewed.',
  notRejected: 'Only a rejected application can be reset for resubmission.',
  notFound: 'Application not found',
  masterAccount: 'The master account does not need a researcher application.',
} as const;

/** The e-mails of an application's life: received, approved, rejected, reopened. */
export const APPLICATION_EMAILS = {
  openPlatform: 'Open the platform',
  dear: (firstName: string) => `Dear ${firstName},`,
  received: {
    subject: 'We received your researcher application',
    paragraphs: [
      'Thank you for applying for researcher access. An administrator will review your application and you will receive an e-mail with the decision.',
      'You can follow the status of your application after signing in.',
    ],
  },
  approved: {
    subject: 'Your researcher application was approved',
    paragraphs: [
      'Your application for researcher access has been approved. You can now sign in and create studies.',
    ],
    notes: (notes: string) => `Notes from the reviewer: ${notes}`,
  },
  rejected: {
    subject: 'Your researcher application was not approved',
    paragraphs: ['After review, your application for researcher access was not approved.'],
    reason: (reason: string) => `Reason: ${reason}`,
    closing: 'You can sign in to see the details and submit a new application.',
  },
  reset: {
    subject: 'You can submit a new researcher application',
    paragraphs: [
      'An administrator has reopened your researcher application. Sign in to submit it again.',
    ],
  },
} as const;
