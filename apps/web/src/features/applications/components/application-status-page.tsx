import { Navigate } from 'react-router';
import { LoadingIndicator } from '../../../components/loading-indicator';
import { PlaceholderPanel } from '../../../components/placeholder-panel';
import { applicationStatusTarget } from '../../../lib/auth/routing';
import { useUser } from '../../../lib/auth/user-provider';

/**
 * /researcher/application-status. The redirects of spec 000 §2 are final; the pending and
 * rejected screens arrive with the applications issue.
 */
export default function ApplicationStatusPage() {
  const { profile, loading } = useUser();
  if (loading) return <LoadingIndicator />;
  const target = applicationStatusTarget(profile);
  if (target) return <Navigate to={target} replace />;
  return profile?.status === 'rejected' ? (
    <PlaceholderPanel title="Application Not Approved">
      Your researcher application was not approved.
    </PlaceholderPanel>
  ) : (
    <PlaceholderPanel title="Application Under Review">
      Your researcher application is pending review.
    </PlaceholderPanel>
  );
}
