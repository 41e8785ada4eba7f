/**
 * Texts of the accounts screens and calls where the product gives no wording (the wording here is
 * ours): the portal, Google sign-in, password reset, the master set-up, the server's answers and
 * its e-mails. The product's own texts, kept verbatim, are AUTH_MESSAGES (messages.ts); these
 * complete them.
 */

import { WEARABLE_MESSAGES } from './messages.js';
import { UNKNOWN_ERROR } from './shell.js';

/** The account forms' messages: sign-in, sign-up, set-up and reset. */
export const ACCOUNT_FORM_MESSAGES = {
  fillAllFields: 'Please fill in all fields',
  passwordsDoNotMatch: 'Passwords do not match',
  passwordTooShort: 'Password must be at least 6 characters',
  enterEmailFirst: 'Please enter your email address first',
  signInFailed: (reason: string = UNKNOWN_ERROR) => `Failed to sign in: ${reason}`,
  googleSignInFailed: (reason: string = UNKNOWN_ERROR) =>
    `Failed to sign in with Google: ${reason}`,
  createAccountFailed: (reason: string = UNKNOWN_ERROR) => `Failed to create account: ${reason}`,
  resetPasswordFailed: (reason: string = UNKNOWN_ERROR) => `Failed to reset password: ${reason}`,
  passwordResetSent: 'Password reset email sent! Check your inbox for instructions.',
  authenticating: 'Authenticating...',
} as const;

/** The fields of the account forms: portal, master set-up and password reset. */
export const ACCOUNT_FORM_TEXTS = {
  fullName: 'Full Name',
  email: 'Email',
  emailAddress: 'Email Address',
  password: 'Password',
  newPassword: 'New Password',
  confirmPassword: 'Confirm Password',
  passwordHelper: 'Minimum 6 characters',
} as const;

/** /researcher/auth, the Researcher Portal. */
export const PORTAL_TEXTS = {
  title: 'Researcher Portal',
  footer: 'Need help? Contact your research administrator',
  continueWithGoogle: 'Continue with Google',
  or: 'or',
  tabsLabel: 'Sign in or sign up',
  /** The tab and the button of the sign-in form. */
  signIn: 'Sign In',
  signUp: 'Sign Up',
  forgotPassword: 'Forgot your password?',
  createAccount: 'Create Account',
} as const;

export const GOOGLE_SIGN_IN_TEXTS = {
  /** Same wording as the wearable popup. */
  popupBlocked: WEARABLE_MESSAGES.popupBlocked,
  popupClosed: 'The sign-in window was closed before finishing.',
  cancelled: 'Sign-in was cancelled.',
  missingCode: 'Google did not return an authorization code.',
  callbackWorking: 'Finishing sign-in…',
  callbackNoOpener: 'This sign-in window was not opened by the Researcher Portal.',
  callbackBackToPortal: 'Go to the Researcher Portal',
} as const;

/** The server's answers of the account calls. */
export const AUTH_SERVER_MESSAGES = {
  signedIn: 'Signed in successfully',
  accountCreated: 'Account created successfully',
  signedInWithGoogle: 'Signed in with Google',
  masterCreated: 'Master account created',
  sessionExpired: 'Your session has expired. Please sign in again.',
  masterOnly: 'This action needs the master account.',
  invalidCredentials: 'Invalid email or password',
  tooManySignInAttempts: (minutes: number) =>
    `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  emailInUse: 'An account with this email already exists',
  invalidResetLink: 'This link is invalid or has expired. Please request a new one.',
  passwordChanged: 'Your password has been changed. You can now sign in.',
  invalidSetupLink: 'This set-up link is invalid or has already been used.',
  masterExists: 'A master account already exists.',
  googleUnavailable: 'Google sign-in is not reachable right now. Please try again later.',
  googleAttemptExpired: 'This sign-in attempt has expired. Please try again.',
  googleNotVerified: 'Google sign-in could not be verified. Please try again.',
  googleNoVerifiedEmail: 'Your Google account has no verified e-mail address.',
} as const;

/** /reset-password: the link of the reset e-mail, and of the 'set your password' one. */
export const RESET_PASSWORD_TEXTS = {
  resetTitle: 'Reset your password',
  setTitle: 'Set your password',
  checking: 'Checking your link...',
  accountLabel: 'Account',
  submit: 'Save password',
  goToSignIn: 'Go to sign in',
  requestNewLink: 'Back to the Researcher Portal',
  missingToken: AUTH_SERVER_MESSAGES.invalidResetLink,
  defaultSuccess: AUTH_SERVER_MESSAGES.passwordChanged,
} as const;

/** /confirm-email: the link of the confirmation e-mail (its titles: AUTH_HARDENING_MESSAGES). */
export const CONFIRM_EMAIL_TEXTS = {
  continue: 'Continue',
  goToSignIn: RESET_PASSWORD_TEXTS.goToSignIn,
} as const;

/** /setup: the one-time link printed at start that creates the master account. */
export const SETUP_TEXTS = {
  title: 'Create the master account',
  intro: 'This account reviews researcher applications and manages the platform.',
  invalidLink: AUTH_SERVER_MESSAGES.invalidSetupLink,
  checking: 'Checking your set-up link...',
  submit: 'Create master account',
  goHome: 'Go to home page',
} as const;

/** The account e-mails: a single-use link each. */
export const AUTH_EMAILS = {
  passwordReset: {
    subject: RESET_PASSWORD_TEXTS.resetTitle,
    preheader: 'Your password reset link (valid for one hour)',
    paragraphs: [
      'We received a request to reset the password of your Wearable Health Research Platform account.',
      'The link below works once and expires in one hour.',
      'If you did not ask for this, ignore this e-mail: your password stays as it is.',
    ],
    action: 'Reset password',
  },
  confirmEmail: {
    subject: 'Confirm your e-mail address',
    preheader: 'Confirm your address to submit your researcher application',
    paragraphs: [
      'Welcome to the Wearable Health Research Platform.',
      'Please confirm that this is your e-mail address. The link below works once and expires in 48 hours.',
      'If you did not create an account, ignore this e-mail: nothing happens without the link.',
    ],
    action: 'Confirm e-mail address',
  },
} as const;
