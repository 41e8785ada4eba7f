/**
 * Texts of electronic consent: the owner's Consent tab, the participant's consent step, the
 * withdrawal, the signed record and its e-mail, and the server's answers.
 */

import { CONSENT_LIMITS } from '../constants.js';

export const CONSENT_MESSAGES = {
  markdownTooLong: `The consent form is too long (max ${CONSENT_LIMITS.markdownMaxChars.toLocaleString('en-US')} characters).`,
  formEmpty: 'Write the consent form or upload it as a PDF.',
  tooManyStatements: `At most ${CONSENT_LIMITS.maxStatements} statements can be listed.`,
  statementEmpty: 'A statement cannot be empty.',
  statementTooLong: `A statement is too long (max ${CONSENT_LIMITS.statementMaxChars} characters).`,
  noDraft: 'There is no draft to publish. Save the consent form first.',
  pdfRequired: 'Choose the consent form as a PDF file.',
  pdfRejected: (name: string) => `${name} is not a PDF file.`,
  pdfTooLarge: (name: string) => `${name} is larger than 10 MB.`,
  fullNameRequired: 'Type your full name to sign.',
  fullNameTooLong: `Your name is too long (max ${CONSENT_LIMITS.fullNameMaxChars} characters).`,
  statementsIncomplete: 'Tick every statement to give your consent.',
  versionChanged:
    'The consent form was changed while you were reading it. Please read the new version.',
  noForm: 'The study has not published its consent form yet. Please try again later.',
  notRequired: 'This study does not ask for a consent form.',
  alreadyWithdrawn: 'You have withdrawn from this study.',
  signBeforeConnecting:
    'Please sign the consent form from your study link before connecting your Fitbit.',
  participantWithdrawn: 'This participant has withdrawn from the study.',
  noSignature: 'There is no signed consent to download.',
  signatureNotFound: 'Signed consent not found.',
  versionNotFound: 'Consent form version not found.',
  participantNotFound: 'Participant not found.',
  copyLinkInvalid: 'This download link is invalid or has expired.',
  signed: 'Thank you. Your consent was recorded.',
  withdrawn: 'You have withdrawn from the study. No more data will be collected.',
  withdrawalRecorded: 'The withdrawal was recorded. No more data will be collected.',
  draftSaved: 'Draft saved.',
  published: (number: number) => `Version ${number} is published.`,
} as const;

/** Why collection or extraction left a participant out (the run's job says it). */
export const CONSENT_HOLD_REASONS = {
  consent_pending: 'Held back: the participant has not consented to the consent form in force.',
  withdrawn: 'Held back: the participant has withdrawn from the study.',
} as const;

/** The owner's Consent tab on the study screen. */
export const CONSENT_TAB_TEXTS = {
  tab: 'Consent',
  title: 'Consent form',
  requiredOn:
    'Consent is required: participants read and sign the form after verifying their address and before connecting their wearable. Nothing is collected from a participant without consent to the version in force.',
  requiredOff:
    'Consent is not required for this study. Turn it on in Edit Study to have participants sign a consent form.',
  noVersion:
    'No version is published yet: participants cannot connect until you publish the consent form.',
  readOnly: 'Only the study owner can change the consent form.',
  editorTitle: 'Draft',
  markdownLabel: 'Consent form (Markdown)',
  markdownHelp: 'Headings (#), lists (-), **bold** and *italic*. HTML is not shown.',
  preview: 'Preview',
  emptyPreview: 'The preview appears here as you type.',
  statementsTitle: 'Statements the participant ticks',
  statementLabel: (n: number) => `Statement ${n}`,
  addStatement: 'Add statement',
  removeStatement: (n: number) => `Remove statement ${n}`,
  pdfTitle: 'Or upload the form as a PDF',
  pdfChoose: 'Choose PDF',
  pdfChosen: (name: string) => `Draft form: ${name}`,
  pdfClear: 'Write in Markdown instead',
  saveDraft: 'Save draft',
  publish: 'Publish',
  publishTitle: 'Publish this version?',
  publishBody: (number: number) =>
    `This becomes version ${number}. Earlier versions and their signatures stay readable.`,
  reconsentLabel: 'Existing participants must consent again',
  reconsentHelp:
    'Their data is held back until they sign the new version, which they are shown the next time they open their link.',
  cancel: 'Cancel',
  versionsTitle: 'Versions',
  noVersions: 'No version published yet.',
  versionLabel: (number: number) => `Version ${number}`,
  versionMeta: (publishedAt: string, signatures: number, reconsent: boolean) =>
    `Published ${publishedAt} · ${signatures} ${signatures === 1 ? 'signature' : 'signatures'}${reconsent ? ' · re-consent asked' : ''}`,
  inForce: 'In force',
  openPdf: 'Open PDF',
  signaturesTitle: 'Signatures',
  noSignatures: 'No participant has signed yet.',
  signatureColumns: {
    participant: 'Participant',
    name: 'Signed as',
    version: 'Version',
    signedAt: 'Signed',
    address: 'From address',
    record: 'Record',
  },
  downloadRecord: 'PDF',
  heldBackTitle: 'Held back',
  sha256: 'SHA-256',
  failed: 'The consent form could not be saved. Please try again.',
} as const;

