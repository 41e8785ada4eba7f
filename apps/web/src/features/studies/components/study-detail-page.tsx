import { useParams } from 'react-router';
import { PlaceholderPanel } from '../../../components/placeholder-panel';

/** /researcher/study/:studyId (approved researchers). The study screen arrives with a later issue. */
export default function StudyDetailPage() {
  const { studyId } = useParams();
  return <PlaceholderPanel title="Study Details">Study {studyId}</PlaceholderPanel>;
}
