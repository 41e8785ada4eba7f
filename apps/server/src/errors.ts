import type { ErrorCode } from '@research/contracts';

/**
 * The closed set of errors the API returns. Every thrown AppError becomes the envelope
 * `{ success: false, error, message, code }` with its status; anything else becomes a bare 500.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, code: ErrorCode = 'BAD_REQUEST') =>
  new AppError(400, code, message);
export const unauthorized = (
  message = 'Authentication required',
  code: ErrorCode = 'UNAUTHENTICATED',
) => new AppError(401, code, message);
export const forbidden = (
  message = 'You do not have access to this resource',
  code: ErrorCode = 'FORBIDDEN',
) => new AppError(403, code, message);
export const notFound = (message = 'Not found', code: ErrorCode = 'NOT_FOUND') =>
  new AppError(404, code, message);
export const conflict = (message: string, code: ErrorCode = 'CONFLICT') =>
  new AppError(409, code, message);
export const tooLarge = (message: string, code: ErrorCode = 'TOO_LARGE') =>
  new AppError(413, code, message);
export const tooManyRequests = (message: string, code: ErrorCode = 'RATE_LIMITED') =>
  new AppError(429, code, message);