/** Labels of a participant's consent state on participant rows and the Adherence tab. */
export const CONSENT_STATE_LABELS = {
  pending: 'Consent pending',
  withdrawn: 'Withdrawn',
  pendingHelp: 'No data is collected until the participant signs the consent form in force.',
  withdrawnHelp: 'The participant withdrew: nothing more is collected.',
  /** The Adherence tab's note: whose data is held back, by name of state. */
  heldBackNote: (pending: readonly string[], withdrawn: readonly string[]) =>
    [
      pending.length > 0
        ? `Consent pending (data held back until they sign): ${pending.join(', ')}.`
        : '',
      withdrawn.length > 0 ? `Withdrawn (nothing more collected): ${withdrawn.join(', ')}.` : '',
    ]
      .filter(Boolean)
      .join(' '),
} as const;

/** The participant's consent step and the withdrawal. */
export const CONSENT_STEP_TEXTS = {
  title: 'Consent form',
  intro: 'Please read the consent form to the end, then tick each statement and sign.',
  reconsentIntro:
    'The study has a new version of its consent form. Please read it and sign again; until then no data is collected.',
  version: (number: number) => `Version ${number}`,
  scrollHint: 'Scroll to the end of the form to continue.',
  pdfForm: 'The consent form is a PDF document.',
  openPdf: 'Open the consent form (PDF)',
  pdfRead: 'I have opened and read the consent form',
  statementsTitle: 'I agree that:',
  fullNameLabel: 'Your full name',
  sign: 'Sign',
  signedTitle: 'Consent signed',
  signedBody: (number: number, when: string) =>
    `You signed version ${number} on ${when}. A copy was sent to your e-mail address.`,
  downloadCopy: 'Download my copy',
  continue: 'Continue',
  noForm: CONSENT_MESSAGES.noForm,
  withdraw: 'Withdraw from the study',
  withdrawTitle: 'Withdraw from the study?',
  withdrawBody:
    'No more data will be collected and your wearable connection is removed. What happens to the data collected so far follows the study’s rules, which the consent form describes.',
  withdrawConfirm: 'Withdraw',
  cancel: 'Cancel',
  withdrawnTitle: 'You have withdrawn',
  withdrawnBody: 'You have withdrawn from this study. No more data is collected.',
} as const;

/** The researcher's withdrawal on a participant's behalf. */
export const CONSENT_WITHDRAW_TEXTS = {
  action: 'Record withdrawal',
  title: 'Record a withdrawal?',
  body: (keep: boolean) =>
    `Collection stops at once and the participant's Google grant is revoked. ${keep ? 'The data collected so far is kept (the study’s setting).' : 'The data collected so far is deleted (the study’s setting).'}`,
  confirm: 'Record withdrawal',
  cancel: 'Cancel',
} as const;

/** The signed record (PDF) and its e-mail. */
export const CONSENT_RECORD_TEXTS = {
  title: 'Signed consent record',
  study: 'Study',
  participant: 'Participant ID',
  version: 'Consent form version',
  versionSha: 'SHA-256 of the form',
  signedBy: 'Signed by (typed name)',
  signedAt: 'Signed at (UTC)',
  address: 'From address',
  statements: 'Statements agreed to',
  form: 'Consent form',
  pdfForm: (name: string) => `The form is the PDF document "${name}"; its pages follow.`,
  mailSubject: (studyName: string) => `Your signed consent – ${studyName}`,
  mailTitle: 'Your signed consent',
  mailBody: (studyName: string, number: number) =>
    `Thank you for consenting to take part in ${studyName}. You signed version ${number} of the consent form. Keep your copy: the link below downloads it for 30 days, and you can download it again from your study link at any time.`,
  mailAction: 'Download my copy',
} as const;

/** The study settings' fields for consent (Create and Edit Study). */
export const CONSENT_SETTING_TEXTS = {
  consentRequired: 'Participants must sign a consent form',
  consentRequiredHelp:
    'Shown after verification and before the wearable step; nothing is collected without consent.',
  withdrawalData: 'When a participant withdraws',
  keep: 'Keep the data collected so far',
  delete: 'Delete the data collected so far',
} as const;
