/**
 * User-facing texts in the product's wording, copied character for character (see
 * docs/product.md). Forms,
 * toasts and server errors take their wording from here so that web and API never drift apart.
 * Texts with a placeholder ('{reason}', '...') are functions.
 */

import {
  DOCUMENT_MAX_FILES,
  MAX_EMAIL_CODE_ATTEMPTS,
  STUDY_CREATE_WAIT_MESSAGE,
} from '../constants.js';
import { UNKNOWN_ERROR } from './shell.js';

/** Notification titles shared by the dashboard and the study screen. */
/** Attaching documents (application and participant profile): the page and the server say the same. */
export const DOCUMENT_UPLOAD_MESSAGES = {
  tooManyFiles: `You can attach at most ${DOCUMENT_MAX_FILES} documents.`,
} as const;

export const NOTIFICATION_TITLES = {
  authenticationRequired: 'Authentication Required',
  authenticationError: 'Authentication Error',
  validationError: 'Validation Error',
} as const;

/**
 * 'Authentication required to ...' for a missing token; `action` completes the
 * sentence, e.g. 'send invitations'. Without an action the bare text is used (bucket, extraction).
 */
export const authenticationRequiredTo = (action?: string): string =>
  action === undefined ? 'Authentication required' : `Authentication required to ${action}`;

/** Study create / edit / password / join rules and dashboard toasts. */
export const STUDY_MESSAGES = {
  nameRequired: 'Study name is required',
  descriptionRequired: 'Study description is required',
  passwordTooShort: 'Password must be at least 6 characters',
  allPasswordFieldsRequired: 'All password fields are required',
  newPasswordsDoNotMatch: 'New passwords do not match',
  newPasswordTooShort: 'New password must be at least 6 characters long',
  invalidPasswordTitle: 'Invalid Password',
  currentPasswordIncorrect: 'Current password is incorrect',
  joinFieldsRequired: 'Please enter both study code and password',
  createWait: STUDY_CREATE_WAIT_MESSAGE,
  updating: 'Updating...',
  changing: 'Changing...',
  joining: 'Joining...',
  notFound: 'Study not found',
  noDescription: 'No description provided',

  loginToViewStudies: 'Please log in to view your studies',
  loginToDeleteStudy: 'Please log in to delete study',
  loginToCreateStudy: 'Please log in to create a study',
  loginToUpdateStudy: 'Please log in to update study',
  loginToChangePassword: 'Please log in to change password',
  authRequiredToJoin: 'Authentication required to join study',
  authRequiredToLoad: 'Authentication required to load study data',
  authRequiredToUpdate: 'Authentication required to update study',

  loadStudiesFailedTitle: 'Failed to Load Studies',
  loadOwnedStudiesFailed: 'Failed to load owned studies',
  loadStudyFailedTitle: 'Failed to Load Study',
  loadStudyFailed: 'An unexpected error occurred while loading study data',
  deleteFailedTitle: 'Failed to Delete Study',
  createFailedTitle: 'Failed to Create Study',
  updateFailedTitle: 'Failed to Update Study',
  changePasswordFailedTitle: 'Failed to Change Password',
  joinFailedTitle: 'Failed to Join Study',
  joinFailed: 'Invalid study code or password',

  copyFailedTitle: 'Copy Failed',
  copyFailedDetailTitle: 'Failed to Copy',
  copyFailed: 'Failed to copy study code to clipboard',
  codeCopied: 'Study code has been copied to clipboard',

  deletedTitle: 'Study Deleted',
  createdTitle: 'Study Created',
  updatedTitle: 'Study Updated',
  passwordChangedTitle: 'Password Changed',
  joinedTitle: 'Study Joined',
  joined: 'You have successfully joined the study as a collaborator',
} as const;

/** Study code entry. */
export const STUDY_CODE_MESSAGES = {
  required: 'Please enter a study code',
  invalidFormat: 'Study code must be 6-8 characters (letters and numbers only)',
  invalid: 'Invalid study code. Please check and try again.',
  notFound: 'Study not found. Please check the study code.',
  found: 'Study found! Please enter your contact information.',
} as const;

/** Researcher application form, status page and master review. */
export const APPLICATION_MESSAGES = {
  submitted: 'Application Submitted Successfully!',
  submitFailed: 'Failed to submit application. Please try again.',
  invalidStatus: 'Invalid application status',
  loadRejectionFailed: 'Failed to load rejection details',
  noReason: 'No specific reason provided',
  dateNotAvailable: 'Date not available',
  rejectionReasonRequired: 'Rejection reason is required',
  rejectionReasonRequiredOnReject: 'Rejection reason is required when rejecting an application.',
} as const;

/** Master dashboard failures. */
export const ADMIN_MESSAGES = {
  loadApplicationsFailed: 'Failed to load applications',
  loadResearchersFailed: 'Failed to load researchers',
  loadRejectedFailed: 'Failed to load rejected applications',
  resetFailed: 'Failed to reset application',
  processFailed: 'Failed to process application',
  loadDashboardFailed: 'Failed to load dashboard data',
} as const;

