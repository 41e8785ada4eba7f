import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { SHELL_TEXTS } from '@research/contracts';
import { lazy, Suspense } from 'react';
import { Link as RouterLink } from 'react-router';
import { BrandLogo } from '../../components/brand-logo';

// MUI Menu, Avatar and IconButton load only for signed-in users (the landing route has a 150 KB
// gzip JavaScript budget).
const AccountMenu = lazy(() => import('./account-menu'));

/** What the navigation needs to know about a signed-in user. */
export interface NavUser {
  email: string;
  displayName?: string | null;
  photoURL?: string | null;
}

export interface TopNavProps {
  /** null or absent: signed out. */
  user?: NavUser | null;
  /** While the stored session is being verified neither set of actions shows. */
  pending?: boolean;
}

export function TopNav({ user = null, pending = false }: TopNavProps) {
  return (
    // A plain <header> rather than AppBar/Toolbar/Container: same look, ~2 KB less JavaScript on
    // the landing route, whose budget is tight.
    <Box
      component="header"
      sx={{
        position: 'sticky',
        top: 0,
        zIndex: 'appBar',
        bgcolor: 'primary.main',
        color: 'primary.contrastText',
        boxShadow: '0 1px 0 rgba(0, 0, 0, 0.12)',
      }}
    >
      <Box
        component="nav"
        aria-label={SHELL_TEXTS.mainNavigation}
        sx={{
          maxWidth: 'lg',
          mx: 'auto',
          display: 'flex',
          alignItems: 'center',
          gap: 1,
          minHeight: { xs: 60, sm: 68 },
          px: { xs: 1.5, sm: 3 },
        }}
      >
        <Box
          component={RouterLink}
          to="/"
          aria-label={SHELL_TEXTS.homeLink}
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: 1.5,
            color: 'inherit',
            textDecoration: 'none',
            mr: 'auto',
            minWidth: 0,
            borderRadius: 1,
            '&:focus-visible': { outline: '2px solid #fff', outlineOffset: 4 },
          }}
        >
          <BrandLogo tone="light" size={36} />
          {/* Below 600 px the two buttons need the width; the hero repeats the name anyway. */}
          <Typography
            component="span"
            variant="h6"
            noWrap
            sx={{ display: { xs: 'none', sm: 'block' }, fontWeight: 700, fontSize: '1.1rem' }}
          >
            {SHELL_TEXTS.productName}
          </Typography>
        </Box>
        {pending ? null : user ? <SignedInActions user={user} /> : <SignedOutActions />}
      </Box>
    </Box>
  );
}

function SignedOutActions() {
  return (
    <Box sx={{ display: 'flex', gap: { xs: 1, sm: 1.5 }, flexShrink: 0 }}>
      <Button
        component={RouterLink}
        to="/participant/enroll"
        variant="contained"
        sx={{
          bgcolor: 'common.white',
          color: 'primary.main',
          '&:hover': { bgcolor: 'grey.100' },
          px: { xs: 1.5, sm: 2 },
        }}
      >
        {SHELL_TEXTS.joinStudy}
      </Button>
      <Button
        component={RouterLink}
        to="/researcher/auth"
        variant="outlined"
        color="inherit"
        sx={{
          borderColor: 'rgba(255,255,255,0.7)',
          '&:hover': { borderColor: 'common.white', bgcolor: 'rgba(255,255,255,0.08)' },
          px: { xs: 1.5, sm: 2 },
        }}
      >
        {SHELL_TEXTS.researcherLogin}
      </Button>
    </Box>
  );
}

function SignedInActions({ user }: { user: NavUser }) {
  const name = user.displayName?.trim() || user.email;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0, flexShrink: 1 }}>
      <Typography
        component="span"
        variant="body2"
        noWrap
        title={name}
        sx={{ fontWeight: 500, maxWidth: { xs: 140, sm: 260 }, minWidth: 0 }}
      >
        {name}
      </Typography>
      {/* Same size as the avatar button, so nothing moves when the menu chunk arrives. */}
      <Suspense fallback={<Box sx={{ width: 48, height: 48, flexShrink: 0 }} />}>
        <AccountMenu user={user} name={name} />
      </Suspense>
    </Box>
  );
}
