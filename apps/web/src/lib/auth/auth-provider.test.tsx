import { AUTH_MESSAGES, AUTH_STORAGE_KEYS } from '@research/contracts';
import { act, render, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { failure, installFakeApi, makeUser, storeSession, TEST_TOKEN } from '../../test/fake-api';
import { apiRequest } from '../api-client';
import { SecureAuthProvider, useSecureAuth } from './auth-provider';

function wrapper({ children }: { children: ReactNode }) {
  return <SecureAuthProvider>{children}</SecureAuthProvider>;
}

function renderAuth() {
  return renderHook(() => useSecureAuth(), { wrapper });
}

const stored = () => ({
  token: sessionStorage.getItem(AUTH_STORAGE_KEYS.token),
  user: sessionStorage.getItem(AUTH_STORAGE_KEYS.user),
});

describe('SecureAuthProvider start-up verification', () => {
  it('starts loading, then signs in with the server copy of a valid stored session', async () => {
    storeSession(makeUser({ displayName: 'Old Name' }));
    const serverUser = makeUser({ displayName: 'Ada From Server' });
    const { calls } = installFakeApi({
      'POST /api/auth/verify-token': { body: { success: true, user: serverUser } },
    });
    const { result } = renderAuth();
    expect(result.current.loading).toBe(true);
    expect(result.current.user).toBeNull();
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.user).toEqual(serverUser);
    expect(result.current.isAuthenticated).toBe(true);
    expect(result.current.token).toBe(TEST_TOKEN);
    expect(calls[0]).toMatchObject({ body: { token: TEST_TOKEN }, authorization: null });
    expect(JSON.parse(stored().user ?? 'null')).toEqual(serverUser);
  });

  it('clears both entries when the server rejects the session', async () => {
    storeSession();
    installFakeApi({
      'POST /api/auth/verify-token': {
        status: 401,
        body: failure('Your session has expired', 'SESSION_EXPIRED'),
      },
    });
    const { result } = renderAuth();
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.user).toBeNull();
    expect(stored()).toEqual({ token: null, user: null });
  });

  it('clears both entries when verification answers without a user', async () => {
    storeSession();
    installFakeApi({
      'POST /api/auth/verify-token': { body: { success: true }, offContract: true },
    });
    const { result } = renderAuth();
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.user).toBeNull();
    expect(stored()).toEqual({ token: null, user: null });
  });

  it('clears unparsable storage without calling the server', async () => {
    sessionStorage.setItem(AUTH_STORAGE_KEYS.token, TEST_TOKEN);
    sessionStorage.setItem(AUTH_STORAGE_KEYS.user, '{not json');
    const { calls } = installFakeApi({});
    const { result } = renderAuth();
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.user).toBeNull();
    expect(calls).toHaveLength(0);
    expect(stored()).toEqual({ token: null, user: null });
  });

  it('clears a half session (token without user)', async () => {
    sessionStorage.setItem(AUTH_STORAGE_KEYS.token, TEST_TOKEN);
    installFakeApi({});
    const { result } = renderAuth();
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(stored()).toEqual({ token: null, user: null });
  });

  it('ends loading signed out when nothing is stored', async () => {
    const { calls } = installFakeApi({});
    const { result } = renderAuth();
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.user).toBeNull();
    expect(result.current.initializing).toBe(false);
    expect(calls).toHaveLength(0);
  });
});

describe('SecureAuthProvider actions', () => {
  it('login stores token and user', async () => {
    const user = makeUser();
    const { calls } = installFakeApi({
      'POST /api/auth/login': {
        body: { success: true, token: 'new-token-abcdefghijkl', user, message: 'Welcome' },
      },
    });
    const { result } = renderAuth();
    await waitFor(() => expect(result.current.loading).toBe(false));
    await act(() => result.current.login('ada@example.test', 'secret1'));
    expect(result.current.user).toEqual(user);
    expect(stored().token).toBe('new-token-abcdefghijkl');
    expect(JSON.parse(stored().user ?? 'null')).toEqual(user);
    expect(calls.at(-1)).toMatchObject({
      body: { email: 'ada@example.test', password: 'secret1' },
    });
  });

  it("rejects a success without token as 'Invalid response from server'", async () => {
    installFakeApi({
      'POST /api/auth/login': {
        body: { success: true, user: makeUser(), message: 'ok' },
        offContract: true,
      },
    });
    const { result } = renderAuth();
    await waitFor(() => expect(result.current.loading).toBe(false));
    await expect(result.current.login('a@b.test', 'secret1')).rejects.toThrow(
      AUTH_MESSAGES.invalidResponse,
    );
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.user).toBeNull();
    expect(stored().token).toBeNull();
  });

  it('rethrows the server message of a failed login', async () => {
    installFakeApi({
      'POST /api/auth/login': {
        status: 401,
        body: failure('Invalid email or password', 'INVALID_CREDENTIALS'),
      },
    });
    const { result } = renderAuth();
    await waitFor(() => expect(result.current.loading).toBe(false));
    await expect(result.current.login('a@b.test', 'wrong-pw')).rejects.toThrow(
      'Invalid email or password',
    );
  });

  it('logout clears storage even when the server call fails', async () => {
    storeSession();
    const { calls } = installFakeApi({
      'POST /api/auth/verify-token': { body: { success: true, user: makeUser() } },
      'POST /api/auth/logout': { status: 400, body: failure('Nope', 'BAD_REQUEST') },
    });
    const { result } = renderAuth();
    await waitFor(() => expect(result.current.user).not.toBeNull());
    await act(() => result.current.logout());
    expect(result.current.user).toBeNull();
    expect(stored()).toEqual({ token: null, user: null });
    expect(calls.at(-1)).toMatchObject({
      path: '/api/auth/logout',
      authorization: `Bearer ${TEST_TOKEN}`,
    });
  });

  it('signs out when an authenticated call finds the session expired', async () => {
    storeSession();
    installFakeApi({
      'POST /api/auth/verify-token': { body: { success: true, user: makeUser() } },
      'GET /api/auth/profile': {
        status: 401,
        body: failure('Your session has expired', 'SESSION_EXPIRED'),
      },
    });
    const { result } = renderAuth();
    await waitFor(() => expect(result.current.user).not.toBeNull());
    await act(async () => {
      await apiRequest('/api/auth/profile').catch(() => undefined);
    });
    expect(result.current.user).toBeNull();
    expect(result.current.sessionExpired).toBe(true);
    expect(stored()).toEqual({ token: null, user: null });
  });
});

describe('useSecureAuth outside its provider', () => {
  it('throws the product’s text', () => {
    function Orphan() {
      useSecureAuth();
      return null;
    }
    const silence = console.error;
    console.error = () => {};
    try {
      expect(() => render(<Orphan />)).toThrow(
        'useSecureAuth must be used within a SecureAuthProvider',
      );
    } finally {
      console.error = silence;
    }
  });
});
