/**
 * Texts of the master dashboard. The product's wording is quoted as written (see docs/product.md);
 * the rest (marked 'ours') fill the gaps it leaves, e.g. dialog titles and confirmations. Failures
 * are ADMIN_MESSAGES (messages.ts).
 */

import { STUDY_MESSAGES } from './messages.js';
import { PLACEHOLDER_TEXTS } from './shell.js';

export const ADMIN_TEXTS = {
  title: 'Master Account Dashboard',
  // ours
  subtitle: 'Review researcher applications and manage researchers.',
  // ours: the accessible name of the stat card list
  statsLabel: 'Dashboard statistics',
  stats: {
    pending: 'Pending Applications',
    active: 'Active Researchers',
    total: 'Total Applications',
    rejected: 'Rejected Applications',
  },
  tabs: {
    // ours: the accessible name of the tab list
    label: 'Applications and researchers',
    // No count until it has loaded: '(0)' or '(…)' while loading would read as a number.
    pending: (n?: number) => `Pending Applications${n === undefined ? '' : ` (${n})`}`,
    approved: (n?: number) => `Approved Researchers${n === undefined ? '' : ` (${n})`}`,
    rejected: (n?: number) => `Rejected Applications${n === undefined ? '' : ` (${n})`}`,
  },
  noDescription: STUDY_MESSAGES.noDescription,
  never: 'Never',
  empty: {
    pendingTitle: 'No Pending Applications',
    pendingText: 'All researcher applications have been processed.',
    researchersTitle: 'No Researchers Found',
    researchersText: 'No approved researchers found.',
    rejectedTitle: 'No Rejected Applications',
    rejectedText: 'All applications are either pending or approved.',
  },
  columns: {
    applicant: 'Applicant',
    researcher: 'Researcher',
    institution: 'Institution',
    description: 'Description',
    researchArea: 'Research Area',
    status: 'Status',
    submitted: 'Submitted',
    approved: 'Approved Date',
    lastLogin: 'Last Login',
    rejected: 'Rejected Date',
    actions: 'Actions',
  },
  // ours, from here down
  tables: {
    pending: 'Pending applications',
    approved: 'Approved researchers',
    rejected: 'Rejected applications',
  },
  status: { pending: 'Pending', approved: 'Approved', rejected: 'Rejected' },
  actions: {
    viewDetails: 'View Details',
    approve: 'Approve',
    reject: 'Reject',
    close: 'Close',
    cancel: 'Cancel',
    viewApplication: 'View Application',
    reset: 'Reset for Resubmission',
    resetConfirm: 'Reset',
    download: 'Download',
  },
  dialogs: {
    detailsTitle: 'Application Details',
    researcherTitle: 'Researcher Application',
    rejectedTitle: 'Rejected Application',
    approveTitle: 'Approve Application',
    rejectTitle: 'Reject Application',
    approveIntro: (name: string) => `Approve the application of ${name}?`,
    rejectIntro: (name: string) => `Reject the application of ${name}?`,
    approvalNotes: 'Approval Notes',
    approvalHelper: 'Optional. Included in the approval e-mail.',
    rejectionReason: 'Rejection Reason *',
    documents: 'Verification Documents',
    noDocuments: 'No documents uploaded',
    downloadFailed: 'Failed to download document',
    notFound: 'The application could not be found.',
    resetTitle: 'Reset for Resubmission?',
    resetIntro: (name: string) =>
      `The application of ${name} leaves the rejected list and ${name} is e-mailed that a new application can be submitted. It still counts in Total Applications.`,
  },
  fields: {
    name: 'Name',
    email: 'Email',
    dateOfBirth: 'Date of Birth',
    phoneNumber: 'Phone Number',
    institution: 'Institution',
    department: 'Department',
    position: 'Position',
    researchArea: 'Research Area',
    description: 'Description',
    status: 'Status',
    submitted: 'Submitted',
    reviewed: 'Reviewed',
    rejected: 'Rejected',
    reviewNotes: 'Review Notes',
    personalInfo: 'Personal Information',
    institutionInfo: 'Institution',
  },
  notSpecified: PLACEHOLDER_TEXTS.notGiven,
  success: {
    approved: 'Application approved',
    rejected: 'Application rejected',
    reset: 'Application reset for resubmission',
  },
} as const;
