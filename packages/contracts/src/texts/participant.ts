import { PARTICIPANT_DOCUMENT_LIMITS } from '../constants.js';

/**
 * Texts of the participant screens and calls: enrolment, verification codes and the profile
 * form. The specified texts — step names, headers — are quoted exactly; the validation and
 * error messages that every layer shares live in messages.ts (ENROLMENT_MESSAGES,
 * VERIFICATION_MESSAGES, STUDY_CODE_MESSAGES). The rest is ours, shared by the server's answers
 * and the pages.
 */

// ---- Server answers and API reference ----

export const ENROLMENT_SERVER_MESSAGES = {
  enrolled: 'Enrollment successful. Please connect your Fitbit device.',
  resumed: 'Welcome back. Please continue your enrollment.',
  alreadyEnrolled: 'You are already enrolled in this study. Nothing was changed.',
  sessionRequired: 'Your session has expired. Please verify your email address again.',
  sessionMismatch: 'This session does not belong to this participant.',
  verificationRequired: 'Please verify your email address or phone number first.',
  updated: 'Your information was saved.',
  multipartRequired: 'Send the profile as multipart/form-data.',
  resendWait: (seconds: number) => `Please wait ${seconds} seconds before requesting a new code.`,
  tooManyCodes: 'Too many codes were sent to this address. Please try again in an hour.',
  codeExpired: 'This verification code has expired. Please request a new code.',
  sessionValid: 'Session is valid.',
  enrollmentCompleted: 'Enrollment complete.',
  /** The second limit of the public participant calls, per (study, e-mail or participant). */
  tooManyRequests: (seconds: number) =>
    `Too many requests for this study and participant. Please try again in ${seconds} seconds.`,
} as const;

/** The profile form's document rules, as the page checks them and the server answers them. */
export const PARTICIPANT_DOCUMENT_MESSAGES = {
  rejected: (name: string) =>
    `${name} is not an accepted document (pdf, doc, docx, jpg, jpeg, png or gif).`,
  tooLarge: (name: string) => `${name} is larger than 10 MB.`,
  tooManyKept: `You have already handed in ${PARTICIPANT_DOCUMENT_LIMITS.maxKeptFiles} documents, the most a participant can keep. Ask the research team if you need to send more.`,
} as const;

/** The e-mail and SMS that carry a code. */
export const VERIFICATION_CODE_TEXTS = {
  emailSubject: (studyName: string) => `Your verification code for ${studyName}`,
  emailTitle: 'Your verification code',
  preheader: (code: string) => `${code} is your verification code`,
  emailIntro: (studyName: string) =>
    `Use this code to verify your email address for the research study "${studyName}":`,
  emailExpiry: 'The code expires in 10 minutes. If you did not ask for it, ignore this email.',
  sms: (code: string, studyName: string) =>
    `${code} is your verification code for ${studyName}. It expires in 10 minutes.`,
} as const;

/** API reference text of the participant session header, on every call that reads it. */
export const PARTICIPANT_SESSION_DOC =
  'Requires the participant session: send the `sessionId` returned by a code verification (or by enrolment when the study does not require verification) in the `x-participant-session` header. Sessions last 60 minutes and are bound to one study and one participant.';

// ---- Pages ----

/** The four steps of /participant/enroll. */
export const ENROLL_STEPS = [
  'Enter Study Code',
  'Study Information',
  'Personal Information',
  'Fitbit Authorization',
] as const;

/** The eight steps of /participant/flow. */
export const FLOW_STEPS = [
  'Enter Study Code',
  'Enter Contact Info',
  'Verify Pending Status',
  'Choose Verification Method',
  'Enter Verification Code',
  'Fitbit Authorization',
  'Personal Information',
  'Complete',
] as const;

/** The four steps of /participant/verify-email. */
export const VERIFY_EMAIL_STEPS = [
  'Enter Information',
  'Email Verification',
  'Phone Verification',
  'Complete Enrollment',
] as const;

export const PARTICIPANT_COMMON_TEXTS = {
  stepOf: (step: number, total: number) => `Step ${step} of ${total}`,
  back: 'Back',
  continue: 'Continue',
  studyCodeLabel: 'Study Code',
  studyCodeHelp: 'The 6-8 character code from your invitation email.',
  verifyStudyCode: 'Verify Study Code',
  emailLabel: 'Email Address',
  phoneLabel: 'Phone Number',
  /** The profile's read-only phone when the study has none for the person. */
  phoneNotOnRecord: 'None on record',
  phoneHelp: 'Choose the country, or type the number with its code, e.g. +44 7700 900123',
  phoneCountryLabel: 'Country',
  firstNameLabel: 'First Name',
  lastNameLabel: 'Last Name',
  dateOfBirthLabel: 'Date of Birth',
  participantIdLabel: 'Participant ID',
  participantIdPlaceholder: 'P1a2b3c4d5e6f7a8b',
} as const;

export const ENROLL_TEXTS = {
  title: 'Join Research Study',
  subtitle: 'Enroll in a research study and connect your Fitbit device.',
  studyName: 'Study',
  description: 'Description',
  researcher: 'Researcher',
  /** The study lookup's researcher name when the study names none. */
  defaultResearcher: 'Research Team',
  noDescription: 'No description provided',
  enroll: 'Enroll and Connect Fitbit',
  codeTitle: 'Verify your email address',
  alreadyEnrolledTitle: 'You are already enrolled in this study',
  alreadyEnrolledBody:
    'Nothing was changed. To change your name or other details, choose Update My Details.',
  reconnect: 'Reconnect Fitbit',
  connect: 'Connect Fitbit',
  updateDetails: 'Update My Details',
  redirecting: 'Redirecting',
  redirectingBody: 'Taking you to Google to connect your Fitbit data…',
} as const;

