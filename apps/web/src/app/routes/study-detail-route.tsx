import { ADHERENCE_TEXTS, EXPORT_PANEL_TEXTS } from '@research/contracts';
import { lazy, Suspense } from 'react';
import { CollapsedSection } from '../../components/collapsed-section';
import { LoadingIndicator } from '../../components/loading-indicator';
import { AccessTokensPanel } from '../../features/access-tokens/access-tokens-panel';
import { ExportPanel } from '../../features/exports/export-panel';
import { ExtractionPanel } from '../../features/extraction/extraction-panel';
import type { ExtractionSections } from '../../features/study-detail/components/data-extraction-tab';
import StudyDetailPage, {
  type AdherenceTabSlot,
} from '../../features/study-detail/components/study-detail-page';
import { AuthorizationListing } from '../../features/wearables/components/authorization-listing';

/**
 * The Data export tab, top to bottom: the export form, list and scripts; the access tokens the
 * scripts use; the older per-request extraction runs, closed; the wearable authorization listing.
 */
const extractionSections: ExtractionSections = ({ studyId, signedIn, notify }) => (
  <>
    <ExportPanel studyId={studyId} signedIn={signedIn} />
    <AccessTokensPanel studyId={studyId} notify={notify} />
    <CollapsedSection title={EXPORT_PANEL_TEXTS.extractionRuns}>
      <ExtractionPanel studyId={studyId} signedIn={signedIn} notify={notify} />
    </CollapsedSection>
    <AuthorizationListing studyId={studyId} notify={notify} />
  </>
);

// Its own chunk: the heat map's code loads when the tab is first opened.
const AdherenceTab = lazy(() => import('../../features/adherence/components/adherence-tab'));

const adherenceTab: AdherenceTabSlot = (props) => (
  <Suspense fallback={<LoadingIndicator message={ADHERENCE_TEXTS.loading} />}>
    <AdherenceTab {...props} />
  </Suspense>
);

/** /researcher/study/:studyId: the study screen with the sections other features own. */
export default function StudyDetailRoute() {
  return <StudyDetailPage extractionSections={extractionSections} adherenceTab={adherenceTab} />;
}
