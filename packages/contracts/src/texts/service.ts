/**
 * What the API says when it cannot do its work for a moment (its database is out of reach): the
 * caller should simply try again, so the text says so and never names the cause.
 */
export const SERVICE_MESSAGES = {
  databaseUnavailable: 'The service is briefly unavailable. Please try again in a minute.',
} as const;

/** The `Retry-After` of that answer, in seconds: the same minute the text promises. */
export const SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS = 60;
