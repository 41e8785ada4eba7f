import { AUTH_MESSAGES, type AuthUser, type UserProfile } from '@research/contracts';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from 'react';
import { useSecureAuth } from './auth-provider';

export interface UserValue {
  profile: UserProfile | null;
  /** True while auth is loading and until the profile of the current user has loaded. */
  loading: boolean;
  /** Kept when loading failed. */
  error: string | null;
  refresh: () => void;
}

const UserContext = createContext<UserValue | null>(null);

interface LoadedProfile {
  /** Whose profile this is; a different signed-in user means it is stale. */
  userKey: string;
  profile: UserProfile | null;
  error: string | null;
}

/**
 * Profile state: loads when the signed-in user changes, can be refreshed. Plain
 * React rather than TanStack Query for the same reason as the auth provider: it is on the
 * landing route and must stay tiny.
 */
export function UserProvider({ children }: { children: ReactNode }) {
  const { user, token, initializing } = useSecureAuth();
  const [generation, setGeneration] = useState(0);
  const [loaded, setLoaded] = useState<LoadedProfile | null>(null);
  const userKey = user ? `${userIdOf(user)}|${token ?? ''}` : null;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the user key stands for user and token.
  useEffect(() => {
    if (initializing || !user || userKey === null) return;
    let cancelled = false;
    loadProfile(user, token).then((result) => {
      if (!cancelled) setLoaded({ userKey, ...result });
    });
    return () => {
      cancelled = true;
    };
  }, [initializing, userKey, generation]);

  const refresh = useCallback(() => setGeneration((g) => g + 1), []);

  // Derived rather than stored, so no render ever shows another user's profile. A refresh keeps
  // the current profile on screen until the new one arrives (guards do not flash a spinner).
  const current = loaded !== null && loaded.userKey === userKey ? loaded : null;
  const loading = initializing || (user !== null && current === null);

  const value = useMemo<UserValue>(
    () => ({
      profile: user && current ? current.profile : null,
      loading,
      error: user && current ? current.error : null,
      refresh,
    }),
    [user, current, loading, refresh],
  );
  return <UserContext.Provider value={value}>{children}</UserContext.Provider>;
}

export function useUser(): UserValue {
  const value = useContext(UserContext);
  if (!value) {
    throw new Error(AUTH_MESSAGES.useUserOutsideProvider);
  }
  return value;
}

function userIdOf(user: AuthUser): string {
  return user.id || user.uid || user.email;
}

function splitDisplayName(displayName: string | null | undefined): {
  firstName: string;
  lastName: string;
} {
  const [firstName = '', ...rest] = (displayName ?? '').trim().split(/\s+/);
  return { firstName, lastName: rest.join(' ') };
}

/** The profile of a signed-in user the server has none for. */
export function fallbackProfile(user: AuthUser): UserProfile {
  return {
    id: userIdOf(user),
    email: user.email,
    ...splitDisplayName(user.displayName),
    role: 'researcher',
    status: 'noprofile',
    institution: null,
    department: null,
    position: null,
    approvedAt: null,
    isMasterAccount: false,
    // Unknown here; the server still enforces confirmation, so no notice is shown on a guess.
    emailVerified: true,
  };
}

export function masterProfile(user: AuthUser): UserProfile {
  return {
    id: 'master',
    email: user.email,
    ...splitDisplayName(user.displayName),
    role: 'master',
    status: 'approved',
    institution: null,
    department: null,
    position: null,
    approvedAt: null,
    isMasterAccount: true,
    emailVerified: true,
  };
}

/** Master check first (a failure is ignored), then the profile, then the fallbacks. */
async function loadProfile(
  user: AuthUser,
  token: string | null,
): Promise<{ profile: UserProfile | null; error: string | null }> {
  if (!token) {
    return { profile: null, error: AUTH_MESSAGES.noAuthToken };
  }
  try {
    const master = await (await import('./auth-calls')).checkMasterStatus(token);
    if (master?.success === true && master.isMasterAccount === true) {
      return { profile: masterProfile(user), error: null };
    }
  } catch {
    // Ignored: the profile call below still tells a researcher apart.
  }
  try {
    const response = await (await import('./auth-calls')).getProfile(token);
    if (response?.success === true && response.researcher) {
      return { profile: response.researcher, error: null };
    }
    return { profile: fallbackProfile(user), error: null };
  } catch (error) {
    const message =
      error instanceof Error && error.message ? error.message : AUTH_MESSAGES.profileLoadFailed;
    return { profile: fallbackProfile(user), error: message };
  }
}
