export type GoogleHealthErrorKind =
  | 'invalid_grant'
  | 'unauthenticated'
  | 'permission_denied'
  | 'account_not_linked'
  | 'rate_limited'
  | 'unavailable'
  | 'bad_request'
  /** A 2xx answer we cannot read (not JSON). */
  | 'invalid_response';

/** A provider answer we could not use; the message never contains a token. */
export class GoogleHealthError extends Error {
  constructor(
    readonly kind: GoogleHealthErrorKind,
    readonly status: number,
    /** OAuth `error` or the RPC `status`/ErrorInfo reason. */
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'GoogleHealthError';
  }
}

/**
 * The caller's own fetch declined to send the request (nothing went to Google): the client passes
 * it on as it is, never retried as a network failure nor turned into a GoogleHealthError.
 */
export class CallNotSent extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CallNotSent';
  }
}

export interface RpcErrorBody {
  error?:
    | string
    | {
        code?: number;
        message?: string;
        status?: string;
        details?: { reason?: string }[];
      };
  error_description?: string;
}

export function toError(status: number, body: RpcErrorBody | null): GoogleHealthError {
  const err = body?.error;
  if (typeof err === 'string') {
    // OAuth endpoint: `error` is a string code.
    const kind: GoogleHealthErrorKind =
      err === 'invalid_grant'
        ? 'invalid_grant'
        : status === 429
          ? 'rate_limited'
          : status >= 500
            ? 'unavailable'
            : 'bad_request';
    return new GoogleHealthError(kind, status, err, `Google OAuth: ${err}`);
  }
  const rpcStatus = err?.status ?? `HTTP_${status}`;
  const reason = err?.details?.find((d) => d.reason)?.reason ?? rpcStatus;
  const kind: GoogleHealthErrorKind =
    status === 401
      ? 'unauthenticated'
      : status === 403
        ? 'permission_denied'
        : status === 429
          ? 'rate_limited'
          : status >= 500
            ? 'unavailable'
            : reason === 'ACCOUNT_NOT_LINKED'
              ? 'account_not_linked'
              : 'bad_request';
  return new GoogleHealthError(kind, status, reason, `Google Health API: ${status} ${reason}`);
}
