import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  CONSENT_STEP_TEXTS,
  ENROLL_STEPS,
  ENROLL_TEXTS,
  ENROLMENT_MESSAGES,
  type EnrollDirectResponse,
  isAtLeastAge,
  isValidEmail,
  MIN_PARTICIPANT_AGE,
  NAME_MAX_LENGTH,
  normalizeEmail,
  PARTICIPANT_COMMON_TEXTS,
  PARTICIPANT_LIST_MESSAGES,
  toLocalIsoDate,
  VERIFICATION_CODE_TTL_MS,
  VERIFICATION_RESEND_SECONDS,
} from '@research/contracts';
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ConsentStep } from '../../../components/consent/consent-step';
import { WithdrawButton } from '../../../components/consent/withdraw-button';
import { clearStoredFlow } from '../../../lib/wearables/authorization-flow';
import { enrollDirect } from '../api/enroll-direct';
import type { StudyLookup } from '../api/lookup-study';
import { sendEmailCode } from '../api/send-email-code';
import { verifyEmailCode } from '../api/verify-email-code';
import {
  clearProgress,
  ENROLL_PROGRESS_KEY,
  liveCode,
  readProgress,
  type SentCode,
  saveProgress,
} from '../progress';
import { saveEnrolment, saveSession, sessionHeaders } from '../session';
import { CodeEntry } from './code-entry';
import { errorText, ParticipantPage, StepActions } from './participant-page';
import { BackButton, StepError, StepForm, SubmitButton } from './step-parts';
import { StudyCodeForm } from './study-code-form';

interface Person {
  firstName: string;
  lastName: string;
  email: string;
  dateOfBirth: string;
}

/** The e-mail code enrolment sent, and whose it is. */
interface PendingCode extends SentCode {
  participantId: string;
}

/**
 * What a reload resumes (see progress.ts). The date of birth is kept too: the enrolment call
 * after the code needs it again, and it stays in this tab like the names and the address.
 */
interface EnrollProgress {
  step: number;
  study: StudyLookup | null;
  person: Person;
  pendingCode: PendingCode | null;
}

function restoredProgress(): EnrollProgress | null {
  const saved = readProgress<EnrollProgress>(ENROLL_PROGRESS_KEY);
  if (!saved?.study || saved.step < 1 || saved.step > 2) return null;
  const pendingCode = saved.pendingCode && liveCode(saved.pendingCode) ? saved.pendingCode : null;
  return { ...saved, pendingCode };
}

/** A person already enrolled in the study, as enrolment answered once their code was verified. */
interface AlreadyEnrolled {
  participantId: string;
  studyCode: string;
  fitbitAuthUrl: string;
  wearableConnected: boolean;
}

/** Where the browser goes for the wearable consent; a seam for tests. */
function goTo(url: string) {
  window.location.assign(url);
}

/**
 * /participant/enroll, the link of the invitation e-mail:
 * study code, study information, personal information, then 'Redirecting' to the returned
 * authorization address. When the study requires verification, the e-mail code is asked for
 * within the personal-information step before the redirect.
 */
