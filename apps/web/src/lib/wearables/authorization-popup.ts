import {
  missingReadScopes,
  POPUP,
  WEARABLE_MESSAGES,
  WEARABLE_POPUP_MESSAGE,
} from '@research/contracts';

/** What the callback page posts to the window that opened the popup (same origin only). */
export type WearablePopupMessage =
  | {
      type: typeof WEARABLE_POPUP_MESSAGE.success;
      participantId: string;
      studyCode: string;
      scope: string;
    }
  | { type: typeof WEARABLE_POPUP_MESSAGE.error; error: string };

export interface PopupAuthorizationResult {
  participantId: string;
  studyCode: string;
  scope: string;
}

const POPUP_NAME = 'fitbit-authorization';

/**
 * The authorization popup: 600×700, checked for closing every 3 s; a success message
 * resolves after 500 ms and closes it then, unless some kinds of data were not shared: the popup
 * then stays open to say so and to offer Google's page again; an error message rejects with its text (default
 * 'Authorization failed'); closing it by hand rejects with 'Authorization cancelled by user'.
 *
 * Call it synchronously inside the click handler (or the browser blocks the window). `authUrl`
 * may still be on its way: the popup opens blank at once and is sent there when it arrives.
 */
export function openAuthorizationPopup(
  authUrl: string | Promise<string>,
): Promise<PopupAuthorizationResult> {
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - POPUP.width) / 2));
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - POPUP.height) / 2));
  const popup = window.open(
    '',
    POPUP_NAME,
    `width=${POPUP.width},height=${POPUP.height},left=${left},top=${top}`,
  );
  if (!popup) return Promise.reject(new Error(WEARABLE_MESSAGES.popupBlocked));

  return new Promise<PopupAuthorizationResult>((resolve, reject) => {
    let settled = false;
    const finish = () => {
      settled = true;
      window.removeEventListener('message', onMessage);
      clearInterval(closedCheck);
    };
    const onMessage = (event: MessageEvent) => {
      // Only our own callback page may answer.
      if (event.origin !== window.location.origin) return;
      const data = event.data as Partial<WearablePopupMessage> | null;
      if (!data || typeof data !== 'object') return;
      if (data.type === WEARABLE_POPUP_MESSAGE.success) {
        finish();
        const {
          participantId = '',
          studyCode = '',
          scope = '',
        } = data as Partial<Extract<WearablePopupMessage, { type: 'FITBIT_AUTH_SUCCESS' }>>;
        setTimeout(() => {
          if (!popup.closed && missingReadScopes(scope).length === 0) popup.close();
          resolve({ participantId, studyCode, scope });
        }, POPUP.closeAfterSuccessMs);
      } else if (data.type === WEARABLE_POPUP_MESSAGE.error) {
        finish();
        if (!popup.closed) popup.close();
        const text = (data as { error?: unknown }).error;
        reject(
          new Error(typeof text === 'string' && text ? text : WEARABLE_MESSAGES.openerDefaultError),
        );
      }
    };
    const closedCheck = setInterval(() => {
      if (popup.closed && !settled) {
        finish();
        reject(new Error(WEARABLE_MESSAGES.cancelledByUser));
      }
    }, POPUP.closedCheckMs);
    window.addEventListener('message', onMessage);

    Promise.resolve(authUrl).then(
      (url) => {
        if (!settled && !popup.closed) popup.location.href = url;
      },
      (error: unknown) => {
        if (settled) return;
        finish();
        if (!popup.closed) popup.close();
        const reason = error instanceof Error && error.message ? error.message : '';
        reject(new Error(reason || WEARABLE_MESSAGES.initiateFailed));
      },
    );
  });
}
