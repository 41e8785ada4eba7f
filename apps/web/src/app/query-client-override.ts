import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';

/**
 * Lets tests hand in a fresh QueryClient without the providers importing TanStack Query itself
 * (a type-only import costs nothing on the landing route).
 */
export const QueryClientOverrideContext = createContext<QueryClient | null>(null);

export function useQueryClientOverride(): QueryClient | null {
  return useContext(QueryClientOverrideContext);
}
