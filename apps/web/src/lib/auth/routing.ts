import type { AuthUser, UserProfile } from '@research/contracts';

/**
 * Where each signed-in state belongs. Pure functions, shared by the
 * route guards and the pages that redirect on entry, and tested as a table.
 */
export const ROUTES = {
  landing: '/',
  auth: '/researcher/auth',
  dashboard: '/dashboard',
  register: '/researcher/register',
  applicationStatus: '/researcher/application-status',
  masterDashboard: '/master/dashboard',
  researcherDashboard: '/researcher/dashboard',
} as const;

export function isMaster(profile: UserProfile | null): boolean {
  return profile !== null && (profile.role === 'master' || profile.isMasterAccount);
}

export function isApprovedResearcher(profile: UserProfile | null): boolean {
  return profile !== null && profile.role === 'researcher' && profile.status === 'approved';
}

/** /dashboard: redirect only. */
export function dashboardTarget(user: AuthUser | null, profile: UserProfile | null): string {
  if (!user) return ROUTES.auth;
  if (isMaster(profile)) return ROUTES.masterDashboard;
  if (isApprovedResearcher(profile)) return ROUTES.researcherDashboard;
  if (
    profile?.role === 'researcher' &&
    (profile.status === 'pending' || profile.status === 'rejected')
  ) {
    return ROUTES.applicationStatus;
  }
  return ROUTES.register;
}

/** /researcher/register on entry: null means stay and show the form. */
export function registerEntryTarget(profile: UserProfile | null): string | null {
  if (isMaster(profile)) return ROUTES.masterDashboard;
  if (isApprovedResearcher(profile)) return ROUTES.researcherDashboard;
  if (profile?.status === 'pending') return ROUTES.applicationStatus;
  return null;
}

/** /researcher/application-status on entry: null means stay (pending or rejected). */
export function applicationStatusTarget(profile: UserProfile | null): string | null {
  if (isMaster(profile)) return ROUTES.masterDashboard;
  if (isApprovedResearcher(profile)) return ROUTES.researcherDashboard;
  if (profile?.status === 'pending' || profile?.status === 'rejected') return null;
  return ROUTES.register;
}

/** The name the navigation and the welcome show. */
export function displayNameOf(user: Pick<AuthUser, 'displayName' | 'email'>): string {
  return user.displayName?.trim() || user.email;
}

/** Navigation state the guards hand to the portal: the page to return to after sign-in. */
export interface SignInState {
  from?: string;
}

/** The in-app path to go to after sign-in, or /dashboard. Only same-site paths are followed. */
export function afterSignIn(state: unknown): string {
  const from = (state as SignInState | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//')
    ? from
    : ROUTES.dashboard;
}
