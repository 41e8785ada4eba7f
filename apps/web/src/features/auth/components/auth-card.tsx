import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { BrandLogo } from '../../../components/brand-logo';

interface AuthCardProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}

/** The centred card shared by the portal, the reset-password and the set-up pages. */
export function AuthCard({ title, subtitle, children, footer }: AuthCardProps) {
  return (
    <Box
      component="section"
      aria-labelledby="auth-card-title"
      sx={{
        display: 'flex',
        justifyContent: 'center',
        px: 2,
        py: { xs: 4, md: 8 },
        background:
          'radial-gradient(900px 360px at 0% -10%, rgba(140, 21, 21, 0.08), transparent 60%),' +
          'radial-gradient(700px 300px at 100% 0%, rgba(0, 80, 92, 0.08), transparent 60%)',
      }}
    >
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 480, p: { xs: 3, sm: 4.5 } }}>
        <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', mb: 3 }}>
          <BrandLogo size={48} />
          <Typography
            id="auth-card-title"
            variant="h4"
            component="h1"
            sx={{ mt: 2, fontSize: { xs: '1.6rem', sm: '2rem' }, textAlign: 'center' }}
          >
            {title}
          </Typography>
          {subtitle && (
            <Typography color="text.secondary" sx={{ mt: 1, textAlign: 'center' }}>
              {subtitle}
            </Typography>
          )}
        </Box>
        {children}
        {footer && (
          <Typography
            variant="body2"
            color="text.secondary"
            component="p"
            sx={{ mt: 3, textAlign: 'center' }}
          >
            {footer}
          </Typography>
        )}
      </Paper>
    </Box>
  );
}

interface AuthNoticeProps {
  title: string;
  severity: 'success' | 'error';
  message: ReactNode;
  /** Where the one button leads, and its text. */
  to: string;
  action: string;
}

/** An auth card that only tells an outcome (link confirmed, link invalid…) and leads on. */
export function AuthNotice({ title, severity, message, to, action }: AuthNoticeProps) {
  return (
    <AuthCard title={title}>
      <Alert severity={severity} sx={{ mb: 3 }}>
        {message}
      </Alert>
      <Button component={RouterLink} to={to} variant="contained" fullWidth>
        {action}
      </Button>
    </AuthCard>
  );
}