/** Data extraction panel. */
export const EXTRACTION_MESSAGES = {
  selectParticipant: 'Please select at least one participant',
  selectDataType: 'Please select at least one data type',
  selectDate: 'Please select a date',
  selectBothDates: 'Please select both start and end dates',
  startFailed: (reason: string) => `Failed to start extraction: ${reason}`,
  jobRequestFailed: 'Network error or request failed',
} as const;

/** Study storage bucket. */
export const BUCKET_MESSAGES = {
  generateUrlFailed: 'Failed to generate bucket URL',
  accessFailed: (reason: string) => `Failed to access bucket: ${reason}`,
} as const;

/** CSV roster upload. */
export const CSV_MESSAGES = {
  notCsv: 'File must be a CSV file',
  tooLarge: 'File size must be less than 5MB',
  empty: 'CSV file is empty',
  parseFailed: 'Failed to parse CSV file',
  readFailed: 'Failed to read CSV file',
} as const;

/**
 * Per-participant roster rules. Each message is prefixed with 'Participant N'; the product
 * gives no separator, so we use ': ' (see `participantMessage`).
 */
export const PARTICIPANT_LIST_MESSAGES = {
  atLeastOne: 'At least one participant is required',
  emailRequired: 'Email is required',
  invalidEmail: 'Invalid email format',
  invalidPhone: 'Invalid phone number format',
  firstNameTooLong: 'First name is too long (max 100 characters)',
  lastNameTooLong: 'Last name is too long (max 100 characters)',
} as const;

/**
 * Phone numbers in every form. `invalid` is the long-standing text schemas answer with; the others
 * say what is wrong when the web can tell (a number of the wrong length for its country).
 */
export const PHONE_MESSAGES = {
  invalid: PARTICIPANT_LIST_MESSAGES.invalidPhone,
  tooShort: 'This phone number is too short for the chosen country',
  tooLong: 'This phone number is too long for the chosen country',
  unknownCountryCode: 'Unknown country code: check the digits after +',
} as const;

/** 'Participant N: message', N counted from 1 as people count rows. */
export const participantMessage = (position: number, message: string): string =>
  `Participant ${position}: ${message}`;

/** Participant invitations. */
export const INVITE_MESSAGES = {
  addAtLeastOne: 'Please add at least one participant',
  enterEmails: 'Please enter participant email addresses',
  validEmails: 'Please enter valid email addresses',
  validPhones: 'Please enter valid phone numbers, such as (555) 123-4567 or +44 7700 900123',
  studyNameRequired: 'Study name is required',
  studyDescriptionRequired: 'Study description is required',
  authRequired: 'Authentication required to send invitations',
  sendFailedTitle: 'Failed to Send Invitations',
  sendFailed: 'An error occurred while sending invitations',
  sendUnexpected: 'An unexpected error occurred while sending invitations',
  sentTitle: 'Invitations Sent',
  durationNotSpecified: 'Not specified',
  invitationSubject: (studyName: string) => `Invitation to participate in ${studyName}`,
  collaboratorSubject: (studyName: string) => `Collaborator Invitation: ${studyName}`,
} as const;

/** Contact e-mails to participants or collaborators. */
export const CONTACT_MESSAGES = {
  titleAndContentRequired: 'Email title and content are required',
  selectRecipient: 'Please select at least one recipient',
  authRequired: 'Authentication required to send emails',
  sendFailedTitle: 'Failed to Send Emails',
  sentTitle: 'Emails Sent',
} as const;

/** Researcher actions on participants and pending participants. */
export const PARTICIPANT_MESSAGES = {
  namesRequired: 'First name and last name are required',
  noneSelected: 'No participant selected',
  authRequiredToView: 'Authentication required to view participant details',
  authRequiredToDelete: 'Authentication required to delete participant',
  authRequiredToEdit: 'Authentication required to edit participant',
  loadDetailsFailedTitle: 'Failed to Load Details',
  deleteFailedTitle: 'Failed to Delete Participant',
  updateFailedTitle: 'Failed to Update Participant',
  removeFailedTitle: 'Failed to Remove Participant',
  deletedTitle: 'Participant Deleted',
  updatedTitle: 'Participant Updated',
  removedTitle: 'Participant Removed',
} as const;

/** Participant enrolment, pre-approved flow and profile form. */
export const ENROLMENT_MESSAGES = {
  fillRequiredFields: 'Please fill in all required fields',
  underAge: 'You must be at least 18 years old to participate',
  missingInformation: 'Missing required information',
  contactInfoRequired: 'Please enter both email and phone number',
  missingParticipantData: 'Missing participant data. Please restart the enrollment process.',
  enrollFailed: 'Failed to enroll participant',
  authUrlFailed: 'Failed to get Fitbit authorization URL',
  notApproved: 'You are not approved for this study. Please contact the researcher.',
  checkPendingFailed: 'Failed to check pending status',
  approved: 'You are approved for this study! Please choose your verification method.',
  updateInfoFailed: 'Failed to update participant information',
} as const;

