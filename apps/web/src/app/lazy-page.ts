import { CHUNK_LOAD_TIMEOUT_MS } from '@research/contracts';
import type { ComponentType } from 'react';

interface PageModule {
  default: ComponentType;
}

/**
 * Turns `() => import('./some-page')` into a react-router `lazy` function, so each route is one
 * line in router.tsx. A chunk that never arrives fails after CHUNK_LOAD_TIMEOUT_MS
 * instead of leaving the user on a spinner; the failure reaches the route's error page.
 */
export function lazyPage(load: () => Promise<PageModule>) {
  return async () => {
    const module = await withTimeout(load(), CHUNK_LOAD_TIMEOUT_MS);
    return { Component: module.default };
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error('Loading the page timed out. Check your connection and try again.')),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
