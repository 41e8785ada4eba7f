import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  CODE_ENTRY_TEXTS,
  formatVerificationCodeInput,
  isValidVerificationCode,
  MAX_EMAIL_CODE_ATTEMPTS,
  VERIFICATION_CODE_LENGTH,
  VERIFICATION_MESSAGES,
  VERIFICATION_RESEND_SECONDS,
  type VerifyCodeResponse,
} from '@research/contracts';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { errorText, StepActions } from './participant-page';
import { StepError } from './step-parts';

/** The server's attemptsUsed, if it is a count within 0..3. */
function attemptsUsedOf(value: unknown): number | undefined {
  return typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= 0 &&
    value <= MAX_EMAIL_CODE_ATTEMPTS
    ? value
    : undefined;
}

/** Seconds left until `until` (epoch ms), never negative. */
function secondsLeft(until: number): number {
  return Math.max(0, Math.ceil((until - Date.now()) / 1000));
}

/** A countdown to the moment a new code may be requested (30 s). */
export function useResendCountdown() {
  const [until, setUntil] = useState(0);
  const [left, setLeft] = useState(0);
  useEffect(() => {
    setLeft(secondsLeft(until));
    if (until <= Date.now()) return;
    const timer = setInterval(() => {
      const remaining = secondsLeft(until);
      setLeft(remaining);
      if (remaining === 0) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [until]);
  return {
    left,
    start: (resendAfter?: string) =>
      setUntil(
        resendAfter && Number.isFinite(Date.parse(resendAfter))
          ? Date.parse(resendAfter)
          : Date.now() + VERIFICATION_RESEND_SECONDS * 1000,
      ),
  };
}

export interface CodeEntryProps {
  channel: 'email' | 'phone';
  /** Called to send (and resend) a code; answers when the next one may be asked for. */
  send: () => Promise<{ resendAfter?: string }>;
  verify: (code: string) => Promise<VerifyCodeResponse>;
  onVerified: (result: VerifyCodeResponse) => void;
  /** Whether a code was already sent before this step showed (e.g. by enrolment). */
  alreadySent?: boolean;
  /** When that code allows a new one (the send call's resendAfter). */
  initialResendAfter?: string | undefined;
  /** What to say about that code instead of 'Verification code sent…' (e.g. it was sent before). */
  initialNotice?: string | undefined;
  back?: ReactNode;
}

/**
 * 'Enter Verification Code': exactly 6 digits; 'Verification code sent to your
 * {email|phone}!' after sending, then a 30-second resend countdown; a wrong code shows the
 * server's count of attempts on that code as n/3, and after the third the entry resets with 'Too many failed attempts. Please request a
 * new code.' until a new code is sent.
 */
export function CodeEntry({
  channel,
  send,
  verify,
  onVerified,
  alreadySent = false,
  initialResendAfter,
  initialNotice,
  back,
}: CodeEntryProps) {
  const [code, setCode] = useState('');
  const [attempts, setAttempts] = useState(0);
  const [locked, setLocked] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(
    alreadySent ? (initialNotice ?? VERIFICATION_MESSAGES.codeSent(channel)) : null,
  );
  const [busy, setBusy] = useState<'send' | 'verify' | null>(null);
  const countdown = useResendCountdown();

  // biome-ignore lint/correctness/useExhaustiveDependencies: start the countdown once, on mount
  useEffect(() => {
    if (alreadySent) countdown.start(initialResendAfter);
  }, []);

  async function resend() {
    if (busy || countdown.left > 0) return;
    setBusy('send');
    setError(null);
    setNotice(null);
    try {
      const sent = await send();
      countdown.start(sent.resendAfter);
      setNotice(VERIFICATION_MESSAGES.codeSent(channel));
      setAttempts(0);
      setLocked(false);
      setCode('');
    } catch (cause) {
      setError(errorText(cause, VERIFICATION_MESSAGES.sendCodeFailed));
    } finally {
      setBusy(null);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy || locked) return;
    if (!code) return setError(VERIFICATION_MESSAGES.codeRequired);
    if (!isValidVerificationCode(code)) return setError(VERIFICATION_MESSAGES.invalidCodeFormat);
    setBusy('verify');
    setError(null);
    try {
      const result = await verify(code);
      setNotice(null);
      onVerified(result);
    } catch (cause) {
      setCode('');
      // The server counts the attempts on the code (other tabs, a reload): show its count.
      const counted =
        cause instanceof ApiError ? attemptsUsedOf(cause.details.attemptsUsed) : undefined;
      if (cause instanceof ApiError && cause.code === 'TOO_MANY_ATTEMPTS') {
        setAttempts(MAX_EMAIL_CODE_ATTEMPTS);
        setLocked(true);
        setNotice(null);
        setError(VERIFICATION_MESSAGES.tooManyAttempts);
      } else if (cause instanceof ApiError && cause.code === 'INVALID_CODE') {
        setAttempts((n) => counted ?? Math.min(MAX_EMAIL_CODE_ATTEMPTS, n + 1));
        setError(VERIFICATION_MESSAGES.invalidCode);
      } else {
        setError(errorText(cause, VERIFICATION_MESSAGES.failed));
      }
    } finally {
      setBusy(null);
    }
  }

  return (
    <form noValidate onSubmit={submit}>
      {notice && (
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          {notice}
        </Alert>
      )}
      <TextField
        label={CODE_ENTRY_TEXTS.label}
        value={code}
        onChange={(e) => setCode(formatVerificationCodeInput(e.target.value))}
        helperText={CODE_ENTRY_TEXTS.help}
        disabled={locked}
        error={Boolean(error)}
        fullWidth
        required
        autoFocus
        slotProps={{
          htmlInput: {
            inputMode: 'numeric',
            autoComplete: 'one-time-code',
            maxLength: VERIFICATION_CODE_LENGTH,
            pattern: '[0-9]*',
            style: { letterSpacing: '0.4em', fontSize: '1.25rem', fontWeight: 600 },
          },
        }}
      />
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: 1,
          mt: 1.5,
        }}
      >
        <Typography variant="body2" color={attempts > 0 ? 'error' : 'text.secondary'}>
          {CODE_ENTRY_TEXTS.attempts(VERIFICATION_MESSAGES.attempts(attempts))}
        </Typography>
        <Button
          onClick={resend}
          disabled={busy !== null || countdown.left > 0}
          startIcon={busy === 'send' ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {countdown.left > 0 ? CODE_ENTRY_TEXTS.resendIn(countdown.left) : CODE_ENTRY_TEXTS.resend}
        </Button>
      </Box>
      <StepError error={error} spaced />
      <StepActions>
        {back ?? <span />}
        <Button
          type="submit"
          variant="contained"
          size="large"
          disabled={busy !== null || locked}
          startIcon={busy === 'verify' ? <CircularProgress size={18} color="inherit" /> : undefined}
        >
          {CODE_ENTRY_TEXTS.verify}
        </Button>
      </StepActions>
    </form>
  );
}
