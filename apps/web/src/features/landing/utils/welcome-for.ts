import { LANDING_TEXTS, type UserProfile } from '@research/contracts';
import { ROUTES } from '../../../lib/auth/routing';

/**
 * The signed-in welcome's line and button on the landing page. What it promises fits the
 * account: only an approved researcher has studies to manage.
 */
export function welcomeFor(profile: UserProfile | null): {
  line: string;
  action: string;
  to: string;
} {
  const { welcomes } = LANDING_TEXTS;
  if (profile && (profile.role === 'master' || profile.isMasterAccount)) {
    return { ...welcomes.master, to: ROUTES.masterDashboard };
  }
  switch (profile?.status) {
    case 'approved':
      return { ...welcomes.approved, to: ROUTES.researcherDashboard };
    case 'pending':
      return { ...welcomes.pending, to: ROUTES.applicationStatus };
    case 'rejected':
      return { ...welcomes.rejected, to: ROUTES.applicationStatus };
    default:
      return { ...welcomes.noApplication, to: ROUTES.register };
  }
}
