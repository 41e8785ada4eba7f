import { PlaceholderPanel } from '../../../components/placeholder-panel';

/** /researcher/dashboard (approved researchers). The study lists arrive with a later issue. */
export default function ResearcherDashboardPage() {
  return (
    <PlaceholderPanel title="Researcher Dashboard">
      Your studies and collaborative studies will appear here.
    </PlaceholderPanel>
  );
}
