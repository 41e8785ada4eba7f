import { ADHERENCE_TEXTS } from '@research/contracts';
import { lazy, Suspense } from 'react';
import { LoadingIndicator } from '../../components/loading-indicator';
import { AccessTokensPanel } from '../../features/access-tokens/access-tokens-panel';
import { ExtractionPanel } from '../../features/extraction/extraction-panel';
import type { ExtractionSections } from '../../features/study-detail/components/data-extraction-tab';
import StudyDetailPage, {
  type AdherenceTabSlot,
} from '../../features/study-detail/components/study-detail-page';
import { AuthorizationListing } from '../../features/wearables/components/authorization-listing';

/**
 * The extraction panel, the wearable authorization listing and the study's access tokens (for
 * scripts), above the storage card.
 */
const extractionSections: ExtractionSections = ({ studyId, signedIn, notify }) => (
  <>
    <ExtractionPanel studyId={studyId} signedIn={signedIn} notify={notify} />
    <AuthorizationListing studyId={studyId} notify={notify} />
    <AccessTokensPanel studyId={studyId} notify={notify} />
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
