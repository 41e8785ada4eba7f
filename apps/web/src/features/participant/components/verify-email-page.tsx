import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  formatStudyCodeInput,
  isValidParticipantId,
  isValidStudyCode,
  normalizeEmail,
  PARTICIPANT_COMMON_TEXTS,
  STUDY_CODE,
  STUDY_CODE_MESSAGES,
  VERIFICATION_MESSAGES,
  VERIFY_EMAIL_STEPS,
  VERIFY_EMAIL_TEXTS,
  type VerificationStatus,
} from '@research/contracts';
import { type FormEvent, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PhoneField, usePhoneInput } from '../../../components/phone-field';
import { lookupStudy } from '../api/lookup-study';
import { sendEmailCode } from '../api/send-email-code';
import { sendPhoneCode } from '../api/send-phone-code';
import { verificationStatus } from '../api/verification-status';
import { verifyEmailCode } from '../api/verify-email-code';
import { verifyPhoneCode } from '../api/verify-phone-code';
import { saveSession } from '../session';
import { CodeEntry } from './code-entry';
import type { FlowNavigationState } from './flow-progress';
import { errorText, ParticipantPage, StepActions } from './participant-page';
import {
  BackButton,
  ButtonRow,
  IdentityFields,
  StepError,
  StepForm,
  StepIntro,
  SubmitButton,
} from './step-parts';

const STEP = { info: 0, email: 1, phone: 2, complete: 3 } as const;

/** The start step for a verification status. */
export function startStepFor(status: VerificationStatus): number {
  switch (status) {
    case 'fully_verified':
    case 'phone_verified':
      return STEP.complete;
    case 'email_verified':
      return STEP.phone;
    default:
      return STEP.email;
  }
}

interface Handed {
  participantId?: string;
  email?: string;
  studyCode?: string;
  codeSent?: boolean;
  resendAfter?: string;
}

/**
 * /participant/verify-email: Enter Information, Email Verification, Phone
 * Verification and Complete Enrollment. The start step follows `verificationStatus`; after the
 * e-mail the phone step, then complete; the final button goes to /participant/flow with the
 * participant id, e-mail, study code, study name and participant data.
 */
