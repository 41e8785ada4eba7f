import ArrowBack from '@mui/icons-material/ArrowBack';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { AUDIT_STUDY_KINDS, AUDIT_TEXTS as T } from '@research/contracts';
import { Link as RouterLink, useParams } from 'react-router';
import { useStudyMembers } from '../api/audit-trail';
import { AuditTrailView } from './audit-trail-view';

/** /researcher/study/:studyId/audit — the study's audit trail (its owner; the server checks). */
export default function StudyAuditPage() {
  const { studyId = '' } = useParams();
  const members = useStudyMembers(studyId);
  const people = members.data?.members.map((m) => ({ id: m.id, label: `${m.name} <${m.email}>` }));
  return (
    <Box
      component="section"
      sx={{ maxWidth: 'lg', mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 3, md: 5 } }}
    >
      <Button
        component={RouterLink}
        to={`/researcher/study/${studyId}`}
        startIcon={<ArrowBack />}
        sx={{ mb: 2, ml: -1 }}
      >
        {T.backToStudy}
      </Button>
      <Typography
        variant="h4"
        component="h1"
        gutterBottom
        sx={{ fontSize: { xs: '1.5rem', md: '2rem' } }}
      >
        {T.studyTitle}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {T.studyIntro}
      </Typography>
      <AuditTrailView
        scope={{ studyId }}
        kinds={AUDIT_STUDY_KINDS}
        {...(people ? { people } : {})}
        csvName="study"
      />
    </Box>
  );
}
