import { WEARABLE_MESSAGES, WEARABLE_SERVER_MESSAGES } from '@research/contracts';
import { AppError } from '../../errors.js';
import { GoogleHealthError } from '../../platform/google-health/index.js';

export const mismatch = () =>
  new AppError(404, 'PARTICIPANT_MISMATCH', WEARABLE_SERVER_MESSAGES.participantMismatch);
export const invalidState = () =>
  new AppError(400, 'INVALID_STATE', WEARABLE_MESSAGES.invalidState);
export const stateExpired = () =>
  new AppError(400, 'STATE_EXPIRED', WEARABLE_SERVER_MESSAGES.stateExpired);
export const notConnected = () =>
  new AppError(404, 'NOT_CONNECTED', WEARABLE_SERVER_MESSAGES.notConnected);
export const needsReauth = () =>
  new AppError(409, 'NEEDS_REAUTHORIZATION', WEARABLE_SERVER_MESSAGES.needsReauthorization);
/** A reauthorization that cannot renew anything: told like another Google account. */
export const notTheConnectedAccount = () =>
  new AppError(409, 'OTHER_GOOGLE_ACCOUNT', WEARABLE_SERVER_MESSAGES.otherGoogleAccount);

/** Provider failures as API errors; a message never carries a token or provider internals. */
export function providerError(error: unknown, fallback: string): AppError {
  if (error instanceof GoogleHealthError) {
    if (error.kind === 'account_not_linked') {
      return new AppError(400, 'ACCOUNT_NOT_LINKED', WEARABLE_SERVER_MESSAGES.accountNotLinked);
    }
    if (error.kind === 'rate_limited' || error.kind === 'unavailable') {
      return new AppError(
        503,
        'PROVIDER_UNAVAILABLE',
        WEARABLE_SERVER_MESSAGES.providerUnavailable,
      );
    }
    // An answer we could not read is the provider's fault, not the request's.
    if (error.kind === 'invalid_response') return new AppError(502, 'PROVIDER_ERROR', fallback);
    return new AppError(400, 'PROVIDER_REFUSED', fallback);
  }
  return error instanceof AppError ? error : new AppError(502, 'PROVIDER_ERROR', fallback);
}
