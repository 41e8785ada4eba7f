import Box from '@mui/material/Box';
import { keyframes } from '@mui/material/styles';
import { SHELL_TEXTS } from '@research/contracts';
import { lazy, Suspense, useEffect } from 'react';
import { Outlet, useNavigate, useNavigation } from 'react-router';
import { useSecureAuth } from '../../lib/auth/auth-provider';
import { ROUTES } from '../../lib/auth/routing';
import { ScrollToTop } from './scroll-to-top';
import { TopNav } from './top-nav';

// The footer sits below the fold: it loads after the page, outside the landing route's 150 KB
// gzip budget of initial JavaScript.
const SiteFooter = lazy(() =>
  import('./site-footer').then((module) => ({ default: module.SiteFooter })),
);

export function RootLayout() {
  // Between pages the old page stays up while the next chunk loads; a thin bar says so.
  const navigation = useNavigation();
  const { user, initializing } = useSecureAuth();
  return (
    <Box sx={{ minHeight: '100dvh', display: 'flex', flexDirection: 'column' }}>
      <Box
        component="a"
        href="#main-content"
        sx={{
          position: 'absolute',
          left: 8,
          top: -48,
          zIndex: (theme) => theme.zIndex.appBar + 1,
          bgcolor: 'background.paper',
          color: 'primary.main',
          px: 2,
          py: 1,
          borderRadius: 1,
          '&:focus': { top: 8 },
        }}
      >
        {SHELL_TEXTS.skipToContent}
      </Box>
      {navigation.state === 'loading' && <NavigationProgress />}
      <SessionExpiredRedirect />
      <TopNav user={user} pending={initializing} />
      <Box component="main" id="main-content" tabIndex={-1} sx={{ flex: 1, outline: 'none' }}>
        <Outlet />
      </Box>
      <Suspense fallback={null}>
        <SiteFooter />
      </Suspense>
      <ScrollToTop />
    </Box>
  );
}

const slide = keyframes`
  from { transform: translateX(-100%); }
  to { transform: translateX(250%); }
`;

/** A thin indeterminate bar; hand-made because LinearProgress costs ~1.5 KB gzip up front. */
function NavigationProgress() {
  return (
    <Box
      role="progressbar"
      aria-label={SHELL_TEXTS.loadingPage}
      sx={{
        position: 'fixed',
        top: 0,
        left: 0,
        right: 0,
        height: 3,
        overflow: 'hidden',
        zIndex: (theme) => theme.zIndex.appBar + 1,
        bgcolor: 'rgba(0, 80, 92, 0.25)',
      }}
    >
      <Box
        sx={{
          width: '40%',
          height: '100%',
          bgcolor: 'secondary.main',
          animation: `${slide} 1.1s ease-in-out infinite`,
          '@media (prefers-reduced-motion: reduce)': { animation: 'none', width: '100%' },
        }}
      />
    </Box>
  );
}

/** An authenticated call found the session gone: the user signs in again (auth is cleared). */
function SessionExpiredRedirect() {
  const { sessionExpired, acknowledgeSessionExpired } = useSecureAuth();
  const navigate = useNavigate();
  useEffect(() => {
    if (sessionExpired) {
      acknowledgeSessionExpired();
      navigate(ROUTES.auth, { replace: true });
    }
  }, [sessionExpired, acknowledgeSessionExpired, navigate]);
  return null;
}
