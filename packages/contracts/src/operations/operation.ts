/**
 * One typed operation per API call. The Fastify route is registered from it
 * (method, path, schemas, OpenAPI) and the web fetcher is built from it (URL, method, body and
 * response type), so a path, a field or an error code exists in exactly one place.
 */

import { z } from 'zod';
import { errorEnvelopeSchema } from '../schemas/errors.js';
import type { ErrorCode } from './error-codes.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call: anyone; a signed-in user (Bearer session token); a participant session
 * (`x-participant-session`); or either anyone or a signed-in user, when the handler answers both.
 */
export type OperationAuth = 'public' | 'bearer' | 'participant' | 'optional-bearer';

export type SuccessStatus = 200 | 201;

/**
 * What a call whose handler writes its own answer ('raw') sends on success, for the API reference:
 * a file or a page (its media types; the body is bytes or text), a redirect (302, with
 * `Location`), or nothing (204). A call may answer more than one of these.
 */
export interface RawResponse {
  readonly status: 200 | 201 | 204 | 302;
  readonly description: string;
  /** Media types of the body ('application/pdf', 'text/html', …); none for a redirect or 204. */
  readonly contentTypes?: readonly string[];
}

/** The success statuses of an operation. */
export const successStatusesOf = (
  operation: Pick<OperationDefinition, 'status'>,
): SuccessStatus[] => [operation.status ?? 200].flat();

export type ErrorStatus =
  | 400
  | 401
  | 403
  | 404
  | 409
  | 410
  | 413
  | 414
  | 415
  | 429
  | 500
  | 502
  | 503;

export interface OperationDefinition {
  readonly method: HttpMethod;
  /** Fastify-style path: `:name` is one segment, filled from `params`. */
  readonly path: `/${string}`;
  readonly summary: string;
  /** OpenAPI text beyond the summary: rules, limits, what each answer means. */
  readonly description?: string;
  readonly tags: readonly string[];
  readonly auth: OperationAuth;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  /** Request headers the route checks before the handler (e.g. the participant session's). */
  readonly headers?: z.ZodType;
  /** A JSON body. */
  readonly body?: z.ZodType;
  /**
   * The body is multipart/form-data, which the handler reads part by part (files stream and are
   * checked as they arrive); the text says which fields and files it takes, for OpenAPI. With a
   * `body` too, the call takes either: that JSON, or the same fields as a form with files; the
   * handler then validates both itself.
   */
  readonly multipart?: string;
  /** Left out of the API reference (a loopback-only operator route). */
  readonly hidden?: true;
  /**
   * A personal access token (`Authorization: Bearer wrp_pat_…`) may call this operation, for the
   * token's study only: the study named by the path's `:id` (or `:studyId`), or the study whose
   * bucket `:bucket` names. Every other operation refuses a token. The server checks the token,
   * its study and its account's membership before the route's own guard, and audits each use;
   * `errorCodesOf` adds the token's errors. Only read-only calls (and starting an export) carry it.
   */
  readonly tokenAccess?: true;
  /**
   * Status of a success; 200 unless said. A list when the call answers either with the same body
   * (a roster check 200, a stored roster 201).
   */
  readonly status?: SuccessStatus | readonly SuccessStatus[];
  /** The success body, or 'raw' when the handler writes its own (a file, a redirect, a page). */
  readonly response: z.ZodType | 'raw';
  /** What a 'raw' call answers on success; the route refuses a 'raw' call without it. */
  readonly rawResponse?: RawResponse | readonly RawResponse[];
  /**
   * Failure statuses answered with a body of their own instead of the error envelope (a
   * readiness probe's 503 carries the same checks as its 200).
   */
  readonly otherResponses?: Partial<Record<ErrorStatus, z.ZodType>>;
  /**
   * The domain errors the call can answer, by status: a closed set. Every call can also answer
   * the transport errors (invalid input, too large, throttled, server fault, database out of reach) and, when it needs a
   * session, the session errors; `errorCodesOf` adds those.
   */
  readonly errors: ErrorMap | readonly ErrorMap[];
  /**
   * What an error envelope's `details` may carry besides the per-field messages, by status (a
   * wrong code's attempts, the seconds to wait); without it only `fields` is sent.
   */
  readonly errorDetails?: Partial<Record<ErrorStatus, z.ZodType>>;
}

/** Error codes by status; an operation may list several (its role's, then its own). */
export type ErrorMap = Partial<Record<ErrorStatus, readonly ErrorCode[]>>;

/** Keeps the literal types of a definition (path, method, schemas, codes) for both sides. */
export function defineOperation<const O extends OperationDefinition>(operation: O): O {
  return operation;
}

/** Errors any call can answer, whatever it does: the framework's own. */
const TRANSPORT_ERRORS = {
  400: ['VALIDATION_ERROR', 'BAD_REQUEST'],
  413: ['TOO_LARGE'],
  414: ['URI_TOO_LONG'],
  415: ['UNSUPPORTED_MEDIA_TYPE'],
  429: ['RATE_LIMITED'],
  500: ['INTERNAL_ERROR'],
  // The database is out of reach for a moment: try again later (Retry-After).
  503: ['DATABASE_UNAVAILABLE'],
} as const satisfies ErrorMap;

