import { ROUTE_LOADING_TEXTS } from '@research/contracts';
import { Navigate, Outlet, useLocation, useNavigation } from 'react-router';
import { LoadingIndicator } from '../../components/loading-indicator';
import { useSecureAuth } from '../../lib/auth/auth-provider';
import {
  afterSignIn,
  dashboardTarget,
  isApprovedResearcher,
  isMaster,
  ROUTES,
  type SignInState,
} from '../../lib/auth/routing';
import { useUser } from '../../lib/auth/user-provider';

/**
 * Route guards. Each is the Component of a pathless route whose children are the
 * guarded pages. While auth or the profile is loading they show the loading indicator, so the
 * wrong page never flashes. They wait on `initializing` (not on the sign-in `loading` flag) so a
 * sign-in in progress never unmounts the portal that started it.
 */

/**
 * What a page loading at `pathname` says while its guard or its code loads: the study page says
 * what it loads from the first moment, not a bare 'Loading...' until its own data is asked for.
 */
export function loadingMessageFor(pathname: string): string | undefined {
  if (!pathname.startsWith('/researcher/study/')) return undefined;
  return pathname.includes('/participant/')
    ? ROUTE_LOADING_TEXTS.participantCharts
    : ROUTE_LOADING_TEXTS.studyDetail;
}

/**
 * To the portal, remembering where the person was going (e.g. an invitation link with
 * ?code=&password=), so signing in brings them back there.
 */
function ToSignIn() {
  const location = useLocation();
  const state: SignInState = { from: `${location.pathname}${location.search}` };
  return <Navigate to={ROUTES.auth} replace state={state} />;
}

/** /researcher/auth: signed out only; signed in → where they were going, else /dashboard. */
export function RequireSignedOut() {
  const { user, initializing } = useSecureAuth();
  const navigation = useNavigation();
  const location = useLocation();
  if (initializing) return <LoadingIndicator />;
  // Right after signing up the portal is already on its way to /researcher/register; let it go.
  if (user && navigation.state === 'idle')
    return <Navigate to={afterSignIn(location.state)} replace />;
  return <Outlet />;
}

/** /researcher/register, /researcher/application-status: signed in. */
export function RequireSignedIn() {
  const { user, initializing } = useSecureAuth();
  if (initializing) return <LoadingIndicator />;
  if (!user) return <ToSignIn />;
  return <Outlet />;
}

/** /master/dashboard: master only; other signed-in users → /researcher/dashboard. */
export function RequireMaster() {
  const { user, initializing } = useSecureAuth();
  const { profile, loading } = useUser();
  if (initializing) return <LoadingIndicator />;
  if (!user) return <ToSignIn />;
  if (loading) return <LoadingIndicator />;
  if (!isMaster(profile)) return <Navigate to={ROUTES.researcherDashboard} replace />;
  return <Outlet />;
}

/**
 * /researcher/dashboard, /researcher/study/:studyId: approved researcher only; any other
 * signed-in user → /researcher/application-status (which sends each state on to its place).
 */
export function RequireApprovedResearcher() {
  const { user, initializing } = useSecureAuth();
  const { profile, loading } = useUser();
  const message = loadingMessageFor(useLocation().pathname);
  if (initializing) return <LoadingIndicator message={message} />;
  if (!user) return <ToSignIn />;
  if (loading) return <LoadingIndicator message={message} />;
  if (!isApprovedResearcher(profile)) {
    return <Navigate to={ROUTES.applicationStatus} replace />;
  }
  return <Outlet />;
}

/** /dashboard: redirect only, to the dashboard of the user's role and status. */
export function DashboardRedirect() {
  const { user, initializing } = useSecureAuth();
  const { profile, loading } = useUser();
  if (initializing || (user && loading)) return <LoadingIndicator />;
  return <Navigate to={dashboardTarget(user, profile)} replace />;
}
