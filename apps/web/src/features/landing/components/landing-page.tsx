import Biotech from '@mui/icons-material/Biotech';
import Watch from '@mui/icons-material/Watch';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { LANDING_TEXTS } from '@research/contracts';
import { Link as RouterLink } from 'react-router';
import { LoadingIndicator } from '../../../components/loading-indicator';
import { useSecureAuth } from '../../../lib/auth/auth-provider';
import { displayNameOf } from '../../../lib/auth/routing';
import { useUser } from '../../../lib/auth/user-provider';
import { welcomeFor } from '../utils/welcome-for';
import { AudienceCard } from './audience-card';
import { FeatureGrid } from './feature-grid';

/**
 * The landing page. Signed out: the entry cards come straight after the hero, since
 * a participant arriving with a study code should not have to scroll past the marketing grid.
 * Signed in: a welcome with the user's name and 'Go to Dashboard' in their place.
 */
export default function LandingPage() {
  const { user, initializing } = useSecureAuth();
  if (initializing) return <LoadingIndicator />;
  return (
    <>
      <Box
        component="section"
        sx={{
          background:
            'radial-gradient(1200px 400px at 10% -10%, rgba(140, 21, 21, 0.10), transparent 60%),' +
            'radial-gradient(900px 360px at 100% 0%, rgba(0, 80, 92, 0.10), transparent 60%)',
          pt: { xs: 6, md: 10 },
          pb: { xs: 5, md: 8 },
        }}
      >
        <Box sx={{ maxWidth: 'lg', mx: 'auto', px: { xs: 2, sm: 3 } }}>
          <Box sx={{ textAlign: 'center', maxWidth: 820, mx: 'auto', mb: { xs: 4, md: 6 } }}>
            <Typography
              variant="h2"
              component="h1"
              sx={{ fontSize: { xs: '2.1rem', sm: '2.75rem', md: '3.5rem' }, mb: 2 }}
            >
              {LANDING_TEXTS.title}
            </Typography>
            <Typography
              variant="h6"
              component="p"
              color="text.secondary"
              sx={{ fontWeight: 400, fontSize: { xs: '1.05rem', md: '1.25rem' } }}
            >
              {LANDING_TEXTS.intro}
            </Typography>
          </Box>
          {user ? (
            <Welcome name={displayNameOf(user)} />
          ) : (
            <Box
              sx={{
                display: 'grid',
                gap: { xs: 2.5, md: 4 },
                gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' },
                maxWidth: 1000,
                mx: 'auto',
              }}
            >
              <AudienceCard
                title={LANDING_TEXTS.participants.title}
                description={LANDING_TEXTS.participants.description}
                tag={LANDING_TEXTS.participants.tag}
                actionLabel={LANDING_TEXTS.participants.action}
                actionTo="/participant/enroll"
                Icon={Watch}
                color="primary"
              />
              <AudienceCard
                title={LANDING_TEXTS.researchers.title}
                description={LANDING_TEXTS.researchers.description}
                tag={LANDING_TEXTS.researchers.tag}
                actionLabel={LANDING_TEXTS.researchers.action}
                actionTo="/researcher/auth"
                Icon={Biotech}
                color="secondary"
              />
            </Box>
          )}
        </Box>
      </Box>
      <Box component="section" aria-labelledby="features-heading" sx={{ py: { xs: 6, md: 9 } }}>
        <Box sx={{ maxWidth: 'lg', mx: 'auto', px: { xs: 2, sm: 3 } }}>
          <Box sx={{ textAlign: 'center', mb: { xs: 4, md: 6 } }}>
            <Typography
              variant="overline"
              component="p"
              color="secondary"
              sx={{ display: 'block', mb: 1 }}
            >
              {LANDING_TEXTS.featuresOverline}
            </Typography>
            <Typography
              id="features-heading"
              variant="h4"
              component="h2"
              sx={{ fontSize: { xs: '1.6rem', md: '2.125rem' } }}
            >
              {LANDING_TEXTS.featuresHeading}
            </Typography>
          </Box>
          <FeatureGrid />
        </Box>
      </Box>
    </>
  );
}

function Welcome({ name }: { name: string }) {
  const { profile, loading } = useUser();
  // Until the profile is known, no promise about studies the account may not have.
  const welcome = loading ? null : welcomeFor(profile);
  return (
    <Paper
      component="section"
      aria-labelledby="welcome-heading"
      variant="outlined"
      sx={{ maxWidth: 640, mx: 'auto', p: { xs: 3, sm: 4 }, textAlign: 'center' }}
    >
      <Typography id="welcome-heading" variant="h5" component="h2" gutterBottom>
        {LANDING_TEXTS.welcome(name)}
      </Typography>
      {welcome && (
        <>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {welcome.line}
          </Typography>
          <Button component={RouterLink} to={welcome.to} variant="contained" size="large">
            {welcome.action}
          </Button>
        </>
      )}
    </Paper>
  );
}
