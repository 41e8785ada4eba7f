import type { FastifyReply } from 'fastify';

/** Google's error envelope. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly status: string,
    message: string,
    readonly details?: Record<string, unknown>[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

const DOMAIN = 'health.googleapis.com';

export function errorInfo(reason: string, metadata?: Record<string, string>, domain = DOMAIN) {
  return {
    '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
    reason,
    domain,
    ...(metadata ? { metadata } : {}),
  };
}

export function badRequest(field: string, description: string) {
  return {
    '@type': 'type.googleapis.com/google.rpc.BadRequest',
    fieldViolations: [{ field, description }],
  };
}

export const invalidArgument = (message: string, ...details: Record<string, unknown>[]) =>
  new ApiError(400, 'INVALID_ARGUMENT', message, details.length ? details : undefined);

export function filterError(detailed: string, description: string): ApiError {
  return invalidArgument(
    `Invalid data point filter: ${detailed}.`,
    errorInfo('INVALID_DATA_POINT_FILTER', { detailedReasons: detailed }),
    badRequest('filter', description),
  );
}

export const unauthenticated = () =>
  new ApiError(
    401,
    'UNAUTHENTICATED',
    'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
  );

export const notFound = (what = 'Requested entity was not found.') =>
  new ApiError(404, 'NOT_FOUND', what, [errorInfo('RESOURCE_NOT_FOUND')]);

export function sendApiError(reply: FastifyReply, error: ApiError) {
  for (const [name, value] of Object.entries(error.headers ?? {})) reply.header(name, value);
  if (error.code === 401)
    reply.header('WWW-Authenticate', 'Bearer realm="https://accounts.google.com/"');
  return reply.code(error.code).send({
    error: {
      code: error.code,
      message: error.message,
      status: error.status,
      ...(error.details ? { details: error.details } : {}),
    },
  });
}
