import type { OperationDefinition } from './operation.js';

/*
 * URLs of operations, apart from their schemas: the web's API client needs these on every page,
 * and this module imports nothing from zod, so the landing route's bundle stays without it.
 */

type QueryValue = string | number | boolean | null | undefined;

/**
 * The URL of a call: `:name` segments filled (encoded) from params, and the query string from
 * query, leaving out empty values so defaults apply on the server.
 */
export function operationUrl(
  operation: Pick<OperationDefinition, 'path'>,
  params?: object,
  query?: object,
): string {
  const values = (params ?? {}) as Record<string, unknown>;
  const path = operation.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === null || value === '')
      throw new Error(`Missing path parameter ${name} for ${operation.path}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, QueryValue>)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * Matches a concrete path ('/api/studies/3f…/participants') against an operation's pattern and
 * returns its params, or null. Used by test doubles that stand in for the server.
 */
export function matchOperationPath(
  operation: Pick<OperationDefinition, 'path'>,
  path: string,
): Record<string, string> | null {
  const pattern = operation.path.split('/');
  const actual = path.split('/');
  if (pattern.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i] ?? '';
    const got = actual[i] ?? '';
    if (want.startsWith(':')) {
      if (!got) return null;
      params[want.slice(1)] = decodeURIComponent(got);
    } else if (want !== got) return null;
  }
  return params;
}
