import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import {
  CALLBACK_TEXTS,
  GOOGLE_HEALTH_READ_SCOPES,
  missingReadScopes,
  type ParticipantSession,
  POPUP,
  REDIRECT_DELAYS_MS,
  scopeLabel,
  WEARABLE_MESSAGES,
  WEARABLE_POPUP_MESSAGE,
} from '@research/contracts';
import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import {
  clearStoredFlow,
  forgetParticipant,
  readEnrolmentForRetry,
  readStoredFlow,
  type StoredFlow,
  startAuthorization,
} from '../../../lib/wearables/authorization-flow';
import type { WearablePopupMessage } from '../../../lib/wearables/authorization-popup';
import { completeCallback } from '../api/complete-callback';
import { exchangeToken } from '../api/exchange-token';
import { storeTokens } from '../api/store-tokens';

/** Who was connecting, as far as this page knows: what Try Again and "share the rest" reuse. */
interface Known {
  participantId: string;
  studyCode: string;
  email?: string | undefined;
  session?: string | undefined;
}

type View =
  | { kind: 'processing' }
  | { kind: 'success'; shared: string[]; missing: string[]; next?: () => void }
  | { kind: 'failure'; message: string };

/**
 * What the stored flow and the tab's enrolment state know about the person (read before they
 * are cleared). A consent link the server made (enrolment) leaves no flow, only the enrolment.
 */
function canTryAgain(known: Known | null): known is Known {
  return known !== null && Boolean(known.email || known.session);
}

function knownOf(stored: StoredFlow): Known | null {
  const enrolment = readEnrolmentForRetry();
  if (stored.participant && stored.studyCode) {
    const same = enrolment?.participantId === stored.participant.participantId;
    return {
      participantId: stored.participant.participantId,
      studyCode: stored.studyCode,
      email: stored.participant.email ?? (same ? enrolment?.email : undefined),
      session: same ? enrolment?.session : undefined,
    };
  }
  if (!enrolment) return null;
  // An enrolment without a live session cannot ask for a first connection: the e-mail alone
  // only renews one (it would end at "not the connected account"), so it is not offered.
  return enrolment.session ? enrolment : { ...enrolment, email: undefined };
}

const labels = (scopes: readonly string[]) => scopes.map(scopeLabel).join(', ');

class CallbackFailure extends Error {}

const reasonOf = (error: unknown, fallback: string) =>
  error instanceof Error && error.message.trim() ? error.message : fallback;

/** The window that opened this one as a popup, if it is still there. */
function openerWindow(): Window | null {
  const opener = window.opener as Window | null;
  return opener && !opener.closed ? opener : null;
}

/**
 * Both paths. Without a stored verifier it is the direct path (one callback call);
 * with one it is the PKCE path (exchange on the server, then store). Answers the participant id
 * and study code for the next page.
 */
async function completeAuthorization(
  stored: StoredFlow,
  code: string,
  state: string,
): Promise<{
  participantId: string;
  studyCode: string;
  scope: string;
  /** The participant session the server answers, for the profile step that follows. */
  session?: ParticipantSession | undefined;
}> {
  if (!stored.codeVerifier) {
    // Study code and participant data without a verifier: a PKCE flow that lost its verifier.
    if (stored.studyCode && stored.participant) {
      throw new CallbackFailure(WEARABLE_MESSAGES.missingPkceVerifier);
    }
    let result: Awaited<ReturnType<typeof completeCallback>>;
    try {
      result = await completeCallback({
        code,
        state,
        ...(stored.participant ? { participantId: stored.participant.participantId } : {}),
      });
    } catch (error) {
      throw new CallbackFailure(reasonOf(error, WEARABLE_MESSAGES.processFailed));
    }
    if (!result.participantId) throw new CallbackFailure(WEARABLE_MESSAGES.missingParticipantId);
    return {
      participantId: result.participantId,
      studyCode: result.studyCode,
      scope: result.scope,
      session: result.session,
    };
  }

  if (!stored.studyCode) throw new CallbackFailure(WEARABLE_MESSAGES.missingStudyCode);
  const participantId = stored.participant?.participantId;
  if (!participantId) throw new CallbackFailure(WEARABLE_MESSAGES.missingParticipantId);
  let exchanged: Awaited<ReturnType<typeof exchangeToken>>;
  try {
    exchanged = await exchangeToken({
      code,
      state,
      codeVerifier: stored.codeVerifier,
      redirectUri: `${window.location.origin}/fitbit/callback`,
      studyCode: stored.studyCode,
    });
  } catch (error) {
    throw new CallbackFailure(reasonOf(error, WEARABLE_MESSAGES.exchangeFailed));
  }
  try {
    await storeTokens(
      {
        participantId,
        participantCode: stored.studyCode,
        participantInfo: {
          userId: exchanged.user_id,
          fitbitUserId: exchanged.user_id,
          scope: exchanged.scope,
        },
      },
      exchanged.session,
    );
  } catch (error) {
    throw new CallbackFailure(reasonOf(error, WEARABLE_MESSAGES.storeTokensFailed));
  }
  return {
    participantId,
    studyCode: stored.studyCode,
    scope: exchanged.scope,
    session: exchanged.session,
  };
}

