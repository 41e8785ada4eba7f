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
  type ParticipantSession,
  POPUP,
  REDIRECT_DELAYS_MS,
  WEARABLE_MESSAGES,
  WEARABLE_POPUP_MESSAGE,
} from '@research/contracts';
import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { clearStoredFlow, readStoredFlow } from '../../../lib/wearables/authorization-flow';
import type { WearablePopupMessage } from '../../../lib/wearables/authorization-popup';
import { completeCallback } from '../api/complete-callback';
import { exchangeToken } from '../api/exchange-token';
import { storeTokens } from '../api/store-tokens';

type View = { kind: 'processing' } | { kind: 'success' } | { kind: 'failure'; message: string };

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
  code: string,
  state: string,
): Promise<{
  participantId: string;
  studyCode: string;
  scope: string;
  /** The participant session the server answers, for the profile step that follows. */
  session?: ParticipantSession | undefined;
}> {
  const stored = readStoredFlow();
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

    const fail = (message: string) => {
      setView({ kind: 'failure', message });
      if (opener) {
        post({ type: WEARABLE_POPUP_MESSAGE.error, error: message });
        clearStoredFlow();
        timers.push(setTimeout(() => window.close(), POPUP.closeAfterSuccessMs));
      } else {
        clearStoredFlow();
      }
    };

    void (async () => {
      if (providerError) return fail(WEARABLE_MESSAGES.callbackFailed(providerError));
      if (!code || !state) return fail(WEARABLE_MESSAGES.missingCodeOrState);
      try {
        const { session, ...result } = await completeAuthorization(code, state);
        clearStoredFlow();
        setView({ kind: 'success' });
        if (opener) {
          post({ type: WEARABLE_POPUP_MESSAGE.success, ...result });
          timers.push(setTimeout(() => window.close(), POPUP.closeAfterSuccessMs));
        } else {
          timers.push(
            setTimeout(
              () =>
                navigate('/participant/info', {
                  state: {
                    participantId: result.participantId,
                    studyCode: result.studyCode,
                    // /participant/info keeps it for the profile call.
                    ...(session ? { session } : {}),
                  },
                }),
              REDIRECT_DELAYS_MS.wearableSuccess,
            ),
          );
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
            <CheckCircleOutline color="success" sx={{ fontSize: 56 }} aria-hidden />
            <Typography variant="h5" component="h1">
              {WEARABLE_MESSAGES.connectedTitle}
            </Typography>
            <Typography>{WEARABLE_MESSAGES.connected}</Typography>
            <Typography role="status" color="text.secondary">
              {WEARABLE_MESSAGES.closingAutomatically}
            </Typography>
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
            <Box sx={{ display: 'flex', gap: 1 }}>
              <Button component={RouterLink} to="/fitbit/reauthorize" variant="contained">
                {CALLBACK_TEXTS.tryAgain}
              </Button>
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
