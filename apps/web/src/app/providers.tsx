import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/system';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient as defaultQueryClient } from '../lib/query-client';
import { theme } from './theme';

interface AppProvidersProps {
  children: ReactNode;
  /** Tests pass a fresh client so cached data never leaks between them. */
  queryClient?: QueryClient;
}

/**
 * Our theme has no CSS-variable colour schemes, and for such a theme the ThemeProvider of
 * @mui/material only forwards to this one from @mui/system (its ThemeProviderNoVars, with
 * `vars: null`). Importing the latter directly keeps the colour-scheme machinery of the former
 * (~3 KB gzip) off the landing route, whose budget is 150 KB (DESIGN §12).
 */
const providedTheme = { ...theme, vars: null };

export function AppProviders({ children, queryClient = defaultQueryClient }: AppProvidersProps) {
  return (
    <ThemeProvider theme={providedTheme}>
      <CssBaseline />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </ThemeProvider>
  );
}
