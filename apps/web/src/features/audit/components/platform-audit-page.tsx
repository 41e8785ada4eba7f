import ArrowBack from '@mui/icons-material/ArrowBack';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { AUDIT_PLATFORM_KINDS, AUDIT_TEXTS as T } from '@research/contracts';
import { Link as RouterLink } from 'react-router';
import { AuditTrailView } from './audit-trail-view';

/** /master/audit — the platform's audit trail (the master only). */
export default function PlatformAuditPage() {
  return (
    <Box
      component="section"
      sx={{ maxWidth: 'lg', mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 3, md: 5 } }}
    >
      <Button
        component={RouterLink}
        to="/master/dashboard"
        startIcon={<ArrowBack />}
        sx={{ mb: 2, ml: -1 }}
      >
        {T.backToDashboard}
      </Button>
      <Typography
        variant="h4"
        component="h1"
        gutterBottom
        sx={{ fontSize: { xs: '1.5rem', md: '2rem' } }}
      >
        {T.platformTitle}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {T.platformIntro}
      </Typography>
      <AuditTrailView scope={{ platform: true }} kinds={AUDIT_PLATFORM_KINDS} csvName="platform" />
    </Box>
  );
}
