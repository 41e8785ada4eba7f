import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import {
  ACCOUNT_FORM_MESSAGES,
  ACCOUNT_FORM_TEXTS,
  MIN_PASSWORD_LENGTH,
  RESET_PASSWORD_TEXTS,
} from '@research/contracts';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { LoadingIndicator } from '../../../components/loading-indicator';
import { ROUTES } from '../../../lib/auth/routing';
import { useResetPassword, useResetToken } from '../api/reset-password';
import { AuthCard, AuthNotice } from './auth-card';
import { NewPasswordFields } from './new-password-fields';

/**
 * /reset-password?token=…: the link of the password-reset e-mail (and of the 'set your password'
 * e-mail sent to accounts created without one). The token is checked before the form shows.
 */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const check = useResetToken(token);
  const reset = useResetPassword();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [formError, setFormError] = useState<string | null>(null);

  const title =
    check.data?.purpose === 'set_password'
      ? RESET_PASSWORD_TEXTS.setTitle
      : RESET_PASSWORD_TEXTS.resetTitle;

  if (token && check.isPending) {
    return <LoadingIndicator message={RESET_PASSWORD_TEXTS.checking} />;
  }

  if (!token || check.isError) {
    const message =
      check.error instanceof Error && check.error.message
        ? check.error.message
        : RESET_PASSWORD_TEXTS.missingToken;
    return (
      <AuthNotice
        title={title}
        severity="error"
        message={message}
        to={ROUTES.auth}
        action={RESET_PASSWORD_TEXTS.requestNewLink}
      />
    );
  }

  if (reset.isSuccess) {
    return (
      <AuthNotice
        title={title}
        severity="success"
        message={reset.data || RESET_PASSWORD_TEXTS.defaultSuccess}
        to={ROUTES.auth}
        action={RESET_PASSWORD_TEXTS.goToSignIn}
      />
    );
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (!password || !confirm) {
      setFormError(ACCOUNT_FORM_MESSAGES.fillAllFields);
      return;
    }
    if (password.length < MIN_PASSWORD_LENGTH) {
      setFormError(ACCOUNT_FORM_MESSAGES.passwordTooShort);
      return;
    }
    if (password !== confirm) {
      setFormError(ACCOUNT_FORM_MESSAGES.passwordsDoNotMatch);
      return;
    }
    reset.mutate(
      { token, password },
      {
        onError: (error) =>
          setFormError(
            ACCOUNT_FORM_MESSAGES.resetPasswordFailed(
              error instanceof Error ? error.message : undefined,
            ),
          ),
      },
    );
  };

  return (
    <AuthCard title={title}>
      <Box
        component="form"
        noValidate
        onSubmit={onSubmit}
        sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
      >
        <Typography color="text.secondary">
          {RESET_PASSWORD_TEXTS.accountLabel}: <strong>{check.data?.email}</strong>
        </Typography>
        {formError && <Alert severity="error">{formError}</Alert>}
        <NewPasswordFields
          password={password}
          confirm={confirm}
          onPasswordChange={setPassword}
          onConfirmChange={setConfirm}
          passwordLabel={ACCOUNT_FORM_TEXTS.newPassword}
        />
        <Button type="submit" variant="contained" size="large" disabled={reset.isPending}>
          {RESET_PASSWORD_TEXTS.submit}
        </Button>
      </Box>
    </AuthCard>
  );
}
