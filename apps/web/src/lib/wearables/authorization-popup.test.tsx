import { GOOGLE_HEALTH_READ_SCOPES } from '@research/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openAuthorizationPopup } from './authorization-popup';

/** A popup window as far as the helper looks at it. */
function fakePopup() {
  return { closed: false, close: vi.fn(), location: { href: '' } };
}

function post(data: unknown, origin = window.location.origin) {
  window.dispatchEvent(new MessageEvent('message', { data, origin }));
}

const ALL = GOOGLE_HEALTH_READ_SCOPES.join(' ');

describe('openAuthorizationPopup', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('opens 600×700 and says when the browser blocked it', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    await expect(openAuthorizationPopup('https://accounts.example/auth')).rejects.toThrow(
      'Popup blocked. Please allow popups for this site and try again.',
    );
    expect(open.mock.calls[0]?.[2]).toContain('width=600,height=700');
  });

  it('sends the popup to the URL once it arrives, and resolves 500 ms after a same-origin success', async () => {
    const popup = fakePopup();
    vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    const outcome = openAuthorizationPopup(Promise.resolve('https://accounts.example/auth'));
    await vi.advanceTimersByTimeAsync(0);
    expect(popup.location.href).toBe('https://accounts.example/auth');
    // Another origin is not our callback page: ignored.
    post({ type: 'FITBIT_AUTH_SUCCESS', participantId: 'Pevil' }, 'https://evil.example');
    post({ type: 'FITBIT_AUTH_SUCCESS', participantId: 'P1', studyCode: 'ABC123', scope: ALL });
    let settled = false;
    void outcome.then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(499);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(outcome).resolves.toEqual({
      participantId: 'P1',
      studyCode: 'ABC123',
      scope: ALL,
    });
    expect(popup.close).toHaveBeenCalled();
  });

  it('resolves on a partial grant but leaves the popup open, where the person can share the rest', async () => {
    const popup = fakePopup();
    vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    const outcome = openAuthorizationPopup('u');
    post({
      type: 'FITBIT_AUTH_SUCCESS',
      participantId: 'P1',
      studyCode: 'ABC123',
      scope: GOOGLE_HEALTH_READ_SCOPES[0],
    });
    await vi.advanceTimersByTimeAsync(500);
    await expect(outcome).resolves.toMatchObject({ participantId: 'P1' });
    expect(popup.close).not.toHaveBeenCalled();
  });

  it('rejects with the error the callback posts, or the default', async () => {
    vi.spyOn(window, 'open').mockReturnValue(fakePopup() as unknown as Window);
    const first = openAuthorizationPopup('u');
    post({ type: 'FITBIT_AUTH_ERROR', error: 'Invalid state parameter' });
    await expect(first).rejects.toThrow('Invalid state parameter');
    const second = openAuthorizationPopup('u');
    post({ type: 'FITBIT_AUTH_ERROR' });
    await expect(second).rejects.toThrow('Authorization failed');
  });

  it('checks every 3 s whether the person closed it', async () => {
    const popup = fakePopup();
    vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    const outcome = openAuthorizationPopup('u');
    const seen = outcome.catch((error: Error) => error.message);
    popup.closed = true;
    await vi.advanceTimersByTimeAsync(2_999);
    await vi.advanceTimersByTimeAsync(1);
    expect(await seen).toBe('Authorization cancelled by user');
  });
});
