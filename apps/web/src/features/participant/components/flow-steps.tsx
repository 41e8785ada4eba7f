import Link from '@mui/icons-material/Link';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import {
  displayPhone,
  PARTICIPANT_COMMON_TEXTS,
  PARTICIPANT_FLOW_TEXTS,
  type PendingParticipantView,
} from '@research/contracts';
import type { FormEvent, ReactNode } from 'react';
import { PhoneField, type usePhoneInput } from '../../../components/phone-field';
import { StepActions } from './participant-page';
import { EmailField, StepError, StepForm, StepIntro, SubmitButton } from './step-parts';

/** What every step of /participant/flow gets from the page. */
interface StepProps {
  busy: boolean;
  error: string | null;
  /** The page's 'Back' button for this step. */
  back: ReactNode;
}

export type VerificationMethod = 'email' | 'phone';

/** Contact info: the e-mail and phone the research team has for the person. */
export function ContactStep({
  busy,
  error,
  back,
  email,
  onEmailChange,
  phone,
  onSubmit,
}: StepProps & {
  email: string;
  onEmailChange: (value: string) => void;
  phone: ReturnType<typeof usePhoneInput>;
  onSubmit: (event: FormEvent) => void;
}) {
  return (
    <StepForm onSubmit={onSubmit}>
      <Typography color="text.secondary">{PARTICIPANT_FLOW_TEXTS.contactHelp}</Typography>
      <EmailField value={email} onChange={onEmailChange} autoFocus />
      <PhoneField
        label={PARTICIPANT_COMMON_TEXTS.phoneLabel}
        phone={phone.phone}
        country={phone.country}
        onPhoneChange={phone.setPhone}
        onCountryChange={phone.setCountry}
        helperText={PARTICIPANT_COMMON_TEXTS.phoneHelp}
        required
      />
      <StepError error={error} />
      <StepActions>
        {back}
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          {PARTICIPANT_COMMON_TEXTS.continue}
        </Button>
      </StepActions>
    </StepForm>
  );
}

/** The pending check: a spinner while it runs, and 'Check again' after a failure. */
export function PendingStep({ busy, error, back, onRetry }: StepProps & { onRetry: () => void }) {
  return (
    <Box>
      {busy && (
        <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 2 }}>
          <CircularProgress size={24} aria-hidden />
          <Typography>{PARTICIPANT_FLOW_TEXTS.checking}</Typography>
        </Box>
      )}
      <StepError error={error} />
      <StepActions>
        {back}
        <Button variant="contained" size="large" onClick={onRetry} disabled={busy}>
          {PARTICIPANT_FLOW_TEXTS.checkAgain}
        </Button>
      </StepActions>
    </Box>
  );
}

/** E-mail or text message; the phone only when a number is on record. */
export function MethodStep({
  busy,
  error,
  back,
  participant,
  method,
  onMethodChange,
  onSubmit,
}: StepProps & {
  participant: PendingParticipantView;
  method: VerificationMethod;
  onMethodChange: (method: VerificationMethod) => void;
  onSubmit: (event: FormEvent) => void;
}) {
  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <FormControl>
        <FormLabel id="verification-method">{PARTICIPANT_FLOW_TEXTS.methodLabel}</FormLabel>
        <RadioGroup
          aria-labelledby="verification-method"
          value={method}
          onChange={(e) => onMethodChange(e.target.value as VerificationMethod)}
        >
          <FormControlLabel
            value="email"
            control={<Radio />}
            label={PARTICIPANT_FLOW_TEXTS.methodEmail(participant.email)}
            sx={{ overflowWrap: 'anywhere' }}
          />
          <FormControlLabel
            value="phone"
            control={<Radio />}
            disabled={!participant.phoneNumber}
            label={
              participant.phoneNumber
                ? PARTICIPANT_FLOW_TEXTS.methodPhone(displayPhone(participant.phoneNumber))
                : PARTICIPANT_FLOW_TEXTS.methodPhoneMissing
            }
          />
        </RadioGroup>
      </FormControl>
      <StepError error={error} spaced />
      <StepActions>
        {back}
        <SubmitButton busy={busy}>{PARTICIPANT_FLOW_TEXTS.sendCode}</SubmitButton>
      </StepActions>
    </Box>
  );
}

/** Connect the wearable: the popup opens from the click. */
export function AuthorizeStep({
  busy,
  error,
  back,
  onConnect,
}: StepProps & { onConnect: () => void }) {
  return (
    <Box>
      <StepIntro
        title={PARTICIPANT_FLOW_TEXTS.connectTitle}
        body={PARTICIPANT_FLOW_TEXTS.connectBody}
      />
      <StepError error={error} spaced />
      <StepActions>
        {back}
        <Button
          variant="contained"
          size="large"
          onClick={onConnect}
          disabled={busy}
          startIcon={busy ? <CircularProgress size={18} color="inherit" /> : <Link />}
        >
          {busy ? PARTICIPANT_FLOW_TEXTS.connecting : PARTICIPANT_FLOW_TEXTS.connect}
        </Button>
      </StepActions>
    </Box>
  );
}
