/** Answers of the public webhook that receives Google Health change notifications. */
export const WEBHOOK_MESSAGES = {
  unauthorized: 'The notification does not carry this endpoint’s authorization.',
  badSignature: 'The notification’s signature could not be verified.',
  invalidNotification: 'The notification could not be read.',
} as const;
