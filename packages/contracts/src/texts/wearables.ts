/**
 * Texts of the wearable connection that the product leaves to us (its popup, callback and
 * reauthorization messages live in messages.ts: WEARABLE_MESSAGES, REAUTH_MESSAGES): the server's
 * answers, the study's authorization listing, the reauthorization e-mail and the pages around the
 * consent.
 */

import { REAUTH_MESSAGES } from './messages.js';

export const WEARABLE_SERVER_MESSAGES = {
  /** One answer for an unknown participant, a wrong e-mail or another study's participant. */
  participantMismatch: REAUTH_MESSAGES.verificationFailed,
  notConnected: 'This participant has not connected a wearable account.',
  needsReauthorization:
    'The participant must reconnect their wearable account: the provider no longer accepts the stored grant.',
  refreshed: 'Access token refreshed.',
  revoked: 'Wearable access revoked.',
  connected: 'Wearable account connected.',
  providerUnavailable: 'The wearable provider did not answer. Please try again in a few minutes.',
  accountNotLinked:
    'This Google account has no Fitbit or Google Health data. Please choose the Google account your Fitbit device uses.',
  stateExpired: 'This authorization link has expired. Please start the connection again.',
  clientMismatch: 'This authorization was started in another browser. Please start it again here.',
  noScopesGranted: 'No health data was shared. Please allow at least one kind of data.',
  tokensFromBrowser: 'Tokens are kept on the server',
  /** A reauthorization completed with a Google account other than the connected one. */
  googleAccountInUse:
    'This Google account is already connected for another participant of this study, so nothing was changed. Please sign in with your own Google account.',
  /**
   * Also the answer when there was nothing to renew: the reauthorization path does not tell a
   * connected participant from one who never connected.
   */
  otherGoogleAccount:
    'This is not the Google account connected to your participation, so nothing was changed. Please sign in with the Google account your Fitbit device uses. If you have not connected a Fitbit device yet, start from your study invitation and verify your email first.',
} as const;

/** Authorization listing on the study screen's Data Extraction tab. */
export const WEARABLE_LISTING_TEXTS = {
  title: 'Wearable Authorizations',
  /**
   * What changed with Google (docs/wearables.md#what-researchers-are-told) in one plain sentence
   * for researchers.
   */
  providerNote:
    'Fitbit data now comes through the Google Health API: participants sign in with Google and may share only some kinds of data, the profile holds only age, heart-rate zones follow Google’s model, and while the app is in testing mode access lasts 7 days before participants must reconnect.',
  empty: 'No participants yet.',
  columns: {
    id: 'ID',
    participantId: 'Participant ID',
    name: 'Name',
    email: 'Email',
    authorizationStatus: 'Authorization Status',
    tokens: 'Tokens',
    wearableUserId: 'Wearable User ID',
    scopes: 'Granted Data Scopes',
    actions: 'Actions',
  },
  authorized: 'Authorized',
  notAuthorized: 'Not Authorized',
  needsReauthorization: 'Needs Reauthorization',
  /** Active, but the grant's stored expiry (Testing mode: 7 days) has passed. */
  expired: 'Expired',
  revoked: 'Revoked',
  yes: 'Yes',
  no: 'No',
  /** Before the scopes the participant left unticked on Google's page. */
  notShared: 'Not shared:',
  refresh: 'Refresh token',
  refreshFailedTitle: 'Failed to Refresh Token',
  refreshedTitle: 'Token Refreshed',
} as const;

/** The reauthorization e-mail (sent at most once a day per participant). */
export const REAUTH_MAIL_TEXTS = {
  subject: 'Please reconnect your Fitbit device',
  title: 'Reconnect your Fitbit device',
  intro: (studyName: string) =>
    `Your Fitbit device is no longer connected to the study "${studyName}". Access to wearable data expires from time to time, and the study needs your permission again to keep collecting data.`,
  instruction:
    'Open the link below and sign in with the Google account your Fitbit device uses. It takes about a minute.',
  action: 'Reconnect Fitbit Device',
  /** The link fills the ID in; the mail names it too, for the pages that ask for it. */
  participantIdLine: (participantId: string) =>
    `Your participant ID is ${participantId}. The link fills it in for you.`,
  footer:
    'You receive this e-mail because you take part in a research study. If you no longer wish to take part, contact the research team.',
} as const;

/** /fitbit/reauthorize, the link of the reauthorization e-mail: the page copy. */
export const REAUTHORIZE_TEXTS = {
  title: 'Reconnect Your Fitbit Device',
  subtitle: 'Your study needs permission again to keep collecting data from your Fitbit device.',
  whyTitle: 'Why is reauthorization needed?',
  reasons: [
    'Access tokens expire periodically, and your permission has to be renewed.',
    'Renewing it keeps the study’s data collection running without interruption.',
    'For your security, access is only granted again after you confirm who you are.',
  ],
  quickTitle: 'Quick Reauthorization',
  quickBody: (participantId: string) =>
    `Reconnect the Fitbit device of participant ${participantId}. You will confirm your e-mail address first.`,
  reconnect: REAUTH_MAIL_TEXTS.action,
  reconnecting: 'Connecting...',
  participantIdLabel: 'Participant ID',
  participantIdPlaceholder: 'P1a2b3c4d5e6f7a8b',
  emailLabel: 'Email Address',
  helpTitle: 'Need help?',
  /** The reauthorization e-mail's link fills in the ID; the person never has to know it. */
  helpBody:
    'The link in the study’s reconnect e-mail fills in your participant ID for you, and the e-mail names it too; so does the last page of your enrollment. Sign in with the Google account your Fitbit device uses. If you cannot find your ID, please contact the research team.',
  verifyLink: 'Check Participation Status',
  googleNote: 'You will be asked to sign in with Google, which now provides Fitbit data.',
} as const;

/** /fitbit/callback's buttons after a failure. */
export const CALLBACK_TEXTS = {
  backHome: 'Return to Home',
  tryAgain: 'Try Again',
} as const;
