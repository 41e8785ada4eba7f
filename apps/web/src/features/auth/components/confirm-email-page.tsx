import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { AUTH_HARDENING_MESSAGES, CONFIRM_EMAIL_TEXTS } from '@research/contracts';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { LoadingIndicator } from '../../../components/loading-indicator';
import { ROUTES } from '../../../lib/auth/routing';
import { useConfirmEmail } from '../api/confirm-email';
import { AuthCard } from './auth-card';

/** /confirm-email?token=…: the link of the confirmation e-mail sent at sign-up. */
export default function ConfirmEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const confirm = useConfirmEmail(token);

  if (token && confirm.isPending) {
    return <LoadingIndicator message={AUTH_HARDENING_MESSAGES.confirmingTitle} />;
  }

  if (confirm.isSuccess) {
    return (
      <AuthCard title={AUTH_HARDENING_MESSAGES.confirmedTitle}>
        <Alert severity="success" sx={{ mb: 3 }}>
          {confirm.data}
        </Alert>
        <Button component={RouterLink} to={ROUTES.auth} variant="contained" fullWidth>
          {CONFIRM_EMAIL_TEXTS.continue}
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={AUTH_HARDENING_MESSAGES.invalidTitle}>
      <Alert severity="error" sx={{ mb: 3 }}>
        {AUTH_HARDENING_MESSAGES.confirmationInvalid}
      </Alert>
      <Button component={RouterLink} to={ROUTES.auth} variant="contained" fullWidth>
        {CONFIRM_EMAIL_TEXTS.goToSignIn}
      </Button>
    </AuthCard>
  );
}
