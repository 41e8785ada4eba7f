import { PlaceholderPanel } from '../../../components/placeholder-panel';

/** /master/dashboard (master only). The statistics and review tabs arrive with a later issue. */
export default function MasterDashboardPage() {
  return (
    <PlaceholderPanel title="Master Account Dashboard">
      Review researcher applications and manage researchers.
    </PlaceholderPanel>
  );
}
