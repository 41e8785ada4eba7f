import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';

type Stringify = (data: unknown) => string;

/** Route schemas are zod schemas, or (as fastify-type-provider-zod allows) `{ properties: zod }`. */
function zodSchemaOf(schema: unknown): z.ZodType | undefined {
  if (schema instanceof z.ZodType) return schema;
  if (typeof schema === 'object' && schema !== null && 'properties' in schema) {
    const { properties } = schema as { properties: unknown };
    if (properties instanceof z.ZodType) return properties;
  }
  return undefined;
}

// Many routes share one schema (the error envelope answers every 4xx); compile each once.
const compiled = new WeakMap<object, Stringify>();

/**
 * A serializer generated from the response schema's JSON Schema (the same one OpenAPI shows):
 * it writes only the properties the schema lists — every object is `additionalProperties:
 * false` — so a response never carries a field the contract does not name.
 */
function stringifierFor(schema: z.ZodType): Stringify {
  let stringify = compiled.get(schema);
  if (!stringify) {
    const jsonSchema = z.toJSONSchema(schema, {
      io: 'output',
      target: 'draft-7',
      unrepresentable: 'any',
    });
    stringify = fastJson(jsonSchema as Parameters<typeof fastJson>[0]) as Stringify;
    compiled.set(schema, stringify);
  }
  return stringify;
}

export interface ResponseSerializerOptions {
  /**
   * Also check each response against its zod schema and fail (500) on any mismatch. Tests turn
   * this on to catch a handler drifting from its contract; in production the generated
   * serializer alone keeps the guarantee that matters — nothing outside the schema is sent —
   * without parsing every response a second time.
   */
  validate: boolean;
}

/**
 * Fastify serializer compiler for zod response schemas, in place of fastify-type-provider-zod's
 * `serializerCompiler` (which parses every response with zod, then `JSON.stringify`s it: the
 * largest cost on the list endpoints' request path).
 */
export function createResponseSerializerCompiler({
  validate,
}: ResponseSerializerOptions): FastifySerializerCompiler<unknown> {
  return ({ schema, method, url }) => {
    const zodSchema = zodSchemaOf(schema);
    if (!zodSchema) return fastJson(schema as Parameters<typeof fastJson>[0]) as Stringify;
    const stringify = stringifierFor(zodSchema);
    if (!validate) return stringify;
    return (data: unknown) => {
      const result = z.safeEncode(zodSchema, data);
      if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
      return stringify(result.data);
    };
  };
}
