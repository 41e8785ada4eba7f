import { WEARABLE_MESSAGES } from '@research/contracts';

/**
 * Texts of the accounts screens that the spec leaves out (DESIGN: 'not shown' is ours to decide).
 * Spec texts come from AUTH_MESSAGES in @research/contracts; these complete them.
 */
export const GOOGLE_SIGN_IN_TEXTS = {
  /** Same wording as the wearable popup of spec 001. */
  popupBlocked: WEARABLE_MESSAGES.popupBlocked,
  popupClosed: 'The sign-in window was closed before finishing.',
  cancelled: 'Sign-in was cancelled.',
  missingCode: 'Google did not return an authorization code.',
  callbackWorking: 'Finishing sign-in…',
  callbackNoOpener: 'This sign-in window was not opened by the Researcher Portal.',
  callbackBackToPortal: 'Go to the Researcher Portal',
} as const;

export const RESET_PASSWORD_TEXTS = {
  resetTitle: 'Reset your password',
  setTitle: 'Set your password',
  checking: 'Checking your link...',
  accountLabel: 'Account',
  submit: 'Save password',
  goToSignIn: 'Go to sign in',
  requestNewLink: 'Back to the Researcher Portal',
  missingToken: 'This link is invalid or has expired. Please request a new one.',
  defaultSuccess: 'Your password has been changed. You can now sign in.',
} as const;

export const SETUP_TEXTS = {
  title: 'Create the master account',
  intro: 'This account reviews researcher applications and manages the platform.',
  invalidLink: 'This set-up link is invalid or has already been used.',
  checking: 'Checking your set-up link...',
  submit: 'Create master account',
} as const;
