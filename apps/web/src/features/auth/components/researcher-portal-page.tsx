import Google from '@mui/icons-material/Google';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import {
  AUTH_MESSAGES,
  loginRequestSchema,
  MIN_PASSWORD_LENGTH,
  registerRequestSchema,
} from '@research/contracts';
import { type FormEvent, useId, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { LoadingIndicator } from '../../../components/loading-indicator';
import { useSecureAuth } from '../../../lib/auth/auth-provider';
import { afterSignIn, ROUTES } from '../../../lib/auth/routing';
import { useForgotPassword } from '../api/forgot-password';
import { openGoogleSignIn } from '../google-popup';
import { AuthCard } from './auth-card';
import { NewPasswordFields } from './new-password-fields';

type PortalTab = 'signin' | 'signup';

interface Messages {
  error: string | null;
  success: string | null;
}

const NO_MESSAGES: Messages = { error: null, success: null };

function reasonOf(error: unknown): string | undefined {
  return error instanceof Error && error.message ? error.message : undefined;
}

/** /researcher/auth: the Researcher Portal of spec 000 §2 (sign in / sign up). */
export default function ResearcherPortalPage() {
  const auth = useSecureAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const forgotPassword = useForgotPassword();
  const idPrefix = useId();
  const [tab, setTab] = useState<PortalTab>('signin');
  const [messages, setMessages] = useState<Messages>(NO_MESSAGES);
  const [busy, setBusy] = useState(false);
  const [googlePending, setGooglePending] = useState(false);

  const [signInEmail, setSignInEmail] = useState('');
  const [signInPassword, setSignInPassword] = useState('');
  const [fullName, setFullName] = useState('');
  const [signUpEmail, setSignUpEmail] = useState('');
  const [signUpPassword, setSignUpPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');

  const showError = (error: string) => setMessages({ error, success: null });

  const changeTab = (_: unknown, next: PortalTab) => {
    setTab(next);
    // Switching tabs clears error and success messages (000 §2).
    setMessages(NO_MESSAGES);
  };

  const onSignIn = async (event: FormEvent) => {
    event.preventDefault();
    setMessages(NO_MESSAGES);
    if (!signInEmail.trim() || !signInPassword) {
      showError(AUTH_MESSAGES.fillAllFields);
      return;
    }
    const parsed = loginRequestSchema.safeParse({ email: signInEmail, password: signInPassword });
    if (!parsed.success) {
      showError(parsed.error.issues[0]?.message ?? AUTH_MESSAGES.fillAllFields);
      return;
    }
    setBusy(true);
    try {
      await auth.login(parsed.data.email, parsed.data.password);
      navigate(afterSignIn(location.state), { replace: true });
    } catch (error) {
      showError(AUTH_MESSAGES.signInFailed(reasonOf(error)));
      setBusy(false);
    }
  };

  const onSignUp = async (event: FormEvent) => {
    event.preventDefault();
    setMessages(NO_MESSAGES);
    if (!fullName.trim() || !signUpEmail.trim() || !signUpPassword || !confirmPassword) {
      showError(AUTH_MESSAGES.fillAllFields);
      return;
    }
    if (signUpPassword !== confirmPassword) {
      showError(AUTH_MESSAGES.passwordsDoNotMatch);
      return;
    }
    if (signUpPassword.length < MIN_PASSWORD_LENGTH) {
      showError(AUTH_MESSAGES.passwordTooShort);
      return;
    }
    const parsed = registerRequestSchema.safeParse({
      email: signUpEmail,
      password: signUpPassword,
      displayName: fullName,
    });
    if (!parsed.success) {
      showError(parsed.error.issues[0]?.message ?? AUTH_MESSAGES.fillAllFields);
      return;
    }
    setBusy(true);
    try {
      const { email, password, displayName } = parsed.data;
      await auth.register(email, password, displayName);
      navigate(ROUTES.register, { replace: true });
    } catch (error) {
      showError(AUTH_MESSAGES.createAccountFailed(reasonOf(error)));
      setBusy(false);
    }
  };

  const onGoogle = () => {
    setMessages(NO_MESSAGES);
    // window.open must run inside the click, before any await, or the popup is blocked.
    const pending = openGoogleSignIn();
    setGooglePending(true);
    pending
      .then(async (result) => {
        setBusy(true);
        await auth.googleSignIn(result);
        navigate(afterSignIn(location.state), { replace: true });
      })
      .catch((error: unknown) => {
        showError(AUTH_MESSAGES.googleSignInFailed(reasonOf(error)));
        setBusy(false);
      })
      .finally(() => setGooglePending(false));
  };

  const onForgotPassword = () => {
    setMessages(NO_MESSAGES);
    if (!signInEmail.trim()) {
      showError(AUTH_MESSAGES.enterEmailFirst);
      return;
    }
    forgotPassword.mutate(signInEmail.trim(), {
      onSuccess: (message) => setMessages({ error: null, success: message }),
      onError: (error) => showError(AUTH_MESSAGES.resetPasswordFailed(reasonOf(error))),
    });
  };

  const tabId = (name: PortalTab) => `${idPrefix}-tab-${name}`;
  const panelId = (name: PortalTab) => `${idPrefix}-panel-${name}`;

  return (
    <AuthCard title="Researcher Portal" footer="Need help? Contact your research administrator">
      {busy && <LoadingIndicator fullScreen message={AUTH_MESSAGES.authenticating} />}
      <Button
        fullWidth
        variant="outlined"
        size="large"
        startIcon={<Google />}
        onClick={onGoogle}
        disabled={googlePending || busy}
        sx={{ py: 1.25, color: 'text.primary', borderColor: 'divider' }}
      >
        Continue with Google
      </Button>
      <Divider sx={{ my: 3, color: 'text.secondary', typography: 'body2' }}>or</Divider>
      <Tabs
        value={tab}
        onChange={changeTab}
        variant="fullWidth"
        aria-label="Sign in or sign up"
        sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}
      >
        <Tab
          label="Sign In"
          value="signin"
          id={tabId('signin')}
          aria-controls={panelId('signin')}
        />
        <Tab
          label="Sign Up"
          value="signup"
          id={tabId('signup')}
          aria-controls={panelId('signup')}
        />
      </Tabs>

      {messages.error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {messages.error}
        </Alert>
      )}
      {messages.success && (
        <Alert severity="success" sx={{ mb: 2 }}>
          {messages.success}
        </Alert>
      )}

      {tab === 'signin' ? (
        <Box
          component="form"
          role="tabpanel"
          id={panelId('signin')}
          aria-labelledby={tabId('signin')}
          noValidate
          onSubmit={onSignIn}
          sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
        >
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            value={signInEmail}
            onChange={(e) => setSignInEmail(e.target.value)}
            fullWidth
          />
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            value={signInPassword}
            onChange={(e) => setSignInPassword(e.target.value)}
            fullWidth
          />
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            Sign In
          </Button>
          <Box sx={{ textAlign: 'center' }}>
            <Link
              component="button"
              type="button"
              variant="body2"
              onClick={onForgotPassword}
              disabled={forgotPassword.isPending}
            >
              Forgot your password?
            </Link>
          </Box>
        </Box>
      ) : (
        <Box
          component="form"
          role="tabpanel"
          id={panelId('signup')}
          aria-labelledby={tabId('signup')}
          noValidate
          onSubmit={onSignUp}
          sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
        >
          <TextField
            label="Full Name"
            autoComplete="name"
            value={fullName}
            onChange={(e) => setFullName(e.target.value)}
            fullWidth
          />
          <TextField
            label="Email Address"
            type="email"
            autoComplete="email"
            value={signUpEmail}
            onChange={(e) => setSignUpEmail(e.target.value)}
            fullWidth
          />
          <NewPasswordFields
            password={signUpPassword}
            confirm={confirmPassword}
            onPasswordChange={setSignUpPassword}
            onConfirmChange={setConfirmPassword}
          />
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            Create Account
          </Button>
        </Box>
      )}
    </AuthCard>
  );
}
