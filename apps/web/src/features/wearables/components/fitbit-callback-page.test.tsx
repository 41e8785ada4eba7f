import { GOOGLE_HEALTH_READ_SCOPES } from '@research/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appRoutes } from '../../../app/router';
import { failure, installFakeApi } from '../../../test/fake-api';
import { renderRoute } from '../../../test/render-route';

const ALL_SCOPES = GOOGLE_HEALTH_READ_SCOPES.join(' ');
const [ACTIVITY, , SLEEP] = GOOGLE_HEALTH_READ_SCOPES;
const CANCELLED =
  'You chose Cancel on Google’s page, so nothing was shared and nothing was changed. Choose Try Again to go back to Google’s page.';
/** Where the page cannot send the person back to Google, it does not ask them to try. */
const CANCELLED_NO_RETRY =
  'You chose Cancel on Google’s page, so nothing was shared and nothing was changed.';

/** A PKCE flow this browser started for Sam (what /fitbit/reauthorize stores). */
function storeFlow() {
  localStorage.setItem('fitbit_code_verifier', 'a'.repeat(64));
  localStorage.setItem('fitbit_study_code', 'ABC123');
  localStorage.setItem(
    'fitbit_participant_data',
    JSON.stringify({ participantId: 'P0123456789abcdef', email: 'sam@example.org' }),
  );
}

/** The consent address the server answers, recording the request for it. */
const authUrlRoute = {
  'GET /api/fitbit/auth-url': {
    body: {
      success: true,
      authUrl: 'https://accounts.example/o/oauth2/v2/auth?state=again',
      expiresAt: '2026-01-01T00:10:00.000Z',
    },
  },
};

