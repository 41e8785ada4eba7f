import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { GOOGLE_SIGN_IN_TEXTS } from '@research/contracts';
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ROUTES } from '../../../lib/auth/routing';
import { GOOGLE_MESSAGE_TYPE, type GoogleSignInMessage } from '../google-popup';

/**
 * /auth/google/callback, inside the sign-in popup: hands Google's answer to the portal that opened
 * the popup (same origin only) and closes. The portal finishes the sign-in with the server.
 */
export default function GoogleCallbackPage() {
  const [orphan, setOrphan] = useState(false);

  useEffect(() => {
    const opener = window.opener as Window | null;
    if (!opener || opener.closed) {
      setOrphan(true);
      return;
    }
    const params = new URLSearchParams(window.location.search);
    const message: GoogleSignInMessage = {
      type: GOOGLE_MESSAGE_TYPE,
      code: params.get('code'),
      state: params.get('state'),
      error: params.get('error'),
    };
    opener.postMessage(message, window.location.origin);
    window.close();
  }, []);

  return (
    <Box
      component="main"
      sx={{
        minHeight: '100dvh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 2,
        p: 3,
        textAlign: 'center',
      }}
    >
      {orphan ? (
        <>
          <Typography>{GOOGLE_SIGN_IN_TEXTS.callbackNoOpener}</Typography>
          <Link component={RouterLink} to={ROUTES.auth}>
            {GOOGLE_SIGN_IN_TEXTS.callbackBackToPortal}
          </Link>
        </>
      ) : (
        <Typography role="status">{GOOGLE_SIGN_IN_TEXTS.callbackWorking}</Typography>
      )}
    </Box>
  );
}
