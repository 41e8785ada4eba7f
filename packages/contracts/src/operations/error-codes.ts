/**
 * The closed set of error codes the API answers with (the envelope's `code`). Clients branch on
 * these, never on texts; each operation names the subset it can answer.
 */
export const ERROR_CODES = [
  // Transport: any call.
  'VALIDATION_ERROR',
  'BAD_REQUEST',
  'BAD_MULTIPART',
  'TOO_LARGE',
  'URI_TOO_LONG',
  'UNSUPPORTED_MEDIA_TYPE',
  // Refused by the HTTP layer before any route (no operation lists them).
  'HEADERS_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'RATE_LIMITED',
  'NOT_FOUND',
  'INTERNAL_ERROR',
  'DATABASE_UNAVAILABLE',
  // Sessions and roles.
  'UNAUTHENTICATED',
  'SESSION_EXPIRED',
  'FORBIDDEN',
  'NOT_APPROVED',
  'MASTER_ONLY',
  'MASTER_ACCOUNT',
  'OWNER_ONLY',
  'NOT_A_MEMBER',
  // Accounts.
  'INVALID_CREDENTIALS',
  'EMAIL_IN_USE',
  'EMAIL_NOT_FOUND',
  'EMAIL_NOT_CONFIRMED',
  'INVALID_CONFIRMATION_TOKEN',
  'INVALID_RESET_TOKEN',
  'INVALID_SETUP_TOKEN',
  'MASTER_EXISTS',
  'INVALID_STATE',
  'STATE_EXPIRED',
  'GOOGLE_SIGN_IN_FAILED',
  'GOOGLE_UNAVAILABLE',
  // Applications.
  'APPLICATION_PENDING',
  'APPLICATION_APPROVED',
  'APPLICATION_NOT_PENDING',
  'APPLICATION_NOT_REJECTED',
  'DOCUMENT_NOT_FOUND',
  'TOO_MANY_FILES',
  'FILE_TOO_LARGE',
  'UNSUPPORTED_FILE_TYPE',
  // Studies and members.
  'STUDY_NOT_FOUND',
  'STUDY_DELETED',
  'INVALID_STUDY_CREDENTIALS',
  'INVALID_CURRENT_PASSWORD',
  'ALREADY_OWNER',
  'CANNOT_REMOVE_OWNER',
  'MEMBER_NOT_FOUND',
  'NOTHING_TO_UPDATE',
  'CONFLICT',
  'SIGNED_URL_INVALID',
  'OBJECT_NOT_FOUND',
  'OBJECT_KEY_CONFLICT',
  'INVALID_OBJECT_KEY',
  // Participants, roster and mail.
  'PARTICIPANT_NOT_FOUND',
  'PARTICIPANT_EMAIL_TAKEN',
  'PARTICIPANT_MISMATCH',
  'PENDING_NOT_FOUND',
  'NOT_A_MEMBER_RECIPIENT',
  'NOT_A_STUDY_RECIPIENT',
  'TOO_MANY_MESSAGES',
  'NOT_CSV',
  'CSV_EMPTY',
  'CSV_FILE_MISSING',
  'CSV_NO_EMAIL_COLUMN',
  'CSV_PARSE_FAILED',
  'CSV_READ_FAILED',
  'CSV_TOO_MANY_ROWS',
  'MIXED_STUDIES',
  // Enrolment and verification.
  'STUDY_CODE_REQUIRED',
  'STUDY_CODE_MISMATCH',
  'EMAIL_MISMATCH',
  'UNDER_AGE',
  'VERIFICATION_REQUIRED',
  'VERIFICATION_FAILED',
  'PARTICIPANT_SESSION_REQUIRED',
  'PARTICIPANT_SESSION_MISMATCH',
  'NO_CODE',
  'INVALID_CODE',
  'CODE_EXPIRED',
  'CODE_USED',
  'RESEND_TOO_SOON',
  'TOO_MANY_ATTEMPTS',
  'TOO_MANY_CODES',
  // Wearables and extraction.
  'NOT_CONNECTED',
  'OTHER_GOOGLE_ACCOUNT',
  'GOOGLE_ACCOUNT_IN_USE',
  'NEEDS_REAUTHORIZATION',
  'NO_SCOPES_GRANTED',
  'ACCOUNT_NOT_LINKED',
  'AUTH_URL_FAILED',
  'CLIENT_MISMATCH',
  'REDIRECT_URI_MISMATCH',
  'PROVIDER_ERROR',
  'PROVIDER_REFUSED',
  'PROVIDER_UNAVAILABLE',
  'NOT_SELECTABLE',
  // Google Health notifications (webhook).
  'WEBHOOK_UNAUTHORIZED',
  'WEBHOOK_SIGNATURE_INVALID',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

const known: ReadonlySet<string> = new Set(ERROR_CODES);

/** Whether a string from the wire is one of the codes (an older server may send others). */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && known.has(value);
}
