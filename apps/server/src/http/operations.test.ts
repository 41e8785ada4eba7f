import { ALL_OPERATIONS, operationNamed } from '@research/contracts';
import type { HTTPMethods } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/test-app.js';

const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

describe('one contract per call', () => {
  const t = useTestApp();

  it('registers a route for every operation of the contracts, and no two share a call', () => {
    // Some calls exist only in one deployment: the loopback admin port needs the embedded
    // database (one process owns it), and the storage routes serve the local file store.
    const deployedHere = (path: string) => {
      if (path.startsWith('/api/local-admin/')) return t.config.database.kind === 'pglite';
      if (path.startsWith('/api/storage/')) return t.config.storage.driver === 'fs';
      return true;
    };
    const seen = new Set<string>();
    for (const operation of ALL_OPERATIONS) {
      const call = key(operation.method, operation.path);
      expect(seen.has(call), `${call} is defined twice`).toBe(false);
      seen.add(call);
      expect(
        t.app.hasRoute({ method: operation.method as HTTPMethods, url: operation.path }),
        `${call} has no route`,
      ).toBe(deployedHere(operation.path));
    }
  });

  it('has no API route that is not an operation (every documented call comes from one)', () => {
    const document = t.app.swagger() as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const strays: string[] = [];
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, documented] of Object.entries(methods)) {
        if (method === 'head') continue;
        // The document names each call after its operation, and keeps its method and path
        // (parameters named alike; Fastify's catch-all `*` documented as a named one).
        const operation = operationNamed(documented.operationId ?? '');
        const samePath =
          operation?.path.replace(/:[A-Za-z]+|\*$/g, '{}') === path.replace(/\{[A-Za-z]+\}/g, '{}');
        if (!operation || operation.method.toLowerCase() !== method || !samePath)
          strays.push(key(method, path));
      }
    }
    expect(strays).toEqual([]);
  });
});
