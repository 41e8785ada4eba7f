import { AUDIT_STUDY_KINDS, AUDIT_TEXTS as T } from '@research/contracts';
import { useParams } from 'react-router';
import { useStudyMembers } from '../api/audit-trail';
import { AuditPageFrame } from './audit-page-frame';
import { AuditTrailView } from './audit-trail-view';

/** /researcher/study/:studyId/audit — the study's audit trail (its owner; the server checks). */
export default function StudyAuditPage() {
  const { studyId = '' } = useParams();
  const members = useStudyMembers(studyId);
  const people = members.data?.members.map((m) => ({ id: m.id, label: `${m.name} <${m.email}>` }));
  return (
    <AuditPageFrame
      back={{ to: `/researcher/study/${studyId}`, label: T.backToStudy }}
      title={T.studyTitle}
      intro={T.studyIntro}
    >
      <AuditTrailView
        scope={{ studyId }}
        kinds={AUDIT_STUDY_KINDS}
        {...(people ? { people } : {})}
        csvName="study"
      />
    </AuditPageFrame>
  );
}
