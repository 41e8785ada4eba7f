import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { queryClient } from '../lib/query-client';
import { useQueryClientOverride } from './query-client-override';

/**
 * TanStack Query for every page but the landing page. Loaded lazily as the layout of those pages,
 * so the library stays off the landing route's initial JavaScript (150 KB gzip budget).
 */
export default function QueryBoundary() {
  const client = useQueryClientOverride() ?? queryClient;
  return (
    <QueryClientProvider client={client}>
      <Outlet />
    </QueryClientProvider>
  );
}
