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
  ACCOUNT_FORM_MESSAGES,
  ACCOUNT_FORM_TEXTS,
  loginRequestSchema,
  PORTAL_TEXTS,
  registerRequestSchema,
} from '@research/contracts';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { LoadingIndicator } from '../../../components/loading-indicator';
import { useSecureAuth } from '../../../lib/auth/auth-provider';
import { afterSignIn, ROUTES } from '../../../lib/auth/routing';
import { useForgotPassword } from '../api/forgot-password';
import { openGoogleSignIn } from '../google-popup';
import { AuthCard } from './auth-card';
import {
  EMPTY_ACCOUNT,
  type NewAccount,
  NewAccountFields,
  newAccountProblem,
} from './new-account-fields';

type PortalTab = 'signin' | 'signup';

interface Messages {
  error: string | null;
  success: string | null;
}

const NO_MESSAGES: Messages = { error: null, success: null };

function reasonOf(error: unknown): string | undefined {
  return error instanceof Error && error.message ? error.message : undefined;
}

/** /researcher/auth: the Researcher Portal (sign in / sign up). */
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
  const [account, setAccount] = useState<NewAccount>(EMPTY_ACCOUNT);

  const showError = (error: string) => setMessages({ error, success: null });

  const changeTab = (_: unknown, next: PortalTab) => {
    setTab(next);
    // Switching tabs clears error and success messages.
    setMessages(NO_MESSAGES);
  };

  const onSignIn = async (event: FormEvent) => {
    event.preventDefault();
    setMessages(NO_MESSAGES);
    if (!signInEmail.trim() || !signInPassword) {
      showError(ACCOUNT_FORM_MESSAGES.fillAllFields);
      return;
    }
    const parsed = loginRequestSchema.safeParse({ email: signInEmail, password: signInPassword });
    if (!parsed.success) {
      showError(parsed.error.issues[0]?.message ?? ACCOUNT_FORM_MESSAGES.fillAllFields);
      return;
    }
    setBusy(true);
    try {
      await auth.login(parsed.data.email, parsed.data.password);
      navigate(afterSignIn(location.state), { replace: true });
    } catch (error) {
      showError(ACCOUNT_FORM_MESSAGES.signInFailed(reasonOf(error)));
      setBusy(false);
    }
  };

  const onSignUp = async (event: FormEvent) => {
    event.preventDefault();
    setMessages(NO_MESSAGES);
    const problem = newAccountProblem(account);
    if (problem) {
      showError(problem);
      return;
    }
    const parsed = registerRequestSchema.safeParse({
      email: account.email,
      password: account.password,
      displayName: account.fullName,
    });
    if (!parsed.success) {
      showError(parsed.error.issues[0]?.message ?? ACCOUNT_FORM_MESSAGES.fillAllFields);
      return;
    }
    setBusy(true);
    try {
      const { email, password, displayName } = parsed.data;
      await auth.register(email, password, displayName);
      navigate(ROUTES.register, { replace: true });
    } catch (error) {
      showError(ACCOUNT_FORM_MESSAGES.createAccountFailed(reasonOf(error)));
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
        showError(ACCOUNT_FORM_MESSAGES.googleSignInFailed(reasonOf(error)));
        setBusy(false);
      })
      .finally(() => setGooglePending(false));
  };

  const onForgotPassword = () => {
    setMessages(NO_MESSAGES);
    if (!signInEmail.trim()) {
      showError(ACCOUNT_FORM_MESSAGES.enterEmailFirst);
      return;
    }
    forgotPassword.mutate(signInEmail.trim(), {
      onSuccess: (message) => setMessages({ error: null, success: message }),
      onError: (error) => showError(ACCOUNT_FORM_MESSAGES.resetPasswordFailed(reasonOf(error))),
    });
  };

  const tabId = (name: PortalTab) => `${idPrefix}-tab-${name}`;
  const panelId = (name: PortalTab) => `${idPrefix}-panel-${name}`;

  return (
    <AuthCard title={PORTAL_TEXTS.title} footer={PORTAL_TEXTS.footer}>
      {busy && <LoadingIndicator fullScreen message={ACCOUNT_FORM_MESSAGES.authenticating} />}
      <Button
        fullWidth
        variant="outlined"
        size="large"
        startIcon={<Google />}
        onClick={onGoogle}
        disabled={googlePending || busy}
        sx={{ py: 1.25, color: 'text.primary', borderColor: 'divider' }}
      >
        {PORTAL_TEXTS.continueWithGoogle}
      </Button>
      <Divider sx={{ my: 3, color: 'text.secondary', typography: 'body2' }}>
        {PORTAL_TEXTS.or}
      </Divider>
      <Tabs
        value={tab}
        onChange={changeTab}
        variant="fullWidth"
        aria-label={PORTAL_TEXTS.tabsLabel}
        sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}
      >
        <Tab
          label={PORTAL_TEXTS.signIn}
          value="signin"
          id={tabId('signin')}
          aria-controls={panelId('signin')}
        />
        <Tab
          label={PORTAL_TEXTS.signUp}
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
        <TabPanelForm id={panelId('signin')} tabId={tabId('signin')} onSubmit={onSignIn}>
          <TextField
            label={ACCOUNT_FORM_TEXTS.email}
            type="email"
            autoComplete="email"
            value={signInEmail}
            onChange={(e) => setSignInEmail(e.target.value)}
            fullWidth
          />
          <TextField
            label={ACCOUNT_FORM_TEXTS.password}
            type="password"
            autoComplete="current-password"
            value={signInPassword}
            onChange={(e) => setSignInPassword(e.target.value)}
            fullWidth
          />
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            {PORTAL_TEXTS.signIn}
          </Button>
          <Box sx={{ textAlign: 'center' }}>
            <Link
              component="button"
              type="button"
              variant="body2"
              onClick={onForgotPassword}
              disabled={forgotPassword.isPending}
            >
              {PORTAL_TEXTS.forgotPassword}
            </Link>
          </Box>
        </TabPanelForm>
      ) : (
        <TabPanelForm id={panelId('signup')} tabId={tabId('signup')} onSubmit={onSignUp}>
          <NewAccountFields value={account} onChange={setAccount} />
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            {PORTAL_TEXTS.createAccount}
          </Button>
        </TabPanelForm>
      )}
    </AuthCard>
  );
}

interface TabPanelFormProps {
  id: string;
  tabId: string;
  onSubmit: (event: FormEvent) => void;
  children: ReactNode;
}

/**
 * A tab's panel holding one form (sign in or create an account). The panel wraps the form: a
 * <form> may not take the tabpanel role.
 */
function TabPanelForm({ id, tabId, onSubmit, children }: TabPanelFormProps) {
  return (
    <div role="tabpanel" id={id} aria-labelledby={tabId}>
      <Box
        component="form"
        noValidate
        onSubmit={onSubmit}
        sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
      >
        {children}
      </Box>
    </div>
  );
}
