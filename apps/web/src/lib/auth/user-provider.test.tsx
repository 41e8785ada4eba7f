import { AUTH_MESSAGES } from '@research/contracts';
import { render, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import {
  failure,
  installAccount,
  installFakeApi,
  makeProfile,
  makeUser,
  storeSession,
} from '../../test/fake-api';
import { SecureAuthProvider } from './auth-provider';
import { UserProvider, useUser } from './user-provider';

function wrapper({ children }: { children: ReactNode }) {
  return (
    <SecureAuthProvider>
      <UserProvider>{children}</UserProvider>
    </SecureAuthProvider>
  );
}

const renderUser = () => renderHook(() => useUser(), { wrapper });

describe('UserProvider', () => {
  it('has no profile when signed out', async () => {
    installFakeApi({});
    const { result } = renderUser();
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.profile).toBeNull();
    expect(result.current.error).toBeNull();
  });

  it('loads the researcher profile, master check first', async () => {
    const { calls } = installAccount('pending');
    const { result } = renderUser();
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.profile).toMatchObject({ status: 'pending', role: 'researcher' });
    const paths = calls.map((c) => c.path);
    expect(paths.indexOf('/api/admin/check-master-status')).toBeLessThan(
      paths.indexOf('/api/auth/profile'),
    );
  });

  it("builds the master profile: id 'master', names from the display name", async () => {
    installAccount('master');
    const { result } = renderUser();
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.profile).toMatchObject({
      id: 'master',
      role: 'master',
      firstName: 'Grace',
      lastName: 'Hopper',
      isMasterAccount: true,
    });
  });

  it('ignores a failed master check and still loads the profile', async () => {
    installAccount('approved', {
      'GET /api/admin/check-master-status': { status: 403, body: failure('No', 'FORBIDDEN') },
    });
    const { result } = renderUser();
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.profile?.status).toBe('approved');
    expect(result.current.error).toBeNull();
  });

  it('falls back to a noprofile researcher and keeps the message when the profile call fails', async () => {
    installAccount('approved', {
      'GET /api/auth/profile': { status: 400, body: failure('Profile broke', 'BAD_REQUEST') },
    });
    const { result } = renderUser();
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.profile).toEqual(
      makeProfile({ firstName: 'Ada', lastName: 'Lovelace King', status: 'noprofile' }),
    );
    expect(result.current.error).toBe('Profile broke');
  });

  it('falls back without a message when the answer has no researcher', async () => {
    installAccount('approved', {
      'GET /api/auth/profile': { body: { success: false }, offContract: true },
    });
    const { result } = renderUser();
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.profile?.status).toBe('noprofile');
    expect(result.current.error).toBeNull();
  });

  it('refresh() loads the profile again', async () => {
    let status: 'noprofile' | 'pending' = 'noprofile';
    storeSession();
    installFakeApi({
      'POST /api/auth/verify-token': { body: { success: true, user: makeUser() } },
      'GET /api/admin/check-master-status': { body: { success: true, isMasterAccount: false } },
      'GET /api/auth/profile': () => ({
        body: { success: true, researcher: makeProfile({ status }) },
      }),
    });
    const { result } = renderUser();
    await waitFor(() => expect(result.current.profile?.status).toBe('noprofile'));
    status = 'pending';
    result.current.refresh();
    await waitFor(() => expect(result.current.profile?.status).toBe('pending'));
  });

  it('throws the product’s text outside its provider', () => {
    function Orphan() {
      useUser();
      return null;
    }
    const silence = console.error;
    console.error = () => {};
    try {
      expect(() => render(<Orphan />)).toThrow(AUTH_MESSAGES.useUserOutsideProvider);
    } finally {
      console.error = silence;
    }
  });
});
