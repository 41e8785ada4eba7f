/**
 * Texts of personal access tokens: the server's answers (to the panel and to scripts) and the
 * Access tokens panel of the study screen.
 */

/** The server's answers about tokens, and to calls made with one. */
export const ACCESS_TOKEN_MESSAGES = {
  nameRequired: 'Give the token a name',
  nameTooLong: (max: number) => `The name is too long (max ${max} characters)`,
  expiryInvalid: 'Choose how long the token lasts: 7, 30, 90 or 365 days',
  tooMany: (max: number) =>
    `You already have ${max} active tokens for this study. Revoke one you no longer use first.`,
  notFound: 'Access token not found',
  /** A token sent to a call that does not take one. */
  notAccepted:
    'Personal access tokens can only list participants, list and follow exports and download their files. Sign in to the web app for anything else.',
  unknown: 'This access token is not valid.',
  expired:
    'This access token has expired. Create a new one under Access tokens in the study’s Data export tab.',
  revoked: 'This access token was revoked.',
  studyDeleted: 'The study of this access token was deleted.',
  wrongStudy: 'This access token belongs to another study.',
  notAMember:
    'The account of this access token is no longer a member of the study, so the token no longer works.',
  tooManyRequests: (seconds: number) =>
    `Too many calls with this access token. Please try again in ${seconds} seconds.`,
} as const;

/** On-screen texts of the Access tokens panel. */
export const ACCESS_TOKEN_PANEL_TEXTS = {
  title: 'Access tokens',
  intro:
    'A personal access token lets your scripts read this study without a browser: list participants, start and follow exports and download their files. It acts as you, only for this study, and can read but never change anything else.',
  ownerIntro: 'As the study’s owner you see every member’s tokens and can revoke any of them.',
  create: 'Create token',
  empty: 'No access tokens yet.',
  loadFailed: 'The access tokens could not be loaded.',
  columns: {
    name: 'Name',
    owner: 'Owner',
    token: 'Token',
    created: 'Created',
    expires: 'Expires',
    lastUsed: 'Last used',
    state: 'State',
    actions: 'Actions',
  },
  states: { active: 'Active', expired: 'Expired', revoked: 'Revoked' },
  neverUsed: 'Never',
  lastUsedFrom: (ip: string) => `from ${ip}`,
  revoke: 'Revoke',
  revokeLabel: (name: string) => `Revoke the token ${name}`,
  createDialog: {
    title: 'Create an access token',
    name: 'Name',
    nameHelp: 'What the token is for, e.g. “nightly export script”.',
    expiry: 'Expires after',
    expiryOption: (days: number) => (days === 365 ? '1 year' : `${days} days`),
    cancel: 'Cancel',
    submit: 'Create token',
    submitting: 'Creating…',
  },
  createdDialog: {
    title: 'Your new access token',
    warning: 'Copy the token now: it will not be shown again.',
    secretLabel: 'Access token',
    copy: 'Copy',
    copied: 'Copied',
    copyFailed: 'Could not copy: select the token and copy it by hand.',
    usage:
      'Keep it in the WRP_TOKEN environment variable: the scripts under “Use from a script” read it from there. Calls send it as a bearer token, for example:',
    curl: (origin: string, studyId: string) =>
      `curl -H "Authorization: Bearer $WRP_TOKEN" ${origin}/api/studies/${studyId}/exports`,
    done: 'Done',
  },
  revokeDialog: {
    title: 'Revoke this token?',
    body: (name: string) =>
      `Scripts using “${name}” will stop working at once. This cannot be undone.`,
    cancel: 'Cancel',
    confirm: 'Revoke',
    confirming: 'Revoking…',
  },
  revoked: 'Token revoked.',
} as const;
