import {
  AUTH_STORAGE_KEYS,
  type ErrorCode,
  type FieldError,
  NETWORK_MESSAGES,
  type OperationDefinition,
  type OperationErrorCode,
  type OperationInput,
  type OperationResponse,
  operationUrl,
  REQUEST_SETTINGS,
} from '@research/contracts';

/**
 * The error every failed call throws (the API error object: message, HTTP status,
 * optional code). Failures that never got an HTTP reply carry status 0 and a client-side code.
 * `fields` holds the server's per-field messages of a VALIDATION_ERROR, for forms.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorCode | undefined;
  readonly fields: FieldError[];
  /** The envelope's `details` as the server sent them (e.g. a wrong code's attemptsUsed). */
  readonly details: Record<string, unknown>;

  constructor(
    message: string,
    status: number,
    code?: ApiErrorCode,
    fields: FieldError[] = [],
    details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.details = details;
  }
}

/** Codes of failures without an HTTP reply, so callers can tell them apart without the text. */
export const CLIENT_ERROR_CODES = {
  timeout: 'REQUEST_TIMEOUT',
  network: 'NETWORK_ERROR',
  unknown: 'UNKNOWN_NETWORK_ERROR',
} as const;

/** A server code (the contracts' closed set) or a client-side one. */
export type ApiErrorCode = ErrorCode | (typeof CLIENT_ERROR_CODES)[keyof typeof CLIENT_ERROR_CODES];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiRequestOptions {
  method?: HttpMethod;
  /** Sent as JSON; a FormData body (file uploads) is sent as multipart instead. */
  body?: unknown;
  /** undefined: use the stored session token; null: send no Authorization header. */
  token?: string | null;
  headers?: Record<string, string>;
  /** Aborting it stops the call at once, without retries (TanStack Query cancels this way). */
  signal?: AbortSignal;
  /**
   * Total attempts, the first included. Calls that create something pass 1: a 5xx may come
   * after the server did the work, and a retry would then do it twice.
   */
  retryAttempts?: number;
  /** Wait before the second attempt; it doubles before each further one. */
  retryDelayMs?: number;
  /** Limit per attempt. */
  timeoutMs?: number;
  /** 'blob' reads a success as a file (downloads); errors are still read as the envelope. */
  responseType?: 'json' | 'blob';
}

/**
 * The generic wrapper of every call. Network failures and HTTP 5xx are retried with
 * exponential backoff; 4xx replies and timeouts are not (a timed-out request may still be running
 * on the server, and retrying a 30 s wait three times would keep the user waiting for minutes).
 * JSON replies are parsed, any other reply is returned as text.
 */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const {
    retryAttempts = REQUEST_SETTINGS.retryAttempts,
    retryDelayMs = REQUEST_SETTINGS.retryDelayMs,
    timeoutMs = REQUEST_SETTINGS.timeoutMs,
  } = options;
  const init = buildRequestInit(options);
  const attempts = Math.max(1, retryAttempts);

  for (let attempt = 1; ; attempt += 1) {
    const isLastAttempt = attempt >= attempts;
    let response: Response;
    let payload: unknown;
    try {
      ({ response, payload } = await fetchOnce(
        path,
        init,
        timeoutMs,
        options.signal,
        options.responseType,
      ));
    } catch (error) {
      const failure = classifyFailure(error, options.signal);
      if (failure.retry && !isLastAttempt) {
        await sleep(backoff(retryDelayMs, attempt), options.signal);
        continue;
      }
      throw failure.error;
    }

    if (response.ok) {
      return payload as T;
    }
    if (response.status >= 500 && !isLastAttempt) {
      await sleep(backoff(retryDelayMs, attempt), options.signal);
      continue;
    }
    const error = errorFromResponse(response, payload);
    if (sentBearer(init) && isSessionGone(error)) {
      notifySessionExpired();
    }
    throw error;
  }
}

/** Server codes that mean the session behind the Bearer token no longer exists. */
const SESSION_GONE_CODES: ReadonlySet<ApiErrorCode> = new Set([
  'SESSION_EXPIRED',
  'UNAUTHENTICATED',
]);

function isSessionGone(error: ApiError): boolean {
  return error.status === 401 && error.code !== undefined && SESSION_GONE_CODES.has(error.code);
}

function sentBearer(init: RequestInit): boolean {
  return Boolean((init.headers as Record<string, string> | undefined)?.Authorization);
}

export type CallOptions = Omit<ApiRequestOptions, 'method' | 'body'>;

/**
 * Calls an operation of the contracts: the URL (path params and query), the method and the body
 * come from the operation, and the answer has its success type.
 */
export function callOperation<O extends OperationDefinition>(
  operation: O,
  input: OperationInput<O>,
  options: CallOptions = {},
): Promise<OperationResponse<O>> {
  return apiRequest<OperationResponse<O>>(operationUrl(operation, input.params, input.query), {
    ...options,
    method: operation.method,
    body: input.body,
  });
}

/** Downloads what a 'raw' operation answers (a file) as a Blob, with the same errors as any call. */
export function downloadOperation<O extends OperationDefinition>(
  operation: O,
  input: OperationInput<O>,
  options: CallOptions = {},
): Promise<Blob> {
  return apiRequest<Blob>(operationUrl(operation, input.params, input.query), {
    ...options,
    method: operation.method,
    responseType: 'blob',
  });
}

