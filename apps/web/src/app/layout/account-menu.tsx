import AdminPanelSettings from '@mui/icons-material/AdminPanelSettings';
import Dashboard from '@mui/icons-material/Dashboard';
import Logout from '@mui/icons-material/Logout';
import Person from '@mui/icons-material/Person';
import Avatar from '@mui/material/Avatar';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { SHELL_TEXTS } from '@research/contracts';
import { useEffect, useId, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { useSecureAuth } from '../../lib/auth/auth-provider';
import { isApprovedResearcher, isMaster, ROUTES } from '../../lib/auth/routing';
import { useUser } from '../../lib/auth/user-provider';
import type { NavUser } from './top-nav';

interface AccountMenuProps {
  user: NavUser;
  name: string;
}

/**
 * The signed-in account menu: the avatar opens it; it holds the dashboard link of
 * the user's role (highlighted when current) and 'Sign Out'. MUI's Menu gives focus handling,
 * arrow keys and Escape.
 */
export default function AccountMenu({ user, name }: AccountMenuProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const { logout } = useSecureAuth();
  const { profile, loading } = useUser();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const menuId = useId();
  const open = anchor !== null;
  const close = () => setAnchor(null);

  const showMaster = !loading && isMaster(profile);
  const showResearcher = !loading && isApprovedResearcher(profile);

  // Sign Out leaves the current page first and signs out only once the landing page is on
  // screen: signing out on a guarded page would make its guard send the user to the portal.
  // (Awaiting navigate() is not enough, as the router renders the new page in a transition.)
  const [signingOut, setSigningOut] = useState(false);
  useEffect(() => {
    if (signingOut && pathname === ROUTES.landing) {
      setSigningOut(false);
      void logout();
    }
  }, [signingOut, pathname, logout]);

  const signOut = () => {
    close();
    setSigningOut(true);
    navigate(ROUTES.landing);
  };

  return (
    <>
      <IconButton
        onClick={(event) => setAnchor(event.currentTarget)}
        aria-label={SHELL_TEXTS.accountMenu(name)}
        aria-haspopup="menu"
        aria-controls={open ? menuId : undefined}
        aria-expanded={open ? 'true' : undefined}
        sx={{ p: 0.5, flexShrink: 0, '&:focus-visible': { outline: '2px solid #fff' } }}
      >
        <Avatar
          src={user.photoURL ?? undefined}
          alt={user.photoURL ? name : undefined}
          sx={{ width: 40, height: 40, bgcolor: 'secondary.main', color: 'common.white' }}
        >
          <Person aria-hidden="true" />
        </Avatar>
      </IconButton>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={open}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { mt: 1, minWidth: 220 } } }}
      >
        {showMaster && (
          <MenuItem
            component={RouterLink}
            to={ROUTES.masterDashboard}
            selected={pathname === ROUTES.masterDashboard}
            aria-current={pathname === ROUTES.masterDashboard ? 'page' : undefined}
            onClick={close}
          >
            <ListItemIcon>
              <AdminPanelSettings fontSize="small" />
            </ListItemIcon>
            {SHELL_TEXTS.masterDashboard}
          </MenuItem>
        )}
        {showResearcher && (
          <MenuItem
            component={RouterLink}
            to={ROUTES.researcherDashboard}
            selected={pathname === ROUTES.researcherDashboard}
            aria-current={pathname === ROUTES.researcherDashboard ? 'page' : undefined}
            onClick={close}
          >
            <ListItemIcon>
              <Dashboard fontSize="small" />
            </ListItemIcon>
            {SHELL_TEXTS.dashboard}
          </MenuItem>
        )}
        {(showMaster || showResearcher) && <Divider />}
        <MenuItem onClick={signOut}>
          <ListItemIcon>
            <Logout fontSize="small" />
          </ListItemIcon>
          {SHELL_TEXTS.signOut}
        </MenuItem>
      </Menu>
    </>
  );
}
