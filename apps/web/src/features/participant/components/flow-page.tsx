import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import {
  ENROLMENT_MESSAGES,
  FLOW_STEPS,
  isValidEmail,
  normalizeEmail,
  PARTICIPANT_FLOW_TEXTS,
  PARTICIPANT_LIST_MESSAGES,
  PARTICIPANT_SESSION_HEADER,
  type PendingParticipantView,
  STUDY_CODE_MESSAGES,
  VERIFICATION_MESSAGES,
  type VerifyCodeResponse,
  WEARABLE_MESSAGES,
} from '@research/contracts';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { usePhoneInput } from '../../../components/phone-field';
import { startAuthorization } from '../../../lib/wearables/authorization-flow';
import { openAuthorizationPopup } from '../../../lib/wearables/authorization-popup';
import { checkPending } from '../api/check-pending';
import { enroll } from '../api/enroll';
import type { StudyLookup } from '../api/lookup-study';
import { sendEmailCode } from '../api/send-email-code';
import { sendPhoneCode } from '../api/send-phone-code';
import { verifyEmailCode } from '../api/verify-email-code';
import { verifyPhoneCode } from '../api/verify-phone-code';
import {
  clearEnrolment,
  readEnrolment,
  saveEnrolment,
  saveSession,
  sessionHeaders,
} from '../session';
import { CodeEntry } from './code-entry';
import { EnrollmentComplete } from './enrollment-complete';
import {
  AuthorizeStep,
  ContactStep,
  MethodStep,
  PendingStep,
  type VerificationMethod,
} from './flow-steps';
import { errorText, ParticipantPage } from './participant-page';
import { ProfileForm } from './profile-form';
import { BackButton, StepError } from './step-parts';
import { StudyCodeForm } from './study-code-form';

/** What /participant/verify-email hands over. */
export interface FlowNavigationState {
  participantId?: string;
  email?: string;
  studyCode?: string;
  studyName?: string;
  participantData?: { phoneNumber?: string | null; verificationStatus?: string };
}

const STEP = {
  studyCode: 0,
  contact: 1,
  pending: 2,
  method: 3,
  code: 4,
  authorize: 5,
  profile: 6,
  complete: 7,
} as const;

/**
 * /participant/flow: study code, contact info (e-mail and
 * phone), the pending check, the verification method (phone disabled without a phone on
 * record), the 6-digit code, the wearable popup, Personal Information and Complete.
 */
