import swagger, { type SwaggerTransform, type SwaggerTransformObject } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  errorSchemasOf,
  type OperationDefinition,
  operationNamed,
  PARTICIPANT_SESSION_DOC,
  PARTICIPANT_SESSION_HEADER,
  type RawResponse,
} from '@research/contracts';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { AppConfig } from '../config.js';

type JsonSchema = { [key: string]: unknown };

const COMPONENTS = '#/components/schemas/';
/** @fastify/swagger reads a response's description from this key and leaves it out of the schema. */
const DESCRIPTION = 'x-response-description';

/**
 * Fastify's catch-all segment (`/*`, read as `params['*']`) has no name, and OpenAPI's `{*}` is
 * not a valid path parameter: the document names it. The route itself keeps the wildcard.
 */
const WILDCARD_PARAMETER = 'key';

function namedWildcard(url: string, params: JsonSchema | undefined) {
  if (!url.endsWith('/*')) return { url, params };
  const properties = (params?.properties ?? {}) as Record<string, unknown>;
  const { '*': wildcard, ...named } = properties;
  return {
    url: `${url.slice(0, -1)}:${WILDCARD_PARAMETER}`,
    params: {
      ...params,
      properties: { ...named, [WILDCARD_PARAMETER]: wildcard ?? { type: 'string' } },
      required: [
        ...((params?.required ?? []) as string[]).filter((name) => name !== '*'),
        WILDCARD_PARAMETER,
      ],
    },
  };
}

/** A 'raw' call's success as an OpenAPI response: bytes or text, a redirect, or nothing. */
function rawResponseDoc(raw: RawResponse): JsonSchema {
  if (raw.status === 302)
    return {
      description: raw.description,
      type: 'null',
      headers: { Location: { type: 'string', description: 'Where the redirect leads' } },
    };
  if (!raw.contentTypes?.length) return { description: raw.description, type: 'null' };
  return {
    description: raw.description,
    content: Object.fromEntries(
      raw.contentTypes.map((type) => [
        type,
        {
          schema: type.startsWith('text/')
            ? { type: 'string' }
            : { type: 'string', format: 'binary' },
        },
      ]),
    ),
  };
}

/**
 * An error answer as the shared envelope with `code` narrowed to the call's closed set. Where
 * `details` carries more than the per-field messages (errorDetails), the closed envelope would
 * refuse it, so that answer stays written out in full.
 */
function errorResponseDoc(
  operation: OperationDefinition,
  status: number,
  generated: JsonSchema,
): JsonSchema {
  const codes = (generated.properties as Record<string, JsonSchema> | undefined)?.code;
  const description = `Error: ${((codes?.enum ?? []) as string[]).join(', ')}`;
  if (!codes || operation.errorDetails?.[status as keyof OperationDefinition['errorDetails']])
    return { ...generated, [DESCRIPTION]: description };
  return {
    [DESCRIPTION]: description,
    allOf: [
      { $ref: `${COMPONENTS}ErrorEnvelope` },
      { type: 'object', properties: { code: codes }, required: ['code'] },
    ],
  };
}

/**
 * Each route's schemas as fastify-type-provider-zod writes them, plus what only the contract
 * knows: the named wildcard, a 'raw' call's success, the shared error envelope.
 */
const transform: SwaggerTransform = (document) => {
  const result = jsonSchemaTransform(document) as { schema: JsonSchema; url: string };
  const operationId = document.schema?.operationId;
  const operation = typeof operationId === 'string' ? operationNamed(operationId) : undefined;
  if (!operation || result.schema.hide) return result;
  const schema = { ...result.schema };
  const { url, params } = namedWildcard(result.url, schema.params as JsonSchema | undefined);
  if (params) schema.params = params;
  const response = { ...(schema.response as Record<string, JsonSchema>) };
  const errorStatuses = new Set(errorSchemasOf(operation).keys());
  for (const [status, generated] of Object.entries(response)) {
    const code = Number(status) as Parameters<typeof errorStatuses.has>[0];
    if (errorStatuses.has(code) && !operation.otherResponses?.[code])
      response[status] = errorResponseDoc(operation, code, generated);
  }
  if (operation.response === 'raw')
    for (const raw of [operation.rawResponse ?? []].flat())
      response[String(raw.status)] = rawResponseDoc(raw);
  schema.response = response;
  return { schema, url };
};

/** The names a part of the document refers to in `components.schemas`. */
function referencedComponents(value: unknown, found: Set<string>) {
  if (Array.isArray(value)) for (const item of value) referencedComponents(item, found);
  else if (value && typeof value === 'object')
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith(COMPONENTS))
        found.add(child.slice(COMPONENTS.length));
      else referencedComponents(child, found);
    }
}

/**
 * A nullable shared schema comes out as `{ nullable: true, allOf: [{ $ref }] }`, and OpenAPI 3.0
 * ignores `nullable` without a `type` beside it: give it the referenced schema's type.
 */
function typeNullableReferences(value: unknown, schemas: Record<string, JsonSchema>) {
  if (Array.isArray(value)) for (const item of value) typeNullableReferences(item, schemas);
  else if (value && typeof value === 'object') {
    const node = value as JsonSchema;
    const [only, ...rest] = Array.isArray(node.allOf) ? (node.allOf as JsonSchema[]) : [];
    const ref = typeof only?.$ref === 'string' ? only.$ref : undefined;
    if (node.nullable === true && node.type === undefined && ref && rest.length === 0) {
      const type = schemas[ref.slice(COMPONENTS.length)]?.type;
      if (type !== undefined) node.type = type;
    }
    for (const child of Object.values(node)) typeNullableReferences(child, schemas);
  }
}

/**
 * The shared schemas, each in the input and output shape zod gives it (`StudyInput`, `Study`):
 * only those the document uses are kept, so a schema only ever sent has no unused input twin.
 */
const transformObject: SwaggerTransformObject = (document) => {
  const spec = jsonSchemaTransformObject(document) as {
    paths?: unknown;
    components?: { schemas?: Record<string, JsonSchema> };
  };
  const schemas = spec.components?.schemas ?? {};
  typeNullableReferences(spec, schemas);
  const used = new Set<string>();
  referencedComponents(spec.paths, used);
  for (let pending = [...used]; pending.length > 0; ) {
    const found = new Set<string>();
    for (const name of pending) referencedComponents(schemas[name], found);
    pending = [...found].filter((name) => !used.has(name));
    for (const name of pending) used.add(name);
  }
  return {
    ...spec,
    components: {
      ...spec.components,
      schemas: Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name))),
    },
  } as ReturnType<SwaggerTransformObject>;
};

/** OpenAPI generated from the same zod schemas that validate each route. */
export async function registerDocs(app: FastifyInstance, config: AppConfig) {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Wearable Health Research Platform API',
        description:
          'Researcher, administration and participant calls. Authenticated calls send `Authorization: Bearer <token>`.',
        version: '1.0.0',
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description:
              'A session token from signing in or, on the calls marked for it, a personal access token.',
          },
          participantSession: {
            type: 'apiKey',
            in: 'header',
            name: PARTICIPANT_SESSION_HEADER,
            description: PARTICIPANT_SESSION_DOC,
          },
        },
      },
    },
    transform,
    transformObject,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    uiConfig: { docExpansion: 'list', deepLinking: true },
  });
}
