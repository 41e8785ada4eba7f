import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/system';
import type { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { SecureAuthProvider } from '../lib/auth/auth-provider';
import { UserProvider } from '../lib/auth/user-provider';
import { QueryClientOverrideContext } from './query-client-override';
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
 * (~3 KB gzip) off the landing route, whose budget is 150 KB.
 *
 * TanStack Query is not provided here: the lazily loaded QueryBoundary route provides it to the
 * pages that use it, which keeps the library off the landing route.
 */
const providedTheme = { ...theme, vars: null };

export function AppProviders({ children, queryClient }: AppProvidersProps) {
  return (
    <ThemeProvider theme={providedTheme}>
      <CssBaseline />
      <QueryClientOverrideContext.Provider value={queryClient ?? null}>
        <SecureAuthProvider>
          <UserProvider>{children}</UserProvider>
        </SecureAuthProvider>
      </QueryClientOverrideContext.Provider>
    </ThemeProvider>
  );
}