/** Whether a failure is the given code of an operation (the code is checked against its set). */
export function isOperationError<O extends OperationDefinition>(
  error: unknown,
  _operation: O,
  code: OperationErrorCode<O>,
): error is ApiError {
  return error instanceof ApiError && error.code === code;
}

type SessionExpiredListener = () => void;
const sessionExpiredListeners = new Set<SessionExpiredListener>();

/**
 * Any authenticated call answered with 401 SESSION_EXPIRED / UNAUTHENTICATED means the stored
 * session is gone; the auth provider listens here to sign the user out in one place instead of
 * every caller checking. Returns the unsubscribe function.
 */
export function onSessionExpired(listener: SessionExpiredListener): () => void {
  sessionExpiredListeners.add(listener);
  return () => {
    sessionExpiredListeners.delete(listener);
  };
}

function notifySessionExpired(): void {
  for (const listener of sessionExpiredListeners) {
    listener();
  }
}

function buildRequestInit(options: ApiRequestOptions): RequestInit {
  const headers: Record<string, string> = { Accept: 'application/json' };
  let body: BodyInit | undefined;
  if (typeof FormData !== 'undefined' && options.body instanceof FormData) {
    // The browser sets the multipart boundary itself.
    body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const token = options.token === undefined ? readStoredToken() : options.token;
  if (token) {
    headers.Authorization = `Bearer ${token}`;
  }
  return {
    method: options.method ?? 'GET',
    headers: { ...headers, ...options.headers },
    body,
    mode: 'cors',
    credentials: 'omit',
  };
}

function readStoredToken(): string | null {
  // sessionStorage is absent outside the browser and can throw when storage is blocked.
  try {
    return typeof sessionStorage === 'undefined'
      ? null
      : sessionStorage.getItem(AUTH_STORAGE_KEYS.token);
  } catch {
    return null;
  }
}

class TimeoutError extends Error {}

async function fetchOnce(
  path: string,
  init: RequestInit,
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
  responseType: ApiRequestOptions['responseType'] = 'json',
): Promise<{ response: Response; payload: unknown }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new TimeoutError()), timeoutMs);
  const signal = callerSignal
    ? AbortSignal.any([callerSignal, controller.signal])
    : controller.signal;
  try {
    const response = await fetch(path, { ...init, signal });
    if (response.ok && responseType === 'blob') return { response, payload: await response.blob() };
    // The body is read under the same timer: a server that sends headers and then stalls is
    // just as stuck as one that sends nothing.
    const text = await response.text();
    const isJson = (response.headers.get('content-type') ?? '').includes('json');
    return { response, payload: isJson && text !== '' ? parseJson(text, response.ok) : text };
  } catch (error) {
    if (controller.signal.aborted && !callerSignal?.aborted) {
      throw new TimeoutError();
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A success that is not valid JSON is a broken reply and fails the call; an error reply with a
 * broken body still counts by its status (a 502 page from a proxy is retried like any 5xx).
 */
function parseJson(text: string, ok: boolean): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (ok) {
      throw error;
    }
    return text;
  }
}

function classifyFailure(
  error: unknown,
  callerSignal: AbortSignal | undefined,
): { error: unknown; retry: boolean } {
  if (callerSignal?.aborted) {
    // The caller gave up: hand back its own reason, as fetch would.
    return { error: callerSignal.reason ?? error, retry: false };
  }
  if (error instanceof TimeoutError) {
    return {
      error: new ApiError(NETWORK_MESSAGES.requestTimeout, 0, CLIENT_ERROR_CODES.timeout),
      retry: false,
    };
  }
  // fetch rejects with a TypeError when no HTTP reply arrives (refused, reset, DNS, offline).
  if (error instanceof TypeError) {
    return {
      error: new ApiError(NETWORK_MESSAGES.connectionFailed, 0, CLIENT_ERROR_CODES.network),
      retry: true,
    };
  }
  return {
    error: new ApiError(NETWORK_MESSAGES.unknown, 0, CLIENT_ERROR_CODES.unknown),
    retry: false,
  };
}

function errorFromResponse(response: Response, payload: unknown): ApiError {
  const fallback = NETWORK_MESSAGES.httpStatus(response.status, response.statusText);
  if (payload !== null && typeof payload === 'object') {
    const body = payload as {
      message?: unknown;
      error?: unknown;
      code?: unknown;
      details?: { fields?: unknown };
    };
    const message = firstText(body.message, body.error) ?? fallback;
    // The API answers codes of the contract (its tests check every reply); an unknown one only
    // matches no branch. Checking against the whole list would put it in every page's first load.
    const code = typeof body.code === 'string' ? (body.code as ErrorCode) : undefined;
    const fields = Array.isArray(body.details?.fields)
      ? body.details.fields.filter(isFieldError)
      : [];
    const details =
      body.details !== null && typeof body.details === 'object' && !Array.isArray(body.details)
        ? (body.details as Record<string, unknown>)
        : {};
    return new ApiError(message, response.status, code, fields, details);
  }
  return new ApiError(fallback, response.status);
}

function isFieldError(value: unknown): value is FieldError {
  const field = value as Partial<FieldError> | null;
  return typeof field?.field === 'string' && typeof field.message === 'string';
}

function firstText(...candidates: unknown[]): string | undefined {
  return candidates.find((c): c is string => typeof c === 'string' && c.trim() !== '');
}

/** 1st retry waits retryDelayMs, then 2×, 4×, …. */
function backoff(retryDelayMs: number, attempt: number): number {
  return retryDelayMs * 2 ** (attempt - 1);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
