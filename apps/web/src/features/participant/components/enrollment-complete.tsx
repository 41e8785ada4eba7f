import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { ENROLMENT_SUCCESS_TEXTS } from '@research/contracts';
import { Link as RouterLink } from 'react-router';

/** 'Enrollment Complete': thanks, the participant id if known, and home. */
export function EnrollmentComplete({
  participantId,
  headingLevel = 'h2',
}: {
  participantId?: string | undefined;
  headingLevel?: 'h1' | 'h2';
}) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, py: 2 }}>
      <CheckCircleOutline color="success" sx={{ fontSize: 64 }} aria-hidden />
      <Typography variant="h5" component={headingLevel} align="center">
        {ENROLMENT_SUCCESS_TEXTS.title}
      </Typography>
      <Typography align="center">{ENROLMENT_SUCCESS_TEXTS.thanks}</Typography>
      {participantId && (
        <Paper
          variant="outlined"
          sx={{ p: 2, width: '100%', maxWidth: 420, textAlign: 'center', bgcolor: 'grey.50' }}
        >
          <Typography variant="body2" color="text.secondary">
            {ENROLMENT_SUCCESS_TEXTS.participantId}
          </Typography>
          <Typography
            data-testid="participant-id"
            sx={{ fontFamily: 'monospace', fontSize: '1.25rem', fontWeight: 600, mt: 0.5 }}
          >
            {participantId}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {ENROLMENT_SUCCESS_TEXTS.keepId}
          </Typography>
        </Paper>
      )}
      <Button component={RouterLink} to="/" variant="contained" size="large">
        {ENROLMENT_SUCCESS_TEXTS.home}
      </Button>
    </Box>
  );
}
