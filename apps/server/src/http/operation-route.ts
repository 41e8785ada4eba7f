import {
  errorSchemasOf,
  type OperationAuth,
  type OperationDefinition,
  type OperationReplyBody,
  type OperationRequestParts,
  operationNameOf,
  successStatusesOf,
} from '@research/contracts';
import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preHandlerHookHandler,
  RouteHandlerMethod,
} from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's operation, for hooks that depend on it (a personal access token's check). */
    operation?: OperationDefinition;
  }
}

/** The request a handler sees: params, query and body parsed by the operation's schemas. */
export type OperationRequest<O extends OperationDefinition> = FastifyRequest<{
  Params: OperationRequestParts<O>['params'];
  Querystring: OperationRequestParts<O>['query'];
  Body: OperationRequestParts<O>['body'];
}>;

export interface OperationRouteOptions<O extends OperationDefinition> {
  /** Authorization: who may call (requireUser, requireStudyMember, …), resolved before the handler. */
  preHandler?: preHandlerHookHandler | preHandlerHookHandler[];
  /** Per-route settings, e.g. a rate limit tighter than the global one. */
  config?: FastifyContextConfig;
  bodyLimit?: number;
  handler: (
    request: OperationRequest<O>,
    reply: FastifyReply,
  ) => Promise<OperationReplyBody<O>> | OperationReplyBody<O>;
}

/** What the API reference says of the calls a script may make with a personal access token. */
const TOKEN_ACCESS_NOTE =
  'Scripts may call this with a personal access token of the study (`Authorization: Bearer wrp_pat_…`) instead of a session.';

const SECURITY: Record<OperationAuth, Record<string, string[]>[]> = {
  // Said outright, so a reader of the document knows the call needs nothing.
  public: [],
  bearer: [{ bearerAuth: [] }],
  // Either: the handler answers anonymous callers and signed-in researchers.
  'optional-bearer': [{ bearerAuth: [] }, {}],
  participant: [{ participantSession: [] }],
};

/**
 * Registers the route of an operation: method, path, schemas (params, query, body, the success
 * body and every error status with its closed set of codes) and OpenAPI text all come from the
 * contract; the module adds only who may call and what the call does.
 */
export function route<O extends OperationDefinition>(
  app: FastifyInstance,
  operation: O,
  options: OperationRouteOptions<O>,
): void {
  // The operationId is the exported name; the API reference reads the rest of the contract by it.
  const operationId = operationNameOf(operation);
  if (!operationId)
    throw new Error(`${operation.method} ${operation.path} is not in ALL_OPERATIONS`);
  if (operation.response === 'raw' && !operation.rawResponse)
    throw new Error(`${operationId} answers 'raw' and must say what (rawResponse)`);
  const response: Record<number, unknown> = {};
  if (operation.response !== 'raw')
    for (const status of successStatusesOf(operation)) response[status] = operation.response;
  for (const [status, schema] of errorSchemasOf(operation)) response[status] = schema;
  for (const [status, schema] of Object.entries(operation.otherResponses ?? {}))
    response[Number(status)] = schema;
  // A call that takes JSON or a form validates the body itself: a JSON schema would refuse forms.
  const jsonBody = operation.body && !operation.multipart ? operation.body : undefined;
  const security = SECURITY[operation.auth];
  const description = [
    operation.description,
    operation.multipart,
    operation.tokenAccess ? TOKEN_ACCESS_NOTE : undefined,
  ]
    .filter(Boolean)
    .join('\n\n');
  app.route({
    method: operation.method,
    url: operation.path,
    schema: {
      operationId,
      tags: [...operation.tags],
      summary: operation.summary,
      ...(operation.hidden ? { hide: true } : {}),
      ...(description ? { description } : {}),
      ...(operation.multipart
        ? {
            consumes: operation.body
              ? ['application/json', 'multipart/form-data']
              : ['multipart/form-data'],
          }
        : {}),
      security,
      ...(operation.params ? { params: operation.params } : {}),
      ...(operation.query ? { querystring: operation.query } : {}),
      ...(operation.headers ? { headers: operation.headers } : {}),
      ...(jsonBody ? { body: jsonBody } : {}),
      response,
    },
    ...(options.preHandler ? { preHandler: options.preHandler } : {}),
    config: { ...options.config, operation },
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    handler: options.handler as unknown as RouteHandlerMethod,
  });
}
