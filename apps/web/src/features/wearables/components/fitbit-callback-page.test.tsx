import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appRoutes } from '../../../app/router';
import { failure, installFakeApi } from '../../../test/fake-api';
import { renderRoute } from '../../../test/render-route';

describe('/fitbit/callback failures', () => {
  afterEach(() => {
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('shows Google’s refusal with the failure texts and clears the stored flow', async () => {
    localStorage.setItem('fitbit_code_verifier', 'a'.repeat(64));
    localStorage.setItem('fitbit_study_code', 'ABC123');
    renderRoute('/fitbit/callback?error=access_denied&state=s');
    expect(await screen.findByText('Authorization Failed')).toBeTruthy();
    expect(screen.getByText('There was an issue connecting your Fitbit device.')).toBeTruthy();
    expect(screen.getByText('Fitbit authorization failed: access_denied')).toBeTruthy();
    expect(localStorage.getItem('fitbit_code_verifier')).toBeNull();
    expect(localStorage.getItem('fitbit_study_code')).toBeNull();
  });

  it('needs both code and state', async () => {
    renderRoute('/fitbit/callback?code=abc');
    expect(await screen.findByText('Missing authorization code or state parameter')).toBeTruthy();
  });

  it('says when a PKCE flow lost its verifier', async () => {
    localStorage.setItem('fitbit_study_code', 'ABC123');
    localStorage.setItem('fitbit_participant_data', JSON.stringify({ participantId: 'P1' }));
    renderRoute('/fitbit/callback?code=abc&state=s');
    expect(
      await screen.findByText(
        'Missing PKCE code verifier. OAuth flow may not have been initiated properly.',
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
            scope: 'sleep',
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
      screen.getByText('Authorization complete. This window will close automatically.'),
    ).toBeTruthy();
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
      participantInfo: { userId: '42', fitbitUserId: '42', scope: 'sleep' },
    });
    expect(localStorage.getItem('fitbit_code_verifier')).toBeNull();
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
          scope: 'sleep',
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
          scope: 's',
          message: 'Wearable account connected.',
        },
      },
    });
    const { router } = renderRoute('/fitbit/callback?code=c1&state=s1');
    expect(await screen.findByText('Fitbit Connected Successfully!')).toBeTruthy();
    expect(received).toEqual([
      {
        message: {
          type: 'FITBIT_AUTH_SUCCESS',
          participantId: 'P0123456789abcdef',
          studyCode: 'ABC123',
          scope: 's',
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
    expect(await screen.findByText('Fitbit authorization failed: access_denied')).toBeTruthy();
    expect(received).toEqual([
      {
        message: { type: 'FITBIT_AUTH_ERROR', error: 'Fitbit authorization failed: access_denied' },
        origin: window.location.origin,
      },
    ]);
    expect(localStorage.getItem('fitbit_code_verifier')).toBeNull();
    await waitFor(() => expect(close).toHaveBeenCalledTimes(1), { timeout: 1_500 });
  });
});