export const PARTICIPANT_FLOW_TEXTS = {
  title: 'Participant Enrollment',
  subtitle:
    'You were invited to a research study. Confirm who you are and connect your Fitbit device.',
  contactHelp: 'Use the email address and phone number the research team has for you.',
  checking: 'Checking your approval status…',
  checkAgain: 'Check Again',
  methodLabel: 'Verification method',
  methodEmail: (email: string) => `Email (${email})`,
  methodPhone: (phone: string) => `Text message to ${phone}`,
  /**
   * The text option when check-pending gave back no number: either none is on record or the
   * typed one differs. One text for both, so the page tells nobody which.
   */
  methodPhoneMismatch: 'Text message (the phone number you entered does not match our records)',
  methodPhoneMismatchHelp:
    'To get a text message, go Back and enter the phone number the research team has for you.',
  sendCode: 'Send Code',
  sendNewCode: 'Send New Code',
  enterCode: 'Enter Code',
  codeStillValid: (channel: 'email' | 'phone') =>
    `We already sent a code to your ${channel}. It is still valid: enter it on the next step.`,
  newCodeIn: (seconds: number) => `You can ask for a new code in ${seconds} seconds.`,
  newCodeNow: 'You can also ask for a new code.',
  alreadyEnrolledTitle: 'You are already enrolled',
  alreadyEnrolledBody:
    'You joined this study before. You can reconnect your Fitbit device or update your details.',
  updateDetails: 'Update My Details',
  connectTitle: 'Connect your Fitbit device',
  connectBody:
    'A window opens where you sign in with the Google account your Fitbit device uses and allow the study to read your data.',
  connect: 'Connect Fitbit',
  connecting: 'Waiting for authorization…',
} as const;

export const CODE_ENTRY_TEXTS = {
  label: 'Verification Code',
  help: 'Enter the 6-digit code we sent you.',
  verify: 'Verify Code',
  resend: 'Resend Code',
  resendIn: (seconds: number) => `Resend code in ${seconds}s`,
  attempts: (counter: string) => `Attempts: ${counter}`,
} as const;

export const PARTICIPANT_VERIFY_TEXTS = {
  title: 'Participant Verification',
  subtitle:
    'Enter your participant ID and email address to check your participation status or to get a verification email.',
  checkStatus: 'Check Status',
  sendEmail: 'Send Verification Email',
  statusTitle: 'Your participation',
  status: 'Status',
  fitbit: 'Fitbit',
  fitbitConnected: 'Connected',
  fitbitNotConnected: 'Not connected',
  reconnect: 'Reconnect Fitbit Device',
  verifyToSeeStatus:
    'To see your enrollment and Fitbit status, send yourself a verification email and enter its code.',
} as const;

export const VERIFY_EMAIL_TEXTS = {
  title: 'Verify Your Identity',
  subtitle: 'Confirm your email address and phone number to continue your enrollment.',
  emailStepBody: (email: string) => `We will send a 6-digit code to ${email}.`,
  phoneStepBody: 'Enter the phone number the research team has for you. We will text you a code.',
  skipPhone: 'Skip',
  completeTitle: 'Verification complete',
  completeBody: 'You can now connect your Fitbit device and complete your profile.',
  completeButton: 'Continue Enrollment',
} as const;

export const PARTICIPANT_INFO_TEXTS = {
  title: 'Complete Your Profile',
  subtitle: 'Tell the research team a little more about you. Only your name is required.',
  additionalInfoLabel: 'Additional Information (optional)',
  additionalInfoHelp: 'Anything the research team should know, e.g. medical conditions or devices.',
  documentsTitle: 'Documents (optional)',
  documentsHelp: (limit: number) =>
    `Accepted: PDF, DOC, DOCX, JPG, JPEG, PNG and GIF. Up to ${limit} files, 10 MB each.`,
  addDocuments: 'Add Documents',
  remove: (name: string) => `Remove ${name}`,
  submit: 'Complete Profile',
  verifyAgain: 'Verify Again',
  saving: 'Saving…',
  successTitle: 'Profile Complete!',
  successBody: 'Thank you. Your information was saved. Taking you to the last step…',
} as const;

export const ENROLMENT_SUCCESS_TEXTS = {
  title: 'Enrollment Complete',
  thanks:
    'Thank you for joining the research study. Your Fitbit device is connected and your profile is complete.',
  participantId: 'Your Participant ID',
  keepId: 'Keep this ID: you need it to check your status or reconnect your device.',
  home: 'Return to Home',
} as const;

/** The study's enrolment settings in the Edit Study dialog. */
export const ENROLMENT_SETTINGS_TEXTS = {
  title: 'Participant enrollment',
  allowSelfEnrollment: 'Anyone with the study code can enroll',
  allowSelfEnrollmentHelp:
    'Off (default): only addresses on the pending roster (pre-enrolled or invited) can enroll. Anyone else is told: You are not approved for this study. Please contact the researcher.',
  requireVerification: 'Require email or phone verification',
  requireVerificationHelp:
    'On (default): participants prove their email address or phone number with a 6-digit code before connecting a wearable.',
  dataRetentionDays: 'Data retention (days)',
  dataRetentionHelp: 'How long participant data is kept after the study is deleted.',
} as const;
