/**
 * Texts for the account hardening (e-mail confirmation, text rules). The product gives no
 * wording for these, so they live here once and the server and web both use them.
 */
export const AUTH_HARDENING_MESSAGES = {
  confirmationSent: 'We sent a confirmation link to your e-mail address.',
  alreadyConfirmed: 'Your e-mail address is already confirmed.',
  confirmed: 'Your e-mail address is confirmed. You can now submit your researcher application.',
  confirmationInvalid:
    'This confirmation link is invalid, has expired or has already been used. Sign in and request a new one.',
  confirmationResendLimit:
    'Too many confirmation e-mails were requested. Please try again in an hour.',
  confirmationRequired:
    'Please confirm your e-mail address before submitting an application. Use the link we e-mailed you, or request a new one.',
  unconfirmedNotice:
    'Your e-mail address is not confirmed yet. Open the link we e-mailed you to confirm it before submitting your application.',
  resendButton: 'Resend confirmation e-mail',
  confirmingTitle: 'Confirming your e-mail address…',
  confirmedTitle: 'E-mail address confirmed',
  invalidTitle: 'Confirmation link not valid',
  nullCharacter: 'Text must not contain the null character (U+0000).',
  loneSurrogate:
    'Text must be valid Unicode: it holds half of a surrogate pair (U+D800 to U+DFFF) on its own.',
  multipartUnreadable: 'The upload could not be read. Please try again.',
  multipartBoundary: 'The upload could not be read: the multipart body has no boundary.',
} as const;
