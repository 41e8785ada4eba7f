import { authApi, GOOGLE_SIGN_IN_TEXTS, operationUrl } from '@research/contracts';
import type { GoogleSignInResult } from '../../lib/auth/auth-provider';

/** The message the callback page posts to its opener. */
export interface GoogleSignInMessage {
  type: 'google-sign-in';
  code: string | null;
  state: string | null;
  error: string | null;
}

export const GOOGLE_MESSAGE_TYPE = 'google-sign-in';
const POPUP_NAME = 'google-sign-in';
const POPUP_FEATURES = 'width=500,height=650';
const CLOSED_POLL_MS = 500;
/**
 * The callback posts its message and closes itself straight after; the closed flag can be seen
 * before the message event is handled, so a closed popup gets this much longer to be heard.
 */
const CLOSED_GRACE_MS = 300;

/** 32 random bytes, base64url: ties the popup's result to this tab (server checks it). */
export function createBinding(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Opens the sign-in popup. Must be called synchronously from the click handler, or the browser
 * blocks the popup. Resolves with what the complete call needs; rejects with the reason
 * text that follows 'Failed to sign in with Google: '.
 */
export function openGoogleSignIn(): Promise<GoogleSignInResult> {
  const binding = createBinding();
  const popup = window.open(
    operationUrl(authApi.googleStart, undefined, { binding }),
    POPUP_NAME,
    POPUP_FEATURES,
  );
  if (!popup) {
    return Promise.reject(new Error(GOOGLE_SIGN_IN_TEXTS.popupBlocked));
  }
  return new Promise((resolve, reject) => {
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    const cleanup = () => {
      window.removeEventListener('message', onMessage);
      clearInterval(pollTimer);
      clearTimeout(graceTimer);
    };
    const onMessage = (event: MessageEvent) => {
      // Only our own callback page, in the popup we opened, may answer.
      if (event.origin !== window.location.origin || event.source !== popup) return;
      const data = event.data as Partial<GoogleSignInMessage> | null;
      if (!data || data.type !== GOOGLE_MESSAGE_TYPE) return;
      cleanup();
      if (!popup.closed) popup.close();
      if (data.error) {
        reject(
          new Error(data.error === 'access_denied' ? GOOGLE_SIGN_IN_TEXTS.cancelled : data.error),
        );
      } else if (!data.code || !data.state) {
        reject(new Error(GOOGLE_SIGN_IN_TEXTS.missingCode));
      } else {
        resolve({ code: data.code, state: data.state, binding });
      }
    };
    const pollTimer = setInterval(() => {
      if (popup.closed && graceTimer === undefined) {
        graceTimer = setTimeout(() => {
          cleanup();
          reject(new Error(GOOGLE_SIGN_IN_TEXTS.popupClosed));
        }, CLOSED_GRACE_MS);
      }
    }, CLOSED_POLL_MS);
    window.addEventListener('message', onMessage);
  });
}
