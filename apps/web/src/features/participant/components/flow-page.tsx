import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import {
  ENROLMENT_MESSAGES,
  FLOW_STEPS,
  isValidEmail,
  missingReadScopes,
  normalizeEmail,
  PARTICIPANT_FLOW_TEXTS,
  PARTICIPANT_LIST_MESSAGES,
  PARTICIPANT_SESSION_HEADER,
  type PendingParticipantView,
  STUDY_CODE_MESSAGES,
  VERIFICATION_CODE_TTL_MS,
  VERIFICATION_MESSAGES,
  type VerifyCodeResponse,
  WEARABLE_MESSAGES,
} from '@research/contracts';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { ConsentStep } from '../../../components/consent/consent-step';
import { usePhoneInput } from '../../../components/phone-field';
import { ApiError } from '../../../lib/api-client';
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
  clearProgress,
  FLOW_PROGRESS_KEY,
  liveCode,
  type SentCode,
  saveProgress,
} from '../progress';
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
  type FlowNavigationState,
  type FlowProgress,
  recentCode,
  restoredProgress,
  STEP,
} from './flow-progress';
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

/**
 * /participant/flow: study code, contact info (e-mail and
 * phone), the pending check, the verification method (phone disabled unless the number typed is
 * the one on record), the 6-digit code, the wearable popup, Personal Information and Complete.
 * The step and what was typed survive a reload of the tab for as long as the code (or, once
 * verified, the session) does.
 */
export default function FlowPage() {
  const location = useLocation();
  const handed = (location.state ?? null) as FlowNavigationState | null;
  const [restored] = useState(() => restoredProgress(handed));
  const [step, setStep] = useState<number>(restored?.step ?? STEP.studyCode);
  const [study, setStudy] = useState<StudyLookup | null>(restored?.study ?? null);
  const [email, setEmail] = useState(restored?.email ?? handed?.email ?? '');
  const phoneInput = usePhoneInput(restored?.phone ?? '');
  const { phone } = phoneInput;
  const [participant, setParticipant] = useState<PendingParticipantView | null>(
    restored?.participant ?? null,
  );
  const [method, setMethod] = useState<VerificationMethod>(restored?.method ?? 'email');
  const [sent, setSent] = useState<Partial<Record<VerificationMethod, SentCode>>>(
    restored?.sent ?? {},
  );
  const [alreadyEnrolled, setAlreadyEnrolled] = useState(restored?.alreadyEnrolled ?? false);
  // Checked again on every arrival at the wearable step (a reload too): it passes on when signed.
  const [consented, setConsented] = useState(false);
  /** What the code step says first about a code sent before it showed. */
  const [codeNotice, setCodeNotice] = useState<string | undefined>(undefined);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const resumed = useRef(Boolean(restored));

  // Kept for a reload: dropped once complete, else kept while the code or the session holds.
  const phoneToKeep = phone.trim() ? phoneInput.value() : '';
  useEffect(() => {
    if (step === STEP.complete) return clearProgress(FLOW_PROGRESS_KEY);
    const ends = [Date.now() + VERIFICATION_CODE_TTL_MS];
    for (const code of Object.values(sent)) if (code) ends.push(Date.parse(code.expiresAt));
    const session = readEnrolment();
    if (session?.sessionExpiresAt && session.participantId === participant?.participantId)
      ends.push(Date.parse(session.sessionExpiresAt));
    saveProgress<FlowProgress>(
      FLOW_PROGRESS_KEY,
      {
        step,
        study,
        email,
        phone: phoneToKeep,
        participant,
        method,
        sent,
        alreadyEnrolled,
      },
      Math.max(...ends.filter(Number.isFinite)),
    );
  }, [step, study, email, phoneToKeep, participant, method, sent, alreadyEnrolled]);

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

  /** To the code entry for a code sent earlier, which still works. */
  function enterSentCode() {
    setError(null);
    setNotice(null);
    setCodeNotice(PARTICIPANT_FLOW_TEXTS.codeStillValid(method));
    setStep(STEP.code);
  }

  async function submitMethod(event: FormEvent) {
    event.preventDefault();
    if (busy || !participant) return;
    // Send Code, Back, Send Code: the code sent a moment ago still works, so its entry opens
    // instead of a 30-second refusal.
    const earlier = liveCode(sent[method]);
    if (earlier && Date.parse(earlier.resendAfter) > Date.now()) return enterSentCode();
    setBusy(true);
    setError(null);
    try {
      const result = await sendFor(method, participant);
      setSent((codes) => ({
        ...codes,
        [method]: { resendAfter: result.resendAfter, expiresAt: result.expiresAt },
      }));
      setCodeNotice(undefined);
      setNotice(null);
      setStep(STEP.code);
    } catch (cause) {
      if (cause instanceof ApiError && cause.code === 'RESEND_TOO_SOON') {
        // Sent under 30 s ago from this tab before a reload, or from another tab.
        setSent((codes) => ({ ...codes, [method]: recentCode(cause.details.retryAfterSeconds) }));
        enterSentCode();
      } else {
        setError(errorText(cause, VERIFICATION_MESSAGES.sendCodeFailed));
      }
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
      // Someone enrolled already hears so on the next step, which also offers their details.
      setAlreadyEnrolled(result.alreadyEnrolled === true);
      // The consent form in force first, then the wearable step.
      setConsented(false);
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
      (result) => {
        setBusy(false);
        // A grant without some kinds of data is not called a success: the popup names them.
        setNotice(
          missingReadScopes(result.scope).length > 0
            ? WEARABLE_MESSAGES.connectedPartlyTitle
            : WEARABLE_MESSAGES.connectedTitle,
        );
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
          liveCode={liveCode(sent[method])}
          onEnterCode={enterSentCode}
        />
      )}

      {step === STEP.code && participant && (
        <Box>
          <CodeEntry
            key={method}
            channel={method}
            alreadySent={Boolean(sent[method])}
            initialResendAfter={sent[method]?.resendAfter}
            initialNotice={codeNotice}
            send={async () => {
              const result = await sendFor(method, participant);
              setSent((codes) => ({
                ...codes,
                [method]: { resendAfter: result.resendAfter, expiresAt: result.expiresAt },
              }));
              return result;
            }}
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

      {step === STEP.authorize && participant && !consented && (
        <ConsentStep
          participantId={participant.participantId}
          headers={() => sessionHeaders(participant.participantId)}
          onDone={() => setConsented(true)}
        />
      )}

      {step === STEP.authorize && participant && consented && (
        <AuthorizeStep
          busy={busy}
          error={error}
          back={back(STEP.method)}
          onConnect={connect}
          reconnect={alreadyEnrolled}
          onUpdateDetails={
            alreadyEnrolled
              ? () => {
                  setError(null);
                  setNotice(null);
                  setStep(STEP.profile);
                }
              : undefined
          }
        />
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