export type VerificationChannel = 'email' | 'phone';

/** Participant verification codes and lookups. */
export const VERIFICATION_MESSAGES = {
  invalidCodeFormat: 'Please enter a valid 6-digit code',
  codeRequired: 'Please enter the verification code',
  tooManyAttempts: 'Too many failed attempts. Please request a new code.',
  idAndEmailRequired: 'Please enter both Participant ID and email address',
  idAndEmailRequiredFirst: 'Please enter both Participant ID and email address first',
  sendCodeFailed: 'Failed to send verification code',
  invalidCode: 'Invalid verification code',
  failed: 'Verification failed. Please check your information and try again.',
  sendEmailFailed: 'Failed to send verification email',
  codeSent: (channel: VerificationChannel) => `Verification code sent to your ${channel}!`,
  success: 'Verification successful!',
  emailSuccess: 'Email verification successful!',
  phoneSuccess: 'Phone verification successful!',
  /** Attempts counter shown as 'n/3'. */
  attempts: (used: number) => `${used}/${MAX_EMAIL_CODE_ATTEMPTS}`,
} as const;

/** Wearable authorization popup and callback. */
export const WEARABLE_MESSAGES = {
  popupBlocked: 'Popup blocked. Please allow popups for this site and try again.',
  authorizationFailed: 'Fitbit authorization failed',
  cancelledByUser: 'Authorization cancelled by user',
  configurationInvalid:
    'The study’s connection to Google is not set up correctly. Please tell the research team.',
  initiateFailed: 'Google’s page could not be opened. Please try again in a few minutes.',
  /**
   * What Google's answer means for the person; the provider's code itself (`access_denied`,
   * `server_error`, …) is never shown.
   */
  callbackFailed: (error: string, canTryAgain = true) =>
    error === 'access_denied'
      ? `You chose Cancel on Google’s page, so nothing was shared and nothing was changed.${canTryAgain ? ' Choose Try Again to go back to Google’s page.' : ''}`
      : 'Google could not finish connecting your Fitbit device. Please try again in a few minutes.',
  missingCodeOrState:
    'Google sent you back without the answer this page needs. Please start the connection again.',
  invalidState:
    'This connection attempt was already used or is not valid any more. Please start the connection again.',
  missingStudyCode:
    'This browser no longer knows which study you were connecting to. Please start the connection again.',
  missingParticipantId:
    'This page could not tell which participant you are. Please start again from your study invitation.',
  missingPkceVerifier:
    'This browser no longer holds the connection you started (it may have been started in another tab or browser). Please start the connection again here.',
  processFailed: 'Your Fitbit device could not be connected. Please try again in a few minutes.',
  exchangeFailed:
    'Google did not accept this connection attempt (it may have expired). Please start the connection again.',
  storeTokensFailed: 'Your connection could not be saved. Please start the connection again.',
  openerDefaultError: 'Authorization failed',
  processing: 'Processing Fitbit authorization...',
  connectedTitle: 'Fitbit Connected Successfully!',
  connected:
    'Your Fitbit device has been successfully connected to the study. You can now participate in health data collection.',
  /** Only a popup closes itself. */
  closingAutomatically: 'Authorization complete. This window will close automatically.',
  /** In the participant's own tab: the page moves on by itself. */
  continuingShortly: 'Authorization complete. You will be taken to the next step in a moment.',
  /** Some kinds of data were left unticked on Google's page. */
  connectedPartlyTitle: 'Fitbit Connected — Some Data Not Shared',
  sharedKinds: (kinds: string) => `You shared: ${kinds}.`,
  missingKinds: (kinds: string) =>
    `Not shared: ${kinds}. The study cannot use this kind of data unless you share it.`,
  shareRest: 'Share the Missing Data',
  shareRestHint:
    'This takes you back to Google’s page, where you can tick the kinds you left out. Sign in with the same Google account.',
  continueAnyway: 'Continue Without It',
  closeWindow: 'Close This Window',
  failedTitle: 'Authorization Failed',
  failed: 'There was an issue connecting your Fitbit device.',
  /** Try Again could not find who was connecting (a link the study made on the server). */
  restartFromStudy:
    'To try again, open the link from your study e-mail again, or start from your study invitation.',
} as const;

/** Reauthorization page. */
export const REAUTH_MESSAGES = {
  emailRequired: 'Email is required for verification.',
  participantIdRequired: 'Please enter your Participant ID',
  idAndEmailRequired: 'Please enter both Participant ID and email address',
  verificationFailed: 'Participant verification failed. Please check your information.',
  failed: (reason: string = UNKNOWN_ERROR) => `Reauthorization failed: ${reason}`,
  initiateFailed: (reason: string) => `Failed to initiate reauthorization: ${reason}`,
} as const;
