import {
  AUTH_HARDENING_MESSAGES,
  type ErrorCode,
  SERVICE_MESSAGES,
  SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS,
} from '@research/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import { databaseUnavailability } from '../db/availability.js';
import { AppError } from '../errors.js';

/**
 * One place turns every failure into the envelope `{ success: false, error, message, code }`.
 * Validation failures name each field; 5xx bodies never carry internals.
 */
export interface ErrorBody {
  success: false;
  error: string;
  message: string;
  code: ErrorCode;
  details?: Record<string, unknown>;
}

export const errorBody = (
  message: string,
  code: ErrorCode,
  details?: Record<string, unknown>,
): ErrorBody => ({
  success: false,
  error: message,
  message,
  code,
  ...(details ? { details } : {}),
});

/**
 * What the multipart parser (busboy) throws for a body it cannot split: no boundary, or data that
 * ends before the closing boundary (a file part then closes early). Plain errors without a status, so without this they read as
 * server faults on any route that reads a form.
 */
const MULTIPART_PARSE_ERRORS = [
  /^Multipart: Boundary not found$/,
  /^Boundary required$/,
  /unexpected end of multipart data$/i,
];
const isMultipartParseError = (error: Error, request: FastifyRequest) =>
  /^multipart\//i.test(String(request.headers['content-type'] ?? '')) &&
  !(error as { statusCode?: number }).statusCode &&
  ((error as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    MULTIPART_PARSE_ERRORS.some((pattern) => pattern.test(error.message)));

const fieldOf = (instancePath: string, context: string | undefined) => {
  const field = instancePath.replace(/^\//, '').replaceAll('/', '.');
  return field || context || 'body';
};

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      return reply
        .status(error.statusCode)
        .send(errorBody(error.message, error.code, error.details));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      // One entry per field: its first problem is the one to fix first.
      const byField = new Map<string, string>();
      for (const issue of error.validation) {
        const field = fieldOf(issue.instancePath, error.validationContext);
        if (!byField.has(field)) byField.set(field, issue.message ?? 'Invalid value');
      }
      const fields = [...byField].map(([field, message]) => ({ field, message }));
      const first = fields[0];
      const message = first ? `${first.message} (${first.field})` : 'Invalid request';
      return reply.status(400).send(errorBody(message, 'VALIDATION_ERROR', { fields }));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply
        .status(500)
        .send(errorBody('Something went wrong on our side. Please try again.', 'INTERNAL_ERROR'));
    }
    if (isMultipartParseError(error, request)) {
      return reply
        .status(400)
        .send(
          errorBody(
            /boundary/i.test(error.message)
              ? AUTH_HARDENING_MESSAGES.multipartBoundary
              : AUTH_HARDENING_MESSAGES.multipartUnreadable,
            'BAD_MULTIPART',
          ),
        );
    }
    const unavailable = databaseUnavailability(error);
    if (unavailable) {
      // Passing, not a fault: one line with the reason (no SQL, no values), and the caller is
      // told when to come back.
      request.log.warn({ reason: unavailable }, 'database unavailable');
      return reply
        .status(503)
        .header('Retry-After', String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS))
        .send(errorBody(SERVICE_MESSAGES.databaseUnavailable, 'DATABASE_UNAVAILABLE'));
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send(errorBody(error.message, 'RATE_LIMITED'));
    }
    if (status >= 400 && status < 500) {
      const known: Record<string, [string, ErrorCode]> = {
        FST_ERR_CTP_BODY_TOO_LARGE: ['The request is too large.', 'TOO_LARGE'],
        FST_ERR_CTP_INVALID_MEDIA_TYPE: ['Unsupported content type.', 'UNSUPPORTED_MEDIA_TYPE'],
        FST_ERR_CTP_EMPTY_JSON_BODY: ['The request body is empty.', 'VALIDATION_ERROR'],
        FST_ERR_CTP_INVALID_JSON_BODY: ['The request body is not valid JSON.', 'VALIDATION_ERROR'],
      };
      const [message, code] = known[error.code] ?? [
        error.code === 'FST_ERR_VALIDATION' ? error.message : 'The request could not be processed.',
        status === 413 ? 'TOO_LARGE' : 'BAD_REQUEST',
      ];
      return reply.status(status).send(errorBody(message, code));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .status(500)
      .send(errorBody('Something went wrong on our side. Please try again.', 'INTERNAL_ERROR'));
  });
}