export default function EnrollPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const [restored] = useState(restoredProgress);
  const [step, setStep] = useState(restored?.step ?? 0);
  const [study, setStudy] = useState<StudyLookup | null>(restored?.study ?? null);
  const [person, setPerson] = useState<Person>(
    restored?.person ?? {
      firstName: '',
      lastName: '',
      email: searchParams.get('email') ?? '',
      dateOfBirth: '',
    },
  );
  const [pendingCode, setPendingCode] = useState<PendingCode | null>(restored?.pendingCode ?? null);
  const [already, setAlready] = useState<AlreadyEnrolled | null>(null);
  /** The consent step, before the wearable step (or before the enrolled person's choices). */
  const [consentGate, setConsentGate] = useState<{
    participantId: string;
    next: () => void;
  } | null>(null);
  const [withdrawn, setWithdrawn] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Kept for a reload while on the steps before the redirect, for as long as the code works.
  useEffect(() => {
    if (step < 1 || step > 2 || !study) return clearProgress(ENROLL_PROGRESS_KEY);
    const expiresAt = pendingCode
      ? Date.parse(pendingCode.expiresAt)
      : Date.now() + VERIFICATION_CODE_TTL_MS;
    saveProgress<EnrollProgress>(
      ENROLL_PROGRESS_KEY,
      { step, study, person, pendingCode },
      expiresAt,
    );
  }, [step, study, person, pendingCode]);

  const back = (to: number) => (
    <BackButton
      busy={busy}
      onBack={() => {
        setError(null);
        setPendingCode(null);
        setAlready(null);
        setStep(to);
      }}
    />
  );

  function redirect(fitbitAuthUrl: string) {
    // The direct path: the callback must not find a PKCE flow of an earlier visit.
    clearStoredFlow();
    setStep(3);
    goTo(fitbitAuthUrl);
  }

  function finish(result: EnrollDirectResponse) {
    if (!result.fitbitAuthUrl) throw new Error(ENROLMENT_MESSAGES.authUrlFailed);
    // The number the study has for the person: the profile page shows it as the team sees it.
    if (result.session)
      saveSession(result.session, result.phoneNumber ? { phoneNumber: result.phoneNumber } : {});
    setPendingCode(null);
    setBusy(false);
    // The consent form in force comes first (it passes on at once when signed or not asked for).
    setConsentGate({
      participantId: result.participantId,
      next: () => {
        setConsentGate(null);
        afterConsent(result);
      },
    });
  }

  function afterConsent(result: EnrollDirectResponse) {
    if (!result.fitbitAuthUrl) throw new Error(ENROLMENT_MESSAGES.authUrlFailed);
    if (result.alreadyEnrolled && study) {
      // Not to Google without a word: they choose between their wearable and their details.
      setPendingCode(null);
      setBusy(false);
      setAlready({
        participantId: result.participantId,
        studyCode: study.studyCode,
        fitbitAuthUrl: result.fitbitAuthUrl,
        wearableConnected: result.wearableConnected === true,
      });
      return;
    }
    redirect(result.fitbitAuthUrl);
  }

  async function submitPerson(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!study) return setError(ENROLMENT_MESSAGES.missingInformation);
    const email = normalizeEmail(person.email);
    const firstName = person.firstName.trim();
    const lastName = person.lastName.trim();
    if (!email || !firstName || !lastName || !person.dateOfBirth)
      return setError(ENROLMENT_MESSAGES.fillRequiredFields);
    if (!isValidEmail(email)) return setError(PARTICIPANT_LIST_MESSAGES.invalidEmail);
    if (firstName.length > NAME_MAX_LENGTH)
      return setError(PARTICIPANT_LIST_MESSAGES.firstNameTooLong);
    if (lastName.length > NAME_MAX_LENGTH)
      return setError(PARTICIPANT_LIST_MESSAGES.lastNameTooLong);
    if (!isAtLeastAge(person.dateOfBirth, new Date(), MIN_PARTICIPANT_AGE))
      return setError(ENROLMENT_MESSAGES.underAge);
    setError(null);
    setBusy(true);
    try {
      const result = await enrollDirect({
        email,
        firstName,
        lastName,
        dateOfBirth: person.dateOfBirth,
        studyCode: study.studyCode,
      });
      saveEnrolment({
        participantId: result.participantId,
        studyCode: study.studyCode,
        studyName: study.studyName,
        email,
        firstName,
        lastName,
      });
      if (result.verificationRequired) {
        // Sent now, or under 30 s ago by an earlier try: the times are close enough for a reload.
        const now = Date.now();
        setPendingCode({
          participantId: result.participantId,
          resendAfter: new Date(now + VERIFICATION_RESEND_SECONDS * 1000).toISOString(),
          expiresAt: new Date(now + VERIFICATION_CODE_TTL_MS).toISOString(),
        });
        setBusy(false);
        return;
      }
      finish(result);
    } catch (cause) {
      setError(errorText(cause, ENROLMENT_MESSAGES.enrollFailed));
      setBusy(false);
    }
  }

  async function afterVerified(participantId: string) {
    if (!study) return;
    setBusy(true);
    setError(null);
    try {
      finish(
        await enrollDirect(
          {
            email: normalizeEmail(person.email),
            firstName: person.firstName.trim(),
            lastName: person.lastName.trim(),
            dateOfBirth: person.dateOfBirth,
            studyCode: study.studyCode,
          },
          participantId,
        ),
      );
    } catch (cause) {
      setError(errorText(cause, ENROLMENT_MESSAGES.authUrlFailed));
      setBusy(false);
    }
  }

  const maxBirthDate = (() => {
    const today = new Date();
    today.setFullYear(today.getFullYear() - MIN_PARTICIPANT_AGE);
    return toLocalIsoDate(today);
  })();

  return (
    <ParticipantPage
      title={ENROLL_TEXTS.title}
      subtitle={ENROLL_TEXTS.subtitle}
      steps={ENROLL_STEPS}
      activeStep={step}
    >
      {step === 0 && (
        <StudyCodeForm
          initialCode={searchParams.get('studyCode') ?? searchParams.get('code') ?? ''}
          onFound={(found) => {
            setStudy(found);
            setStep(1);
          }}
        />
      )}

      {step === 1 && study && (
        <Box>
          <Box component="dl" sx={{ m: 0, display: 'grid', gap: 1.5 }}>
            <Detail label={ENROLL_TEXTS.studyName} value={study.studyName} />
            <Detail
              label={ENROLL_TEXTS.description}
              value={study.studyDescription?.trim() || ENROLL_TEXTS.noDescription}
            />
            <Detail
              label={ENROLL_TEXTS.researcher}
              value={study.researcherName?.trim() || ENROLL_TEXTS.defaultResearcher}
            />
            <Detail label={PARTICIPANT_COMMON_TEXTS.studyCodeLabel} value={study.studyCode} />
          </Box>
          <StepActions>
            {back(0)}
            <Button variant="contained" size="large" onClick={() => setStep(2)} autoFocus>
              {PARTICIPANT_COMMON_TEXTS.continue}
            </Button>
          </StepActions>
        </Box>
      )}

      {step === 2 && consentGate && (
        <ConsentStep
          participantId={consentGate.participantId}
          headers={() => sessionHeaders(consentGate.participantId)}
          onDone={consentGate.next}
        />
      )}

      {step === 2 && withdrawn && (
        <Box role="status">
          <Typography variant="subtitle1" component="h3">
            {CONSENT_STEP_TEXTS.withdrawnTitle}
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {CONSENT_STEP_TEXTS.withdrawnBody}
          </Typography>
        </Box>
      )}

      {step === 2 && already && !consentGate && !withdrawn && (
        <Box role="region" aria-labelledby="already-enrolled-title">
          <Typography id="already-enrolled-title" variant="subtitle1" component="h3">
            {ENROLL_TEXTS.alreadyEnrolledTitle}
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {ENROLL_TEXTS.alreadyEnrolledBody}
          </Typography>
          <StepActions>
            <Button
              variant="outlined"
              size="large"
              onClick={() =>
                navigate('/participant/info', {
                  state: { participantId: already.participantId, studyCode: already.studyCode },
                })
              }
            >
              {ENROLL_TEXTS.updateDetails}
            </Button>
            <Button
              variant="contained"
              size="large"
              onClick={() => redirect(already.fitbitAuthUrl)}
            >
              {already.wearableConnected ? ENROLL_TEXTS.reconnect : ENROLL_TEXTS.connect}
            </Button>
          </StepActions>
          <StepActions>
            <WithdrawButton
              headers={() => sessionHeaders(already.participantId)}
              onWithdrawn={() => {
                setAlready(null);
                setWithdrawn(true);
              }}
            />
          </StepActions>
        </Box>
      )}

      {step === 2 && study && !pendingCode && !already && !consentGate && !withdrawn && (
        <StepForm onSubmit={submitPerson}>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            <TextField
              label={PARTICIPANT_COMMON_TEXTS.firstNameLabel}
              value={person.firstName}
              onChange={(e) => setPerson({ ...person, firstName: e.target.value })}
              autoComplete="given-name"
              required
              autoFocus
              slotProps={{ htmlInput: { maxLength: NAME_MAX_LENGTH } }}
            />
            <TextField
              label={PARTICIPANT_COMMON_TEXTS.lastNameLabel}
              value={person.lastName}
              onChange={(e) => setPerson({ ...person, lastName: e.target.value })}
              autoComplete="family-name"
              required
              slotProps={{ htmlInput: { maxLength: NAME_MAX_LENGTH } }}
            />
          </Box>
          <TextField
            label={PARTICIPANT_COMMON_TEXTS.emailLabel}
            type="email"
            value={person.email}
            onChange={(e) => setPerson({ ...person, email: e.target.value })}
            autoComplete="email"
            required
          />
          <TextField
            label={PARTICIPANT_COMMON_TEXTS.dateOfBirthLabel}
            type="date"
            value={person.dateOfBirth}
            onChange={(e) => setPerson({ ...person, dateOfBirth: e.target.value })}
            autoComplete="bday"
            required
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: maxBirthDate } }}
          />
          <StepError error={error} />
          <StepActions>
            {back(1)}
            <SubmitButton busy={busy}>{ENROLL_TEXTS.enroll}</SubmitButton>
          </StepActions>
        </StepForm>
      )}

      {step === 2 && study && pendingCode && !consentGate && (
        <Box>
          <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
            {ENROLL_TEXTS.codeTitle}
          </Typography>
          <CodeEntry
            channel="email"
            alreadySent
            initialResendAfter={pendingCode.resendAfter}
            send={async () => {
              const sent = await sendEmailCode({
                participantId: pendingCode.participantId,
                email: normalizeEmail(person.email),
                studyCode: study.studyCode,
              });
              setPendingCode({
                ...pendingCode,
                resendAfter: sent.resendAfter,
                expiresAt: sent.expiresAt,
              });
              return sent;
            }}
            verify={(verificationCode) =>
              verifyEmailCode({
                participantId: pendingCode.participantId,
                email: normalizeEmail(person.email),
                studyCode: study.studyCode,
                verificationCode,
              })
            }
            onVerified={(result) => {
              saveSession(result.session);
              void afterVerified(pendingCode.participantId);
            }}
            back={back(2)}
          />
          <StepError error={error} spaced />
        </Box>
      )}

      {step === 3 && (
        <Box
          role="status"
          sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, py: 3 }}
        >
          <CircularProgress aria-hidden />
          <Typography variant="h6" component="p">
            {ENROLL_TEXTS.redirecting}
          </Typography>
          <Typography color="text.secondary" align="center">
            {ENROLL_TEXTS.redirectingBody}
          </Typography>
        </Box>
      )}
    </ParticipantPage>
  );
}

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <Box>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
        {value}
      </Typography>
    </Box>
  );
}
