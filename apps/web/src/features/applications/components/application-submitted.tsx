import CheckCircle from '@mui/icons-material/CheckCircle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { APPLICATION_MESSAGES, REGISTER_TEXTS } from '@research/contracts';
import { useEffect } from 'react';
import { Link as RouterLink } from 'react-router';
import { ROUTES } from '../../../lib/auth/routing';

/** Shown for the 3 seconds between a successful submission and the status page. */
export function ApplicationSubmitted({ email }: { email: string }) {
  // The form was long and the user submitted from its end: bring the short panel into view.
  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, []);
  return (
    <Box role="status" sx={{ textAlign: 'center', py: { xs: 2, sm: 4 } }}>
      <CheckCircle color="success" sx={{ fontSize: 72 }} />
      <Typography
        variant="h4"
        component="h1"
        sx={{ mt: 2, fontSize: { xs: '1.5rem', sm: '2rem' } }}
      >
        {APPLICATION_MESSAGES.submitted}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 2, maxWidth: 520, mx: 'auto' }}>
        {REGISTER_TEXTS.submittedNote[0]}
        <Box component="strong" sx={{ color: 'text.primary', overflowWrap: 'anywhere' }}>
          {email}
        </Box>
        {REGISTER_TEXTS.submittedNote[1]}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 3 }}>
        {REGISTER_TEXTS.redirecting}
      </Typography>
      <LinearProgress sx={{ mt: 1.5, maxWidth: 320, mx: 'auto', borderRadius: 1 }} />
      <Button
        component={RouterLink}
        to={ROUTES.applicationStatus}
        replace
        variant="text"
        sx={{ mt: 2 }}
      >
        {REGISTER_TEXTS.goToStatus}
      </Button>
    </Box>
  );
}