/** What a call that takes a personal access token can answer besides its own errors. */
const TOKEN_ERRORS = {
  // Unknown, expired or revoked, or its study deleted.
  401: ['ACCESS_TOKEN_INVALID'],
  // The route's study is not the token's, or the account left the study.
  403: ['ACCESS_TOKEN_WRONG_STUDY', 'NOT_A_MEMBER'],
} as const satisfies ErrorMap;

const SESSION_ERRORS = {
  bearer: { 401: ['UNAUTHENTICATED', 'SESSION_EXPIRED'] },
  'optional-bearer': { 401: ['UNAUTHENTICATED', 'SESSION_EXPIRED'] },
  participant: { 401: ['PARTICIPANT_SESSION_REQUIRED', 'SESSION_EXPIRED'] },
  public: {},
} as const satisfies Record<OperationAuth, ErrorMap>;

type Codes<T> = T extends readonly (infer M)[]
  ? Codes<M>
  : T extends Partial<Record<ErrorStatus, readonly (infer C)[]>>
    ? C
    : never;
type ErrorsOf<O> = O extends { errors: infer E } ? E : never;
type AuthOf<O> = O extends { auth: infer A extends OperationAuth } ? A : never;
type TokenErrorsOf<O> = O extends { tokenAccess: true } ? Codes<typeof TOKEN_ERRORS> : never;

/** Every code an operation can answer: its own, the transport ones, its session's and a token's. */
export type OperationErrorCode<O extends OperationDefinition> =
  | Codes<ErrorsOf<O>>
  | Codes<typeof TRANSPORT_ERRORS>
  | Codes<(typeof SESSION_ERRORS)[AuthOf<O>]>
  | TokenErrorsOf<O>;

/** The codes an operation can answer, per status. */
export function errorCodesOf(operation: OperationDefinition): Map<ErrorStatus, ErrorCode[]> {
  const byStatus = new Map<ErrorStatus, ErrorCode[]>();
  const add = (errors: ErrorMap) => {
    for (const [key, codes] of Object.entries(errors)) {
      const status = Number(key) as ErrorStatus;
      const known = byStatus.get(status) ?? [];
      for (const code of codes ?? []) if (!known.includes(code)) known.push(code);
      byStatus.set(status, known);
    }
  };
  for (const errors of Array.isArray(operation.errors)
    ? (operation.errors as readonly ErrorMap[])
    : [operation.errors as ErrorMap])
    add(errors);
  add(TRANSPORT_ERRORS);
  add(SESSION_ERRORS[operation.auth]);
  if (operation.tokenAccess) add(TOKEN_ERRORS);
  return byStatus;
}

const errorSchemas = new WeakMap<OperationDefinition, Map<ErrorStatus, z.ZodType>>();

/**
 * The error envelope per status with `code` narrowed to the operation's closed set: the route
 * declares these (OpenAPI lists the codes) and the tests' strict serializer refuses any other.
 */
export function errorSchemasOf(operation: OperationDefinition): Map<ErrorStatus, z.ZodType> {
  let schemas = errorSchemas.get(operation);
  if (!schemas) {
    schemas = new Map();
    for (const [status, codes] of errorCodesOf(operation)) {
      const details = operation.errorDetails?.[status];
      schemas.set(
        status,
        errorEnvelopeSchema.extend({
          code: z.enum(codes as [ErrorCode, ...ErrorCode[]]),
          ...(details ? { details: details.optional() } : {}),
        }),
      );
    }
    errorSchemas.set(operation, schemas);
  }
  return schemas;
}

type Input<S> = S extends z.ZodType ? z.input<S> : never;
type Output<S> = S extends z.ZodType ? z.output<S> : never;

/** What the handler returns (the serializer's input). */
export type OperationReplyBody<O extends OperationDefinition> = O['response'] extends z.ZodType
  ? z.input<O['response']>
  : unknown;
/** What the caller receives. */
export type OperationResponse<O extends OperationDefinition> = O['response'] extends z.ZodType
  ? z.output<O['response']>
  : never;

/**
 * Server side: the parsed params, query and body a handler sees. A call that also takes a form
 * leaves its body to the handler, which validates it whichever way it came.
 */
export interface OperationRequestParts<O extends OperationDefinition> {
  params: O extends { params: infer S } ? Output<S> : unknown;
  query: O extends { query: infer S } ? Output<S> : unknown;
  body: O extends { multipart: string }
    ? unknown
    : O extends { body: infer S }
      ? Output<S>
      : unknown;
}

type Optional<T> = Record<string, never> extends T ? { query?: T } : { query: T };

/** Client side: what a call needs, named like the operation's parts. */
export type OperationInput<O extends OperationDefinition> = (O extends { params: infer S }
  ? { params: Input<S> }
  : { params?: undefined }) &
  (O extends { query: infer S } ? Optional<Input<S>> : { query?: undefined }) &
  (O extends { body: infer S }
    ? { body: O extends { multipart: string } ? Input<S> | FormData : Input<S> }
    : O extends { multipart: string }
      ? { body: FormData }
      : { body?: undefined });

/** The JSON body a call sends. */
export type OperationBody<O extends OperationDefinition> = OperationInput<O>['body'];