describe('/fitbit/callback failures', () => {
  afterEach(() => {
    localStorage.clear();
    sessionStorage.clear();
    vi.unstubAllGlobals();
  });

  it('says what Cancel on Google’s page means, never the provider’s code, and forgets the participant', async () => {
    storeFlow();
    sessionStorage.setItem(
      'participant_enrolment',
      JSON.stringify({ participantId: 'P0123456789abcdef', studyCode: 'ABC123', sessionId: 'x' }),
    );
    installFakeApi(authUrlRoute);
    renderRoute('/fitbit/callback?error=access_denied&state=s');
    expect(await screen.findByText('Authorization Failed')).toBeTruthy();
    expect(screen.getByText('There was an issue connecting your Fitbit device.')).toBeTruthy();
    expect(screen.getByText(CANCELLED)).toBeTruthy();
    expect(screen.queryByText(/access_denied/)).toBeNull();
    expect(localStorage.getItem('fitbit_code_verifier')).toBeNull();
    expect(localStorage.getItem('fitbit_study_code')).toBeNull();
    expect(localStorage.getItem('fitbit_participant_data')).toBeNull();
    expect(sessionStorage.getItem('participant_enrolment')).toBeNull();
  });

  it('Try Again goes back to Google’s consent with what the flow knew, asking for nothing', async () => {
    storeFlow();
    const { calls } = installFakeApi(authUrlRoute);
    renderRoute('/fitbit/callback?error=access_denied&state=s');
    fireEvent.click(await screen.findByRole('button', { name: 'Try Again' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]?.path).toBe('/api/fitbit/auth-url');
    expect(Object.fromEntries(calls[0]?.query ?? [])).toMatchObject({
      participantId: 'P0123456789abcdef',
      email: 'sam@example.org',
      studyCode: 'ABC123',
      mode: 'redirect',
    });
    // A new flow is stored for the way back from Google.
    await waitFor(() =>
      expect(localStorage.getItem('fitbit_code_verifier')).toMatch(/^[0-9a-f]{64}$/),
    );
    expect(screen.queryByRole('link', { name: 'Try Again' })).toBeNull();
  });

  it('after a consent link from the enrolment, Try Again uses the tab’s session, then forgets it', async () => {
    const enrolment = (expiresAt: string) =>
      sessionStorage.setItem(
        'participant_enrolment',
        JSON.stringify({
          participantId: 'P0123456789abcdef',
          studyCode: 'ABC123',
          email: 'sam@example.org',
          firstName: 'Sam',
          sessionId: 'the-session',
          sessionExpiresAt: expiresAt,
        }),
      );
    enrolment('2999-01-01T00:00:00.000Z');
    const { calls } = installFakeApi(authUrlRoute);
    renderRoute('/fitbit/callback?error=access_denied&state=s');
    expect(await screen.findByText(CANCELLED)).toBeTruthy();
    // Nothing about the person stays in the tab, but Try Again still knows them.
    expect(sessionStorage.getItem('participant_enrolment')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]?.path).toBe('/api/fitbit/auth-url');
    expect(calls[0]?.query.get('participantId')).toBe('P0123456789abcdef');
    expect(calls[0]?.query.get('studyCode')).toBe('ABC123');
    expect(calls[0]?.participantSession).toBe('the-session');
  });

  it('does not offer Try Again for an enrolment whose session has expired', async () => {
    sessionStorage.setItem(
      'participant_enrolment',
      JSON.stringify({
        participantId: 'P0123456789abcdef',
        studyCode: 'ABC123',
        email: 'sam@example.org',
        sessionId: 'old',
        sessionExpiresAt: '2000-01-01T00:00:00.000Z',
      }),
    );
    renderRoute('/fitbit/callback?error=access_denied&state=s');
    expect(await screen.findByText(CANCELLED_NO_RETRY)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try Again' })).toBeNull();
    expect(
      screen.getByText(
        'To try again, open the link from your study e-mail again, or start from your study invitation.',
      ),
    ).toBeTruthy();
  });

  it('says where to start again when it knows nothing of the person', async () => {
    renderRoute('/fitbit/callback?error=server_error&state=s');
    expect(
      await screen.findByText(
        'Google could not finish connecting your Fitbit device. Please try again in a few minutes.',
      ),
    ).toBeTruthy();
    expect(
      screen.getByText(
        'To try again, open the link from your study e-mail again, or start from your study invitation.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try Again' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Try Again' })).toBeNull();
  });

  it('needs both code and state', async () => {
    renderRoute('/fitbit/callback?code=abc');
    expect(
      await screen.findByText(
        'Google sent you back without the answer this page needs. Please start the connection again.',
      ),
    ).toBeTruthy();
  });

  it('says when a PKCE flow lost its verifier', async () => {
    localStorage.setItem('fitbit_study_code', 'ABC123');
    localStorage.setItem('fitbit_participant_data', JSON.stringify({ participantId: 'P1' }));
    renderRoute('/fitbit/callback?code=abc&state=s');
    expect(
      await screen.findByText(
        'This browser no longer holds the connection you started (it may have been started in another tab or browser). Please start the connection again here.',
      ),
    ).toBeTruthy();
  });
});

describe('/fitbit/callback PKCE path', () => {
  afterEach(() => {
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('shows the processing text, exchanges on the server, stores, then the success texts', async () => {
    const verifier = 'b'.repeat(64);
    localStorage.setItem('fitbit_code_verifier', verifier);
    localStorage.setItem('fitbit_study_code', 'ABC123');
    localStorage.setItem(
      'fitbit_participant_data',
      JSON.stringify({ participantId: 'P0123456789abcdef', email: 'p@example.org' }),
    );
    let releaseExchange: () => void = () => {};
    const exchangeGate = new Promise<void>((resolve) => {
      releaseExchange = resolve;
    });
    const { calls } = installFakeApi({
      'POST /api/data/exchange-fitbit-token': async () => {
        await exchangeGate;
        return {
          body: {
            success: true,
            user_id: '42',
            scope: ALL_SCOPES,
            participantId: 'P0123456789abcdef',
          },
        };
      },
      'POST /api/data/store-tokens': {
        body: { success: true, participantId: 'P0123456789abcdef' },
      },
    });
    renderRoute('/fitbit/callback?code=the-code&state=the-state');
    expect(await screen.findByText('Processing Fitbit authorization...')).toBeTruthy();
    releaseExchange();
    expect(await screen.findByText('Fitbit Connected Successfully!')).toBeTruthy();
    expect(
      screen.getByText('You shared: Activity, Heart & body, Sleep, Profile, Settings.'),
    ).toBeTruthy();
    // In the participant's own tab nothing closes: the page moves on.
    expect(
      screen.getByText('Authorization complete. You will be taken to the next step in a moment.'),
    ).toBeTruthy();
    expect(screen.queryByText(/This window will close/)).toBeNull();
    expect(calls.map((c) => c.path)).toEqual([
      '/api/data/exchange-fitbit-token',
      '/api/data/store-tokens',
    ]);
    expect(calls[0]?.body).toMatchObject({
      code: 'the-code',
      state: 'the-state',
      codeVerifier: verifier,
      studyCode: 'ABC123',
    });
    expect(calls[1]?.body).toEqual({
      participantId: 'P0123456789abcdef',
      participantCode: 'ABC123',
      participantInfo: { userId: '42', fitbitUserId: '42', scope: ALL_SCOPES },
    });
    expect(localStorage.getItem('fitbit_code_verifier')).toBeNull();
  });

  it('after a partial grant names what was not shared, stays, and offers Google’s page again', async () => {
    storeFlow();
    const { calls } = installFakeApi({
      'POST /api/data/exchange-fitbit-token': {
        body: { success: true, user_id: '42', scope: ACTIVITY, participantId: 'P0123456789abcdef' },
      },
      'POST /api/data/store-tokens': {
        body: { success: true, participantId: 'P0123456789abcdef' },
      },
      ...authUrlRoute,
    });
    const { router } = renderRoute('/fitbit/callback?code=the-code&state=the-state', [
      { path: '/participant/info', element: <p>Profile step</p> },
      ...appRoutes,
    ]);
    expect(await screen.findByText('Fitbit Connected — Some Data Not Shared')).toBeTruthy();
    expect(screen.queryByText('Fitbit Connected Successfully!')).toBeNull();
    expect(screen.getByText('You shared: Activity.')).toBeTruthy();
    expect(
      screen.getByText(
        'Not shared: Heart & body, Sleep, Profile, Settings. The study cannot use this kind of data unless you share it.',
      ),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Share the Missing Data' }));
    await waitFor(() => expect(calls.map((c) => c.path)).toContain('/api/fitbit/auth-url'));
    const again = calls.find((c) => c.path === '/api/fitbit/auth-url');
    expect(Object.fromEntries(again?.query ?? [])).toMatchObject({
      participantId: 'P0123456789abcdef',
      email: 'sam@example.org',
      studyCode: 'ABC123',
    });
    // It waited for the person instead of moving on; Continue takes them on.
    expect(router.state.location.pathname).toBe('/fitbit/callback');
    fireEvent.click(screen.getByRole('button', { name: 'Continue Without It' }));
    expect(await screen.findByText('Profile step')).toBeTruthy();
  });
});

describe('/fitbit/callback direct path and popup', () => {
  afterEach(() => {
    localStorage.clear();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    Reflect.deleteProperty(window, 'opener');
  });

  /** Stands in for the window that opened the popup. */
  function fakeOpener() {
    const received: unknown[] = [];
    const opener = {
      closed: false,
      postMessage: (message: unknown, origin: string) => {
        received.push({ message, origin });
      },
    };
    Object.defineProperty(window, 'opener', { value: opener, configurable: true });
    return received;
  }

  it('without a stored verifier uses the callback call, then goes to /participant/info after 3 s', async () => {
    const session = {
      sessionId: 'sess-1',
      participantId: 'P0123456789abcdef',
      studyCode: 'ABC123',
      verified: true,
      expiresAt: '2030-01-01T00:00:00.000Z',
    };
    localStorage.setItem(
      'fitbit_participant_data',
      JSON.stringify({ participantId: 'P0123456789abcdef' }),
    );
    const { calls } = installFakeApi({
      'POST /api/fitbit/callback': {
        body: {
          success: true,
          participantId: 'P0123456789abcdef',
          studyCode: 'ABC123',
          scope: ALL_SCOPES,
          message: 'Wearable account connected.',
          session,
        },
      },
    });
    const started = Date.now();
    // The profile page belongs to the enrolment flows: a stand-in shows where the person lands.
    const { router } = renderRoute('/fitbit/callback?code=c1&state=s1', [
      { path: '/participant/info', element: <p>Profile step</p> },
      ...appRoutes,
    ]);
    expect(await screen.findByText('Fitbit Connected Successfully!')).toBeTruthy();
    expect(calls.map(({ path, body }) => ({ path, body }))).toEqual([
      {
        path: '/api/fitbit/callback',
        body: { code: 'c1', state: 's1', participantId: 'P0123456789abcdef' },
      },
    ]);
    expect(localStorage.getItem('fitbit_participant_data')).toBeNull();
    expect(router.state.location.pathname).toBe('/fitbit/callback');
    await screen.findByText('Profile step', {}, { timeout: 5_000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
    expect(router.state.location.pathname).toBe('/participant/info');
    // The session the server answered goes along for the profile step.
    expect(router.state.location.state).toEqual({
      participantId: 'P0123456789abcdef',
      studyCode: 'ABC123',
      session,
    });
  }, 10_000);

  it('shows the server’s error text when the callback call fails', async () => {
    installFakeApi({
      'POST /api/fitbit/callback': {
        status: 400,
        body: failure('Invalid state parameter', 'INVALID_STATE'),
      },
    });
    renderRoute('/fitbit/callback?code=c1&state=s1');
    expect(await screen.findByText('Authorization Failed')).toBeTruthy();
    expect(screen.getByText('Invalid state parameter')).toBeTruthy();
  });

  it('in a popup posts the success to its opener and closes after 500 ms', async () => {
    const received = fakeOpener();
    const close = vi.spyOn(window, 'close').mockImplementation(() => {});
    installFakeApi({
      'POST /api/fitbit/callback': {
        body: {
          success: true,
          participantId: 'P0123456789abcdef',
          studyCode: 'ABC123',
          scope: ALL_SCOPES,
          message: 'Wearable account connected.',
        },
      },
    });
    const { router } = renderRoute('/fitbit/callback?code=c1&state=s1');
    expect(await screen.findByText('Fitbit Connected Successfully!')).toBeTruthy();
    expect(
      screen.getByText('Authorization complete. This window will close automatically.'),
    ).toBeTruthy();
    expect(received).toEqual([
      {
        message: {
          type: 'FITBIT_AUTH_SUCCESS',
          participantId: 'P0123456789abcdef',
          studyCode: 'ABC123',
          scope: ALL_SCOPES,
        },
        origin: window.location.origin,
      },
    ]);
    expect(close).not.toHaveBeenCalled();
    await waitFor(() => expect(close).toHaveBeenCalledTimes(1), { timeout: 1_500 });
    // A popup never navigates on: its opener carries on.
    expect(router.state.location.pathname).toBe('/fitbit/callback');
  });

  it('in a popup posts the error to its opener, clears the stored flow and closes', async () => {
    const received = fakeOpener();
    const close = vi.spyOn(window, 'close').mockImplementation(() => {});
    localStorage.setItem('fitbit_code_verifier', 'c'.repeat(64));
    renderRoute('/fitbit/callback?error=access_denied&state=s1');
    expect(await screen.findByText(CANCELLED_NO_RETRY)).toBeTruthy();
    expect(received).toEqual([
      {
        message: { type: 'FITBIT_AUTH_ERROR', error: CANCELLED_NO_RETRY },
        origin: window.location.origin,
      },
    ]);
    expect(localStorage.getItem('fitbit_code_verifier')).toBeNull();
    await waitFor(() => expect(close).toHaveBeenCalledTimes(1), { timeout: 1_500 });
  });

  it('in a popup after a partial grant posts the success but stays open to offer the rest', async () => {
    const received = fakeOpener();
    const close = vi.spyOn(window, 'close').mockImplementation(() => {});
    installFakeApi({
      'POST /api/fitbit/callback': {
        body: {
          success: true,
          participantId: 'P0123456789abcdef',
          studyCode: 'ABC123',
          scope: `${ACTIVITY} ${SLEEP}`,
          message: 'Wearable account connected.',
        },
      },
    });
    renderRoute('/fitbit/callback?code=c1&state=s1');
    expect(await screen.findByText('Fitbit Connected — Some Data Not Shared')).toBeTruthy();
    expect(received).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Share the Missing Data' })).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(close).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Close This Window' }));
    expect(close).toHaveBeenCalledTimes(1);
  });
});
