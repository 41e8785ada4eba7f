import { z } from 'zod';

/**
 * Names a shared schema for the API reference: the OpenAPI document lists it once under
 * `components.schemas` by this name and refers to it wherever it appears (zod's global registry,
 * which fastify-type-provider-zod reads). Validation and serialization are unchanged.
 */
export function component<T extends z.ZodType>(id: string, schema: T): T {
  // A module evaluated again (a hot reload) names a new schema: the newest takes the name, where
  // the registry would refuse a second schema under it.
  const taken = z.globalRegistry._idmap.get(id);
  if (taken) z.globalRegistry.remove(taken);
  return schema.meta({ id });
}
