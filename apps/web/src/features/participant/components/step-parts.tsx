import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { PARTICIPANT_COMMON_TEXTS } from '@research/contracts';
import type { FormEvent, ReactNode } from 'react';

/**
 * The pieces every participant entry page builds its steps from (enrol, flow, verify, verify by
 * e-mail), so a step's error, its buttons and its form look and behave the same everywhere.
 */

/** The step's error, announced to screen readers; nothing when there is none. */
export function StepError({ error, spaced = false }: { error: string | null; spaced?: boolean }) {
  if (!error) return null;
  return (
    <Alert severity="error" role="alert" sx={spaced ? { mt: 2 } : undefined}>
      {error}
    </Alert>
  );
}

/** A step's form: a column of fields; the browser's own validation is off (ours shows). */
export function StepForm({
  onSubmit,
  children,
}: {
  onSubmit: (event: FormEvent) => void;
  children: ReactNode;
}) {
  return (
    <Box
      component="form"
      noValidate
      onSubmit={onSubmit}
      sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
    >
      {children}
    </Box>
  );
}

/** The step's main button: a spinner while busy, and no second submission meanwhile. */
export function SubmitButton({
  busy,
  children,
  onClick,
  variant = 'contained',
}: {
  busy: boolean;
  children: ReactNode;
  /** Without it, the button submits its form. */
  onClick?: () => void;
  /** 'outlined' when another button of the step is the main one. */
  variant?: 'contained' | 'outlined';
}) {
  return (
    <Button
      type={onClick ? 'button' : 'submit'}
      onClick={onClick}
      variant={variant}
      size="large"
      disabled={busy}
      startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}
    >
      {children}
    </Button>
  );
}

/** 'Back' to the step before (the page clears its messages in `onBack`). */
export function BackButton({ busy, onBack }: { busy: boolean; onBack: () => void }) {
  return (
    <Button variant="outlined" onClick={onBack} disabled={busy}>
      {PARTICIPANT_COMMON_TEXTS.back}
    </Button>
  );
}

/** The participant's e-mail address (required). */
export function EmailField({
  value,
  onChange,
  autoFocus,
}: {
  value: string;
  onChange: (value: string) => void;
  autoFocus?: boolean;
}) {
  return (
    <TextField
      label={PARTICIPANT_COMMON_TEXTS.emailLabel}
      type="email"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      autoComplete="email"
      required
      autoFocus={autoFocus}
    />
  );
}

export interface IdentityFieldsProps {
  participantId: string;
  email: string;
  onParticipantIdChange: (value: string) => void;
  onEmailChange: (value: string) => void;
}

/** The participant ID and e-mail address a participant identifies with on the verify pages. */
export function IdentityFields({
  participantId,
  email,
  onParticipantIdChange,
  onEmailChange,
}: IdentityFieldsProps) {
  return (
    <>
      <TextField
        label={PARTICIPANT_COMMON_TEXTS.participantIdLabel}
        placeholder={PARTICIPANT_COMMON_TEXTS.participantIdPlaceholder}
        value={participantId}
        onChange={(e) => onParticipantIdChange(e.target.value)}
        autoComplete="off"
        required
        autoFocus
        slotProps={{ htmlInput: { maxLength: 17, spellCheck: false } }}
      />
      <EmailField value={email} onChange={onEmailChange} />
    </>
  );
}

/** A step's heading and the line under it. */
export function StepIntro({ title, body }: { title: string; body: string }) {
  return (
    <>
      <Typography variant="subtitle1" component="h3">
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        {body}
      </Typography>
    </>
  );
}

/** Buttons side by side, stacked on a phone (the first on top, or with `reverse` the last). */
export function ButtonRow({
  reverse = false,
  children,
}: {
  reverse?: boolean;
  children: ReactNode;
}) {
  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: { xs: reverse ? 'column-reverse' : 'column', sm: 'row' },
        gap: 1.5,
        '& > *': { minHeight: 44 },
      }}
    >
      {children}
    </Box>
  );
}
