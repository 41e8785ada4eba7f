import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import {
  normalizeEmail,
  PARTICIPANT_COMMON_TEXTS,
  PARTICIPANT_SESSION_HEADER,
  PARTICIPANT_VERIFY_TEXTS,
  type ParticipantVerifyResponse,
  VERIFICATION_MESSAGES,
} from '@research/contracts';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { verifyParticipant } from '../../../lib/wearables/verify-participant';
import { sendEmailCode } from '../api/send-email-code';
import { verifySecure } from '../api/verify-secure';
import { saveEnrolment, sessionHeaders } from '../session';
import { ParticipantPage } from './participant-page';
import { ButtonRow, IdentityFields, StepError, StepForm } from './step-parts';

type Found = ParticipantVerifyResponse['data'];
/** What the page shows: the status itself only when this tab holds the participant's session. */
type Status = Found & {
  own?: { status: string; fitbitConnected: boolean };
};

/**
 * /participant/verify: participant id and e-mail, then 'Check Status' (POST
 * /api/participants/verify) or 'Send Verification Email' (the e-mail code, then
 * /participant/verify-email). Prefilled from navigation state.
 */
export default function VerifyPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const handed = (location.state ?? null) as { participantId?: string; email?: string } | null;
  const [participantId, setParticipantId] = useState(handed?.participantId ?? '');
  const [email, setEmail] = useState(handed?.email ?? '');
  const [status, setStatus] = useState<Status | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'check' | 'send' | null>(null);

  async function lookup(): Promise<Found> {
    const result = await verifyParticipant({
      participantId: participantId.trim(),
      email: normalizeEmail(email),
    });
    if (!result.success) throw new Error(VERIFICATION_MESSAGES.failed);
    return result.data;
  }

  /** The id and e-mail prove nothing: status and connection come only with a verified session. */
  async function lookupStatus(): Promise<Status> {
    const found = await lookup();
    if (!sessionHeaders(found.participantId)[PARTICIPANT_SESSION_HEADER]) return found;
    const own = await verifySecure({
      participantId: found.participantId,
      email: found.participantEmail,
    }).catch(() => null);
    return own
      ? { ...found, own: { status: own.status, fitbitConnected: own.fitbitTokens.accessToken } }
      : found;
  }

  async function check(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!participantId.trim() || !email.trim())
      return setError(VERIFICATION_MESSAGES.idAndEmailRequired);
    setBusy('check');
    setError(null);
    setStatus(null);
    try {
      setStatus(await lookupStatus());
    } catch {
      setError(VERIFICATION_MESSAGES.failed);
    } finally {
      setBusy(null);
    }
  }

  async function sendEmail() {
    if (busy) return;
    if (!participantId.trim() || !email.trim())
      return setError(VERIFICATION_MESSAGES.idAndEmailRequiredFirst);
    setBusy('send');
    setError(null);
    let found: Found;
    try {
      found = await lookup();
    } catch {
      setBusy(null);
      return setError(VERIFICATION_MESSAGES.failed);
    }
    try {
      const sent = await sendEmailCode({
        participantId: found.participantId,
        email: found.participantEmail,
        studyCode: found.studyCode,
      });
      saveEnrolment({
        participantId: found.participantId,
        studyCode: found.studyCode,
        email: found.participantEmail,
      });
      navigate('/participant/verify-email', {
        state: {
          participantId: found.participantId,
          email: found.participantEmail,
          studyCode: found.studyCode,
          codeSent: true,
          resendAfter: sent.resendAfter,
        },
      });
    } catch (cause) {
      setBusy(null);
      setError(
        cause instanceof Error && cause.message.trim()
          ? cause.message
          : VERIFICATION_MESSAGES.sendEmailFailed,
      );
    }
  }

  return (
    <ParticipantPage
      title={PARTICIPANT_VERIFY_TEXTS.title}
      subtitle={PARTICIPANT_VERIFY_TEXTS.subtitle}
    >
      <StepForm onSubmit={check}>
        <IdentityFields
          participantId={participantId}
          email={email}
          onParticipantIdChange={setParticipantId}
          onEmailChange={setEmail}
        />
        <StepError error={error} />
        <ButtonRow>
          <Button
            type="submit"
            variant="contained"
            size="large"
            disabled={busy !== null}
            startIcon={busy === 'check' ? <CircularProgress size={18} color="inherit" /> : null}
          >
            {PARTICIPANT_VERIFY_TEXTS.checkStatus}
          </Button>
          <Button
            variant="outlined"
            size="large"
            onClick={() => void sendEmail()}
            disabled={busy !== null}
            startIcon={busy === 'send' ? <CircularProgress size={18} color="inherit" /> : null}
          >
            {PARTICIPANT_VERIFY_TEXTS.sendEmail}
          </Button>
        </ButtonRow>
      </StepForm>

      {status && (
        <Paper
          variant="outlined"
          role="region"
          aria-label={PARTICIPANT_VERIFY_TEXTS.statusTitle}
          sx={{ p: 2, mt: 3 }}
        >
          <Typography variant="subtitle1" component="h2" sx={{ mb: 1.5 }}>
            {PARTICIPANT_VERIFY_TEXTS.statusTitle}
          </Typography>
          <Box component="dl" sx={{ m: 0, display: 'grid', gap: 1.25 }}>
            <Row label={PARTICIPANT_COMMON_TEXTS.participantIdLabel}>{status.participantId}</Row>
            <Row label={PARTICIPANT_COMMON_TEXTS.studyCodeLabel}>{status.studyCode}</Row>
            {status.own && (
              <Row label={PARTICIPANT_VERIFY_TEXTS.status}>
                <Chip
                  size="small"
                  label={status.own.status}
                  color={
                    status.own.status === 'active' || status.own.status === 'enrolled'
                      ? 'success'
                      : 'default'
                  }
                />
              </Row>
            )}
            {status.own && (
              <Row label={PARTICIPANT_VERIFY_TEXTS.fitbit}>
                <Chip
                  size="small"
                  label={
                    status.own.fitbitConnected
                      ? PARTICIPANT_VERIFY_TEXTS.fitbitConnected
                      : PARTICIPANT_VERIFY_TEXTS.fitbitNotConnected
                  }
                  color={status.own.fitbitConnected ? 'success' : 'default'}
                />
              </Row>
            )}
          </Box>
          {!status.own && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
              {PARTICIPANT_VERIFY_TEXTS.verifyToSeeStatus}
            </Typography>
          )}
          {status.own && !status.own.fitbitConnected && (
            <Button
              component={RouterLink}
              to={`/fitbit/reauthorize?participantId=${encodeURIComponent(status.participantId)}&email=${encodeURIComponent(status.participantEmail)}`}
              sx={{ mt: 2 }}
            >
              {PARTICIPANT_VERIFY_TEXTS.reconnect}
            </Button>
          )}
        </Paper>
      )}
    </ParticipantPage>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: 1 }}>
      <Typography component="dt" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, fontWeight: 500, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Box>
  );
}