export default function VerifyEmailPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const handed = (location.state ?? null) as Handed | null;
  const [step, setStep] = useState<number>(STEP.info);
  const [participantId, setParticipantId] = useState(handed?.participantId ?? '');
  const [email, setEmail] = useState(handed?.email ?? '');
  const [studyCode, setStudyCode] = useState(
    formatStudyCodeInput(handed?.studyCode ?? '', STUDY_CODE.maxLength),
  );
  const [studyName, setStudyName] = useState('');
  const [status, setStatus] = useState<VerificationStatus>('none');
  const [emailSent, setEmailSent] = useState<{ resendAfter?: string } | null>(
    handed?.codeSent ? { resendAfter: handed.resendAfter } : null,
  );
  const phoneInput = usePhoneInput();
  const { phone, setPhone } = phoneInput;
  const [phoneSent, setPhoneSent] = useState<{ resendAfter?: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const who = () => ({
    participantId: participantId.trim(),
    email: normalizeEmail(email),
    studyCode,
  });

  async function submitInfo(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!participantId.trim() || !email.trim())
      return setError(VERIFICATION_MESSAGES.idAndEmailRequired);
    if (!studyCode) return setError(STUDY_CODE_MESSAGES.required);
    if (!isValidStudyCode(studyCode)) return setError(STUDY_CODE_MESSAGES.invalidFormat);
    if (!isValidParticipantId(participantId.trim())) return setError(VERIFICATION_MESSAGES.failed);
    setBusy(true);
    setError(null);
    try {
      const [record, study] = await Promise.all([
        verificationStatus(who()),
        lookupStudy(studyCode).catch(() => null),
      ]);
      setStatus(record.verificationStatus);
      setStudyName(study?.studyName ?? '');
      setNotice(null);
      setStep(startStepFor(record.verificationStatus));
    } catch (cause) {
      setError(errorText(cause, VERIFICATION_MESSAGES.failed));
    } finally {
      setBusy(false);
    }
  }

  async function send(channel: 'email' | 'phone') {
    const target = who();
    return channel === 'email'
      ? sendEmailCode(target)
      : sendPhoneCode({
          participantId: target.participantId,
          studyCode,
          phoneNumber: phoneInput.value(),
        });
  }

  async function firstSend(channel: 'email' | 'phone') {
    if (busy) return;
    const phoneError = channel === 'phone' ? phoneInput.problem() : null;
    if (phoneError) return setError(phoneError);
    setBusy(true);
    setError(null);
    try {
      const sent = await send(channel);
      if (channel === 'email') setEmailSent({ resendAfter: sent.resendAfter });
      else setPhoneSent({ resendAfter: sent.resendAfter });
    } catch (cause) {
      setError(errorText(cause, VERIFICATION_MESSAGES.sendCodeFailed));
    } finally {
      setBusy(false);
    }
  }

  function finish() {
    const state: FlowNavigationState = {
      participantId: participantId.trim(),
      email: normalizeEmail(email),
      studyCode,
      studyName,
      participantData: {
        phoneNumber: phone.trim() && phoneSent ? phoneInput.value() : null,
        verificationStatus: status,
      },
    };
    navigate('/participant/flow', { state });
  }

  /** 'Back' goes to the step before this one. */
  const back = (to: number) => (
    <BackButton
      busy={busy}
      onBack={() => {
        setError(null);
        setStep(to);
      }}
    />
  );

  return (
    <ParticipantPage
      title={VERIFY_EMAIL_TEXTS.title}
      subtitle={VERIFY_EMAIL_TEXTS.subtitle}
      steps={VERIFY_EMAIL_STEPS}
      activeStep={step}
    >
      {notice && step !== STEP.info && (
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          {notice}
        </Alert>
      )}

      {step === STEP.info && (
        <StepForm onSubmit={submitInfo}>
          <IdentityFields
            participantId={participantId}
            email={email}
            onParticipantIdChange={setParticipantId}
            onEmailChange={setEmail}
          />
          <TextField
            label={PARTICIPANT_COMMON_TEXTS.studyCodeLabel}
            value={studyCode}
            onChange={(e) =>
              setStudyCode(formatStudyCodeInput(e.target.value, STUDY_CODE.maxLength))
            }
            required
            slotProps={{
              htmlInput: { maxLength: STUDY_CODE.maxLength, autoCapitalize: 'characters' },
            }}
          />
          <StepError error={error} />
          <StepActions>
            <span />
            <SubmitButton busy={busy}>{PARTICIPANT_COMMON_TEXTS.continue}</SubmitButton>
          </StepActions>
        </StepForm>
      )}

      {step === STEP.email &&
        (emailSent ? (
          <CodeEntry
            channel="email"
            alreadySent
            initialResendAfter={emailSent.resendAfter}
            send={() => send('email')}
            verify={(verificationCode) => verifyEmailCode({ ...who(), verificationCode })}
            onVerified={(result) => {
              saveSession(result.session, { email: normalizeEmail(email), studyName });
              setStatus(result.data.verificationStatus);
              setNotice(VERIFICATION_MESSAGES.emailSuccess);
              setStep(STEP.phone);
            }}
            back={back(STEP.info)}
          />
        ) : (
          <Box>
            <Typography>{VERIFY_EMAIL_TEXTS.emailStepBody(normalizeEmail(email))}</Typography>
            <StepError error={error} spaced />
            <StepActions>
              {back(STEP.info)}
              <Button
                variant="contained"
                size="large"
                onClick={() => void firstSend('email')}
                disabled={busy}
              >
                {PARTICIPANT_COMMON_TEXTS.continue}
              </Button>
            </StepActions>
          </Box>
        ))}

      {step === STEP.phone &&
        (phoneSent ? (
          <CodeEntry
            channel="phone"
            alreadySent
            initialResendAfter={phoneSent.resendAfter}
            send={() => send('phone')}
            verify={(verificationCode) =>
              verifyPhoneCode({
                participantId: participantId.trim(),
                studyCode,
                phoneNumber: phoneInput.value(),
                verificationCode,
              })
            }
            onVerified={(result) => {
              saveSession(result.session, {
                email: normalizeEmail(email),
                phoneNumber: phoneInput.value(),
                studyName,
              });
              setStatus(result.data.verificationStatus);
              setNotice(VERIFICATION_MESSAGES.phoneSuccess);
              setStep(STEP.complete);
            }}
            back={back(STEP.email)}
          />
        ) : (
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
            <Typography>{VERIFY_EMAIL_TEXTS.phoneStepBody}</Typography>
            <PhoneField
              label={PARTICIPANT_COMMON_TEXTS.phoneLabel}
              phone={phone}
              country={phoneInput.country}
              onPhoneChange={setPhone}
              onCountryChange={phoneInput.setCountry}
              helperText={PARTICIPANT_COMMON_TEXTS.phoneHelp}
            />
            <StepError error={error} />
            <StepActions>
              {back(STEP.email)}
              <ButtonRow reverse>
                <Button
                  variant="text"
                  onClick={() => {
                    setError(null);
                    setStep(STEP.complete);
                  }}
                  disabled={busy}
                >
                  {VERIFY_EMAIL_TEXTS.skipPhone}
                </Button>
                <Button
                  variant="contained"
                  size="large"
                  onClick={() => void firstSend('phone')}
                  disabled={busy}
                >
                  {PARTICIPANT_COMMON_TEXTS.continue}
                </Button>
              </ButtonRow>
            </StepActions>
          </Box>
        ))}

      {step === STEP.complete && (
        <Box>
          <StepIntro
            title={VERIFY_EMAIL_TEXTS.completeTitle}
            body={VERIFY_EMAIL_TEXTS.completeBody}
          />
          <StepActions>
            {back(STEP.phone)}
            <Button variant="contained" size="large" onClick={finish} autoFocus>
              {VERIFY_EMAIL_TEXTS.completeButton}
            </Button>
          </StepActions>
        </Box>
      )}
    </ParticipantPage>
  );
}
