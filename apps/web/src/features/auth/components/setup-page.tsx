import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { ACCOUNT_FORM_MESSAGES, SETUP_TEXTS, setupMasterRequestSchema } from '@research/contracts';
import { type FormEvent, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { LoadingIndicator } from '../../../components/loading-indicator';
import { useSecureAuth } from '../../../lib/auth/auth-provider';
import { ROUTES } from '../../../lib/auth/routing';
import { useSetupStatus } from '../api/setup-status';
import { AuthCard, AuthNotice } from './auth-card';
import {
  EMPTY_ACCOUNT,
  type NewAccount,
  NewAccountFields,
  newAccountProblem,
} from './new-account-fields';

/** /setup?token=…: the one-time link printed at start that creates the master account. */
export default function SetupPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const status = useSetupStatus(token);
  const auth = useSecureAuth();
  const navigate = useNavigate();
  const [account, setAccount] = useState<NewAccount>(EMPTY_ACCOUNT);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (token && status.isPending) {
    return <LoadingIndicator message={SETUP_TEXTS.checking} />;
  }
  if (!token || status.isError || !status.data?.valid) {
    return (
      <AuthNotice
        title={SETUP_TEXTS.title}
        severity="error"
        message={SETUP_TEXTS.invalidLink}
        to="/"
        action={SETUP_TEXTS.goHome}
      />
    );
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const problem = newAccountProblem(account);
    if (problem) {
      setError(problem);
      return;
    }
    const parsed = setupMasterRequestSchema.safeParse({
      token,
      displayName: account.fullName,
      email: account.email,
      password: account.password,
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? ACCOUNT_FORM_MESSAGES.fillAllFields);
      return;
    }
    setBusy(true);
    try {
      await auth.createMasterAccount(parsed.data);
      navigate(ROUTES.masterDashboard, { replace: true });
    } catch (failure) {
      setError(
        ACCOUNT_FORM_MESSAGES.createAccountFailed(
          failure instanceof Error ? failure.message : undefined,
        ),
      );
      setBusy(false);
    }
  };

  return (
    <AuthCard title={SETUP_TEXTS.title} subtitle={SETUP_TEXTS.intro}>
      {busy && <LoadingIndicator fullScreen message={ACCOUNT_FORM_MESSAGES.authenticating} />}
      <Box
        component="form"
        noValidate
        onSubmit={onSubmit}
        sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
      >
        {error && <Alert severity="error">{error}</Alert>}
        <NewAccountFields value={account} onChange={setAccount} />
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          {SETUP_TEXTS.submit}
        </Button>
      </Box>
    </AuthCard>
  );
}
