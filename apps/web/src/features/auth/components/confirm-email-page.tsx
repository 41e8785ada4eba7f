import { AUTH_HARDENING_MESSAGES, CONFIRM_EMAIL_TEXTS } from '@research/contracts';
import { useSearchParams } from 'react-router';
import { LoadingIndicator } from '../../../components/loading-indicator';
import { ROUTES } from '../../../lib/auth/routing';
import { useConfirmEmail } from '../api/confirm-email';
import { AuthNotice } from './auth-card';

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
      <AuthNotice
        title={AUTH_HARDENING_MESSAGES.confirmedTitle}
        severity="success"
        message={confirm.data}
        to={ROUTES.auth}
        action={CONFIRM_EMAIL_TEXTS.continue}
      />
    );
  }

  return (
    <AuthNotice
      title={AUTH_HARDENING_MESSAGES.invalidTitle}
      severity="error"
      message={AUTH_HARDENING_MESSAGES.confirmationInvalid}
      to={ROUTES.auth}
      action={CONFIRM_EMAIL_TEXTS.goToSignIn}
    />
  );
}
