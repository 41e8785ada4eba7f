import { RESEARCHER_DOCUMENTS } from '@research/contracts';

/**
 * Texts of the application screens that the spec leaves out (DESIGN: 'not shown' is ours to
 * decide). Spec texts come from APPLICATION_MESSAGES in @research/contracts; these complete them.
 */
const MAX_MB = RESEARCHER_DOCUMENTS.maxFileBytes / (1024 * 1024);

export const REGISTER_TEXTS = {
  title: 'Researcher Registration',
  intro:
    'Apply for researcher access to create and manage studies. An administrator reviews every application.',
  personalSection: 'Personal Information',
  professionalSection: 'Professional Information',
  documentsSection: 'Verification Documents',
  emailLockedHelper: 'The e-mail address of your account.',
  phonePlaceholder: '(555) - 123 - 4567',
  descriptionHelper: 'Optional. Tell us about your research and how you plan to use the platform.',
  documentsIntro: `Optional. Attach proof of your research affiliation, such as a staff ID or an appointment letter: up to ${RESEARCHER_DOCUMENTS.maxFiles} files (PDF, PNG or JPEG), ${MAX_MB} MB each.`,
  chooseFiles: 'Choose Files',
  documentsInputLabel: 'Verification documents',
  removeFile: (name: string) => `Remove ${name}`,
  tooManyFiles: `You can attach at most ${RESEARCHER_DOCUMENTS.maxFiles} documents.`,
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
  goToStatus: 'View Application Status',
} as const;

export const STATUS_TEXTS = {
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
  email: 'Email',
  institution: 'Institution',
  submitted: 'Submitted',
  reason: 'Rejection Reason',
  reviewDate: 'Review Date',
} as const;