export default function FlowPage() {
  const location = useLocation();
  const handed = (location.state ?? null) as FlowNavigationState | null;
  const [step, setStep] = useState<number>(STEP.studyCode);
  const [study, setStudy] = useState<StudyLookup | null>(null);
  const [email, setEmail] = useState(handed?.email ?? '');
  const phoneInput = usePhoneInput();
  const { phone } = phoneInput;
  const [participant, setParticipant] = useState<PendingParticipantView | null>(null);
  const [method, setMethod] = useState<VerificationMethod>('email');
  const [sent, setSent] = useState<{ resendAfter?: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const resumed = useRef(false);

  // Handed over from /participant/verify-email: continue where verification left off.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, from the navigation state
  useEffect(() => {
    if (resumed.current || !handed?.participantId || !handed.studyCode || !handed.email) return;
    resumed.current = true;
    const view: PendingParticipantView = {
      participantId: handed.participantId,
      email: normalizeEmail(handed.email),
      phoneNumber: handed.participantData?.phoneNumber ?? null,
      studyCode: handed.studyCode,
      studyName: handed.studyName ?? '',
      status: 'enrolled',
      createdAt: '',
    };
    setParticipant(view);
    setStudy({
      studyCode: handed.studyCode,
      studyName: handed.studyName ?? '',
      studyDescription: null,
      researcherName: '',
    });
    const stored = readEnrolment();
    if (stored?.sessionId && stored.participantId === handed.participantId) {
      void enrolVerified(view);
    } else {
      setStep(STEP.method);
    }
  }, []);

  const back = (to: number) => (
    <BackButton
      busy={busy}
      onBack={() => {
        setError(null);
        setNotice(null);
        setStep(to);
      }}
    />
  );

  async function submitContact(event: FormEvent) {
    event.preventDefault();
    if (busy || !study) return;
    const address = normalizeEmail(email);
    if (!address || !phone.trim()) return setError(ENROLMENT_MESSAGES.contactInfoRequired);
    if (!isValidEmail(address)) return setError(PARTICIPANT_LIST_MESSAGES.invalidEmail);
    const phoneError = phoneInput.problem();
    if (phoneError) return setError(phoneError);
    setError(null);
    setNotice(null);
    setStep(STEP.pending);
    await runPendingCheck(address);
  }

  async function runPendingCheck(address = normalizeEmail(email)) {
    if (!study) return;
    setBusy(true);
    setError(null);
    try {
      const result = await checkPending({
        studyCode: study.studyCode,
        email: address,
        phoneNumber: phoneInput.value(),
      });
      if (!result.pending || !result.participant) {
        setError(ENROLMENT_MESSAGES.notApproved);
        return;
      }
      setParticipant(result.participant);
      saveEnrolment({
        participantId: result.participant.participantId,
        studyCode: study.studyCode,
        studyName: study.studyName,
        email: address,
        phoneNumber: result.participant.phoneNumber ?? phoneInput.value(),
      });
      setMethod('email');
      setNotice(ENROLMENT_MESSAGES.approved);
      setStep(STEP.method);
    } catch (cause) {
      setError(errorText(cause, ENROLMENT_MESSAGES.checkPendingFailed));
    } finally {
      setBusy(false);
    }
  }

  const sendFor = (channel: 'email' | 'phone', who: PendingParticipantView) =>
    channel === 'email'
      ? sendEmailCode({
          participantId: who.participantId,
          email: who.email,
          studyCode: who.studyCode,
        })
      : sendPhoneCode({
          participantId: who.participantId,
          phoneNumber: who.phoneNumber ?? '',
          studyCode: who.studyCode,
        });

  async function submitMethod(event: FormEvent) {
    event.preventDefault();
    if (busy || !participant) return;
    setBusy(true);
    setError(null);
    try {
      const result = await sendFor(method, participant);
      setSent({ resendAfter: result.resendAfter });
      setNotice(null);
      setStep(STEP.code);
    } catch (cause) {
      setError(errorText(cause, VERIFICATION_MESSAGES.sendCodeFailed));
    } finally {
      setBusy(false);
    }
  }

  async function enrolVerified(who: PendingParticipantView) {
    setBusy(true);
    setError(null);
    try {
      const result = await enroll({
        participantId: who.participantId,
        studyCode: who.studyCode,
        email: who.email,
      });
      saveSession(result.session);
      setStep(STEP.authorize);
    } catch (cause) {
      setError(errorText(cause, ENROLMENT_MESSAGES.enrollFailed));
      setStep(STEP.method);
    } finally {
      setBusy(false);
    }
  }

  function onVerified(result: VerifyCodeResponse) {
    if (!participant) return;
    saveSession(result.session);
    setNotice(
      method === 'email' ? VERIFICATION_MESSAGES.emailSuccess : VERIFICATION_MESSAGES.phoneSuccess,
    );
    void enrolVerified(participant);
  }

  function connect() {
    if (busy || !participant) return;
    setBusy(true);
    setError(null);
    // Opened inside the click, before the address arrives, so the browser allows the window.
    openAuthorizationPopup(
      startAuthorization({
        participantId: participant.participantId,
        email: participant.email,
        studyCode: participant.studyCode,
        mode: 'popup',
        // A first connection needs the session the verified enrolment issued.
        session: sessionHeaders(participant.participantId)[PARTICIPANT_SESSION_HEADER],
      }),
    ).then(
      () => {
        setBusy(false);
        setNotice(WEARABLE_MESSAGES.connectedTitle);
        setStep(STEP.profile);
      },
      (cause: unknown) => {
        setBusy(false);
        // The popup names what went wrong (blocked, cancelled, the callback's reason).
        setError(errorText(cause, WEARABLE_MESSAGES.authorizationFailed));
      },
    );
  }

  const stored = readEnrolment();

  return (
    <ParticipantPage
      title={PARTICIPANT_FLOW_TEXTS.title}
      subtitle={PARTICIPANT_FLOW_TEXTS.subtitle}
      steps={FLOW_STEPS}
      activeStep={step}
    >
      {notice && step !== STEP.complete && (
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          {notice}
        </Alert>
      )}

      {step === STEP.studyCode && (
        <StudyCodeForm
          initialCode={study?.studyCode ?? handed?.studyCode ?? ''}
          onFound={(found) => {
            setStudy(found);
            setNotice(STUDY_CODE_MESSAGES.found);
            setStep(STEP.contact);
          }}
        />
      )}

      {step === STEP.contact && (
        <ContactStep
          busy={busy}
          error={error}
          back={back(STEP.studyCode)}
          email={email}
          onEmailChange={setEmail}
          phone={phoneInput}
          onSubmit={submitContact}
        />
      )}

      {step === STEP.pending && (
        <PendingStep
          busy={busy}
          error={error}
          back={back(STEP.contact)}
          onRetry={() => void runPendingCheck()}
        />
      )}

      {step === STEP.method && participant && (
        <MethodStep
          busy={busy}
          error={error}
          back={back(STEP.contact)}
          participant={participant}
          method={method}
          onMethodChange={setMethod}
          onSubmit={submitMethod}
        />
      )}

      {step === STEP.code && participant && (
        <Box>
          <CodeEntry
            key={method}
            channel={method}
            alreadySent={Boolean(sent)}
            initialResendAfter={sent?.resendAfter}
            send={() => sendFor(method, participant)}
            verify={(verificationCode) =>
              method === 'email'
                ? verifyEmailCode({
                    participantId: participant.participantId,
                    email: participant.email,
                    studyCode: participant.studyCode,
                    verificationCode,
                  })
                : verifyPhoneCode({
                    participantId: participant.participantId,
                    phoneNumber: participant.phoneNumber ?? '',
                    studyCode: participant.studyCode,
                    verificationCode,
                  })
            }
            onVerified={onVerified}
            back={back(STEP.method)}
          />
          {busy && (
            <Box role="status" sx={{ display: 'flex', justifyContent: 'center', mt: 2 }}>
              <CircularProgress size={24} aria-label={VERIFICATION_MESSAGES.success} />
            </Box>
          )}
          <StepError error={error} spaced />
        </Box>
      )}

      {step === STEP.authorize && participant && (
        <AuthorizeStep busy={busy} error={error} back={back(STEP.method)} onConnect={connect} />
      )}

      {step === STEP.profile && participant && (
        <ProfileForm
          participantId={participant.participantId}
          studyCode={participant.studyCode}
          email={participant.email}
          phoneNumber={participant.phoneNumber ?? stored?.phoneNumber ?? ''}
          firstName={stored?.firstName}
          lastName={stored?.lastName}
          onSaved={() => {
            clearEnrolment();
            setNotice(null);
            setStep(STEP.complete);
          }}
        />
      )}

      {step === STEP.complete && participant && (
        <EnrollmentComplete participantId={participant.participantId} />
      )}
    </ParticipantPage>
  );
}
