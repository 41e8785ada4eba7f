import { Navigate } from 'react-router';
import { LoadingIndicator } from '../../../components/loading-indicator';
import { PlaceholderPanel } from '../../../components/placeholder-panel';
import { registerEntryTarget } from '../../../lib/auth/routing';
import { useUser } from '../../../lib/auth/user-provider';

/**
 * /researcher/register. The entry redirects of spec 000 §2 are final; the application form itself
 * arrives with the applications issue.
 */
export default function RegisterPage() {
  const { profile, loading } = useUser();
  if (loading) return <LoadingIndicator />;
  const target = registerEntryTarget(profile);
  if (target) return <Navigate to={target} replace />;
  return (
    <PlaceholderPanel title="Researcher Registration">
      Apply for researcher access to create and manage studies.
    </PlaceholderPanel>
  );
}
