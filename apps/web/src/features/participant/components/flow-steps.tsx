import Link from '@mui/icons-material/Link';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
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
import { type FormEvent, type ReactNode, useEffect } from 'react';
import { PhoneField, type usePhoneInput } from '../../../components/phone-field';
import type { SentCode } from '../progress';
import { useResendCountdown } from './code-entry';
import { StepActions } from './participant-page';
import { EmailField, StepError, StepForm, StepIntro, SubmitButton } from './step-parts';

/** Two actions on the right of a step (stacked on a phone), the main one last. */
function ActionGroup({ children }: { children: ReactNode }) {
  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: { xs: 'column-reverse', sm: 'row' },
        gap: 1.5,
        '& > *': { minHeight: 44 },
      }}
    >
      {children}
    </Box>
  );
}

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

/**
 * E-mail or text message; the phone only when the number typed is the one on record. While a
 * code sent for the chosen method still works, its entry stays one click away, and the page says
 * when a new code may be asked for.
 */
export function MethodStep({
  busy,
  error,
  back,
  participant,
  method,
  onMethodChange,
  onSubmit,
  liveCode,
  onEnterCode,
}: StepProps & {
  participant: PendingParticipantView;
  method: VerificationMethod;
  onMethodChange: (method: VerificationMethod) => void;
  onSubmit: (event: FormEvent) => void;
  /** The code of the chosen method that still works, if one was sent. */
  liveCode?: SentCode | undefined;
  onEnterCode: () => void;
}) {
  const countdown = useResendCountdown();
  // biome-ignore lint/correctness/useExhaustiveDependencies: restarts only for another code
  useEffect(() => {
    countdown.start(liveCode?.resendAfter ?? new Date(0).toISOString());
  }, [liveCode?.resendAfter]);
  const waiting = Boolean(liveCode) && countdown.left > 0;
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
            // The roster check gives the number back only when typed right. 'Does not match'
            // is true both when another number and when none is on record: the page must not
            // tell a stranger with the study code and an address which of the two it is.
            label={
              participant.phoneNumber
                ? PARTICIPANT_FLOW_TEXTS.methodPhone(displayPhone(participant.phoneNumber))
                : PARTICIPANT_FLOW_TEXTS.methodPhoneMismatch
            }
          />
        </RadioGroup>
        {!participant.phoneNumber && (
          <FormHelperText>{PARTICIPANT_FLOW_TEXTS.methodPhoneMismatchHelp}</FormHelperText>
        )}
      </FormControl>
      {liveCode && (
        <Alert severity="info" sx={{ mt: 2 }}>
          {PARTICIPANT_FLOW_TEXTS.codeStillValid(method)}{' '}
          {waiting
            ? PARTICIPANT_FLOW_TEXTS.newCodeIn(countdown.left)
            : PARTICIPANT_FLOW_TEXTS.newCodeNow}
        </Alert>
      )}
      <StepError error={error} spaced />
      <StepActions>
        {back}
        {liveCode ? (
          <ActionGroup>
            {!waiting && (
              <SubmitButton busy={busy} variant="outlined">
                {PARTICIPANT_FLOW_TEXTS.sendNewCode}
              </SubmitButton>
            )}
            <Button variant="contained" size="large" onClick={onEnterCode} disabled={busy}>
              {PARTICIPANT_FLOW_TEXTS.enterCode}
            </Button>
          </ActionGroup>
        ) : (
          <SubmitButton busy={busy}>{PARTICIPANT_FLOW_TEXTS.sendCode}</SubmitButton>
        )}
      </StepActions>
    </Box>
  );
}

/**
 * Connect the wearable: the popup opens from the click. Someone enrolled already may instead go
 * on to update their details.
 */
export function AuthorizeStep({
  busy,
  error,
  back,
  onConnect,
  reconnect = false,
  onUpdateDetails,
}: StepProps & { onConnect: () => void; reconnect?: boolean; onUpdateDetails?: () => void }) {
  return (
    <Box>
      <StepIntro
        title={
          reconnect
            ? PARTICIPANT_FLOW_TEXTS.alreadyEnrolledTitle
            : PARTICIPANT_FLOW_TEXTS.connectTitle
        }
        body={
          reconnect
            ? PARTICIPANT_FLOW_TEXTS.alreadyEnrolledBody
            : PARTICIPANT_FLOW_TEXTS.connectBody
        }
      />
      <StepError error={error} spaced />
      <StepActions>
        {back}
        <ActionGroup>
          {onUpdateDetails && (
            <Button variant="outlined" size="large" onClick={onUpdateDetails} disabled={busy}>
              {PARTICIPANT_FLOW_TEXTS.updateDetails}
            </Button>
          )}
          <Button
            variant="contained"
            size="large"
            onClick={onConnect}
            disabled={busy}
            startIcon={busy ? <CircularProgress size={18} color="inherit" /> : <Link />}
          >
            {busy ? PARTICIPANT_FLOW_TEXTS.connecting : PARTICIPANT_FLOW_TEXTS.connect}
          </Button>
        </ActionGroup>
      </StepActions>
    </Box>
  );
}
