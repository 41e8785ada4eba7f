import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import {
  AUTH_HARDENING_MESSAGES,
  type ErrorCode,
  SERVICE_MESSAGES,
  SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS,
  TRANSPORT_MESSAGES,
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
      return reply.status(500).send(errorBody(TRANSPORT_MESSAGES.internal, 'INTERNAL_ERROR'));
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
      const [message, code] =
        KNOWN_CLIENT_ERRORS[error.code] ??
        (error.code === 'FST_ERR_VALIDATION'
          ? [error.message, 'VALIDATION_ERROR']
          : (CLIENT_ERRORS_BY_STATUS[status] ?? [TRANSPORT_MESSAGES.badRequest, 'BAD_REQUEST']));
      return reply.status(status).send(errorBody(message, code));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(errorBody(TRANSPORT_MESSAGES.internal, 'INTERNAL_ERROR'));
  });
}

/** Fastify's and the parsers' own 4xx errors, by their code. */
const KNOWN_CLIENT_ERRORS: Record<string, [string, ErrorCode]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [TRANSPORT_MESSAGES.tooLarge, 'TOO_LARGE'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [
    TRANSPORT_MESSAGES.unsupportedMediaType,
    'UNSUPPORTED_MEDIA_TYPE',
  ],
  FST_ERR_CTP_EMPTY_JSON_BODY: [TRANSPORT_MESSAGES.emptyJson, 'VALIDATION_ERROR'],
  FST_ERR_CTP_INVALID_JSON_BODY: [TRANSPORT_MESSAGES.invalidJson, 'VALIDATION_ERROR'],
  FST_ERR_BAD_URL: [TRANSPORT_MESSAGES.badUrl, 'BAD_REQUEST'],
  FST_ERR_MAX_PARAM_LENGTH: [TRANSPORT_MESSAGES.uriTooLong, 'URI_TOO_LONG'],
};

/** Any other 4xx (a plugin's, say): a message by status. Their own messages may echo input. */
const CLIENT_ERRORS_BY_STATUS: Record<number, [string, ErrorCode]> = {
  413: [TRANSPORT_MESSAGES.tooLarge, 'TOO_LARGE'],
  414: [TRANSPORT_MESSAGES.uriTooLong, 'URI_TOO_LONG'],
  415: [TRANSPORT_MESSAGES.unsupportedMediaType, 'UNSUPPORTED_MEDIA_TYPE'],
};

/**
 * Fastify's `frameworkErrors`: the router refuses an address before any route or hook runs (a
 * bad percent-encoding, a path parameter over `maxParamLength`). Fastify's own answers quote the
 * address back and leave the envelope.
 */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const known = KNOWN_CLIENT_ERRORS[error.code];
  if (!known) {
    request.log.error({ err: error }, 'router error');
    return reply.status(500).send(errorBody(TRANSPORT_MESSAGES.internal, 'INTERNAL_ERROR'));
  }
  const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
  return reply
    .status(status)
    .header('Cache-Control', 'no-store')
    .send(errorBody(known[0], known[1]));
}

/**
 * Node's `clientError`: the HTTP parser gives up on a request (headers or address over the
 * limit, a malformed request line, too slow) before Fastify sees one. Answered with the envelope
 * on the raw socket, then closed, as Fastify's default handler does.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message, code]: [number, string, ErrorCode] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, TRANSPORT_MESSAGES.headersTooLarge, 'HEADERS_TOO_LARGE']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, TRANSPORT_MESSAGES.timeout, 'REQUEST_TIMEOUT']
        : [400, TRANSPORT_MESSAGES.badRequest, 'BAD_REQUEST'];
  const body = JSON.stringify(errorBody(message, code));
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy(error);
}
