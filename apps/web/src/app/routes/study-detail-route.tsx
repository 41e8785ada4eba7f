import { ExtractionPanel } from '../../features/extraction/extraction-panel';
import type { ExtractionSections } from '../../features/study-detail/components/data-extraction-tab';
import StudyDetailPage from '../../features/study-detail/components/study-detail-page';
import { AuthorizationListing } from '../../features/wearables/components/authorization-listing';

/** The extraction panel and the wearable authorization listing, above the storage card. */
const extractionSections: ExtractionSections = ({ studyId, signedIn, notify }) => (
  <>
    <ExtractionPanel studyId={studyId} signedIn={signedIn} notify={notify} />
    <AuthorizationListing studyId={studyId} notify={notify} />
  </>
);

/** /researcher/study/:studyId: the study screen with the sections other features own. */
export default function StudyDetailRoute() {
  return <StudyDetailPage extractionSections={extractionSections} />;
}