/** /fitbit/callback: where Google's consent returns, in a popup or in the participant's tab. */
export default function FitbitCallbackPage() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [view, setView] = useState<View>({ kind: 'processing' });
  const [known, setKnown] = useState<Known | null>(null);
  const [inPopup] = useState(() => openerWindow() !== null);
  const [restarting, setRestarting] = useState(false);
  const [restartError, setRestartError] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    // A code is single-use: never run twice (React's development double effects).
    if (started.current) return;
    started.current = true;
    const timers: ReturnType<typeof setTimeout>[] = [];
    const params = searchParams;
    const code = params.get('code');
    const state = params.get('state');
    const providerError = params.get('error');
    const opener = openerWindow();
    const post = (message: WearablePopupMessage) =>
      opener?.postMessage(message, window.location.origin);
    // Read once, before anything clears it: Try Again reuses it from memory only.
    const stored = readStoredFlow();
    const knownNow = knownOf(stored);
    setKnown(knownNow);

    const fail = (message: string) => {
      setView({ kind: 'failure', message });
      // Nothing about the person stays in this browser after a failure.
      forgetParticipant();
      if (opener) {
        post({ type: WEARABLE_POPUP_MESSAGE.error, error: message });
        timers.push(setTimeout(() => window.close(), POPUP.closeAfterSuccessMs));
      }
    };

    void (async () => {
      if (providerError)
        // Try Again is offered only in the person's own tab, and only where the page knows
        // whom to send back to Google (a popup's failure is shown by the page that opened it).
        return fail(
          WEARABLE_MESSAGES.callbackFailed(providerError, !opener && canTryAgain(knownNow)),
        );
      if (!code || !state) return fail(WEARABLE_MESSAGES.missingCodeOrState);
      try {
        const { session, ...result } = await completeAuthorization(stored, code, state);
        clearStoredFlow();
        setKnown((before) => ({
          participantId: result.participantId,
          studyCode: result.studyCode,
          email: before?.email,
          session: session?.sessionId ?? before?.session,
        }));
        const shared = GOOGLE_HEALTH_READ_SCOPES.filter((s) => result.scope.split(' ').includes(s));
        const missing = missingReadScopes(result.scope);
        const toProfile = () =>
          navigate('/participant/info', {
            state: {
              participantId: result.participantId,
              studyCode: result.studyCode,
              // /participant/info keeps it for the profile call.
              ...(session ? { session } : {}),
            },
          });
        if (opener) {
          // The opener carries on at once; a partial grant keeps this window open, so the
          // person sees what they left out and may share it.
          post({ type: WEARABLE_POPUP_MESSAGE.success, ...result });
          setView({ kind: 'success', shared, missing, next: () => window.close() });
          if (missing.length === 0)
            timers.push(setTimeout(() => window.close(), POPUP.closeAfterSuccessMs));
        } else {
          setView({ kind: 'success', shared, missing, next: toProfile });
          // A partial grant waits for the person's choice instead of moving on by itself.
          if (missing.length === 0)
            timers.push(setTimeout(toProfile, REDIRECT_DELAYS_MS.wearableSuccess));
        }
      } catch (error) {
        fail(
          error instanceof CallbackFailure
            ? error.message
            : reasonOf(error, WEARABLE_MESSAGES.processFailed),
        );
      }
    })();
    return () => {
      for (const timer of timers) clearTimeout(timer);
    };
  }, [navigate, searchParams]);

  /** Back to Google's consent with what the flow already knows (Try Again, share the rest). */
  async function restart(who: Known) {
    setRestarting(true);
    setRestartError(null);
    try {
      const authUrl = await startAuthorization({
        participantId: who.participantId,
        studyCode: who.studyCode,
        email: who.email,
        session: who.session,
        mode: inPopup ? 'popup' : 'redirect',
      });
      window.location.assign(authUrl);
    } catch (error) {
      setRestarting(false);
      setRestartError(reasonOf(error, WEARABLE_MESSAGES.initiateFailed));
    }
  }

  // Try Again needs the e-mail or a session (a reauthorization is checked against the e-mail).
  const canRestart = canTryAgain(known);

  return (
    <Box
      component="main"
      sx={{
        minHeight: '100dvh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        p: 3,
        bgcolor: 'background.default',
      }}
    >
      <Paper variant="outlined" sx={{ p: 4, maxWidth: 520, width: '100%', textAlign: 'center' }}>
        {view.kind === 'processing' && (
          <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2 }}>
            <CircularProgress aria-hidden />
            <Typography role="status">{WEARABLE_MESSAGES.processing}</Typography>
          </Box>
        )}
        {view.kind === 'success' && (
          <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2 }}>
            <CheckCircleOutline
              color={view.missing.length > 0 ? 'warning' : 'success'}
              sx={{ fontSize: 56 }}
              aria-hidden
            />
            <Typography variant="h5" component="h1">
              {view.missing.length > 0
                ? WEARABLE_MESSAGES.connectedPartlyTitle
                : WEARABLE_MESSAGES.connectedTitle}
            </Typography>
            <Typography>{WEARABLE_MESSAGES.connected}</Typography>
            {view.shared.length > 0 && (
              <Typography>{WEARABLE_MESSAGES.sharedKinds(labels(view.shared))}</Typography>
            )}
            {view.missing.length > 0 ? (
              <>
                <Alert severity="warning" sx={{ textAlign: 'left', width: '100%' }}>
                  {WEARABLE_MESSAGES.missingKinds(labels(view.missing))}
                </Alert>
                <Typography variant="body2" color="text.secondary">
                  {WEARABLE_MESSAGES.shareRestHint}
                </Typography>
                {restartError && (
                  <Alert severity="error" role="alert" sx={{ width: '100%' }}>
                    {restartError}
                  </Alert>
                )}
                <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'center' }}>
                  {known && (
                    <Button
                      variant="contained"
                      disabled={restarting}
                      onClick={() => void restart(known)}
                    >
                      {WEARABLE_MESSAGES.shareRest}
                    </Button>
                  )}
                  <Button variant="outlined" onClick={view.next}>
                    {inPopup ? WEARABLE_MESSAGES.closeWindow : WEARABLE_MESSAGES.continueAnyway}
                  </Button>
                </Box>
              </>
            ) : (
              <Typography role="status" color="text.secondary">
                {inPopup
                  ? WEARABLE_MESSAGES.closingAutomatically
                  : WEARABLE_MESSAGES.continuingShortly}
              </Typography>
            )}
          </Box>
        )}
        {view.kind === 'failure' && (
          <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2 }}>
            <ErrorOutline color="error" sx={{ fontSize: 56 }} aria-hidden />
            <Typography variant="h5" component="h1">
              {WEARABLE_MESSAGES.failedTitle}
            </Typography>
            <Typography>{WEARABLE_MESSAGES.failed}</Typography>
            <Alert severity="error" sx={{ textAlign: 'left', width: '100%' }}>
              {view.message}
            </Alert>
            {restartError && (
              <Alert severity="error" role="alert" sx={{ width: '100%' }}>
                {restartError}
              </Alert>
            )}
            {!canRestart && !inPopup && (
              <Typography variant="body2" color="text.secondary">
                {WEARABLE_MESSAGES.restartFromStudy}
              </Typography>
            )}
            <Box sx={{ display: 'flex', gap: 1 }}>
              {canRestart && known && !inPopup && (
                <Button
                  variant="contained"
                  disabled={restarting}
                  onClick={() => void restart(known)}
                >
                  {CALLBACK_TEXTS.tryAgain}
                </Button>
              )}
              <Button component={RouterLink} to="/" variant="outlined">
                {CALLBACK_TEXTS.backHome}
              </Button>
            </Box>
          </Box>
        )}
      </Paper>
    </Box>
  );
}
