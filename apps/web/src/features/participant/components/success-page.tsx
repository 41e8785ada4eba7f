import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import { isValidParticipantId } from '@research/contracts';
import { useLocation, useSearchParams } from 'react-router';
import { EnrollmentComplete } from './enrollment-complete';

/** /participant/success: the thank-you screen, with the participant id if passed. */
export default function SuccessPage() {
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const fromState = (location.state as { participantId?: unknown } | null)?.participantId;
  const candidate =
    typeof fromState === 'string' ? fromState : (searchParams.get('participantId') ?? '');
  const participantId = isValidParticipantId(candidate) ? candidate : undefined;
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', px: { xs: 1.5, sm: 3 }, py: 5 }}>
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 640, p: { xs: 2, sm: 4 } }}>
        <EnrollmentComplete participantId={participantId} headingLevel="h1" />
      </Paper>
    </Box>
  );
}
