import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { AUTH_HARDENING_MESSAGES } from '@research/contracts';
import { useResendConfirmation } from '../api/resend-confirmation';

/** Shown above the application form while the account's address is not confirmed. */
export function ConfirmEmailNotice() {
  const resend = useResendConfirmation();
  return (
    <Alert
      severity={resend.isError ? 'error' : resend.isSuccess ? 'success' : 'warning'}
      sx={{ mt: 3 }}
      action={
        <Button
          color="inherit"
          size="small"
          disabled={resend.isPending || resend.isSuccess}
          onClick={() => resend.mutate()}
        >
          {AUTH_HARDENING_MESSAGES.resendButton}
        </Button>
      }
    >
      {resend.isSuccess
        ? resend.data
        : resend.isError && resend.error instanceof Error
          ? resend.error.message
          : AUTH_HARDENING_MESSAGES.unconfirmedNotice}
    </Alert>
  );
}
