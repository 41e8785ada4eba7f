import {
  AUTH_MESSAGES,
  type AuthResponse,
  type AuthUser,
  type authApi,
  type OperationBody,
} from '@research/contracts';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from 'react';
import { ApiError, onSessionExpired } from '../api-client';
import { clearStoredSession, readStoredSession, storeSession } from './session-storage';

/** What finishing Google sign-in needs: the popup's code and state, our binding. */
export type GoogleSignInResult = OperationBody<typeof authApi.googleComplete>;

export type MasterSetupRequest = OperationBody<typeof authApi.setupMaster>;

export interface SecureAuthValue {
  user: AuthUser | null;
  token: string | null;
  isAuthenticated: boolean;
  /** The product's loading flag: true at start, and while signing in, up or with Google. */
  loading: boolean;
  /**
   * True only until the stored session has been verified. Guards wait on this rather than on
   * `loading`, so a sign-in in progress never unmounts the portal that started it.
   */
  initializing: boolean;
  /** Set when an authenticated call found the session gone; the layout sends the user to sign in. */
  sessionExpired: boolean;
  acknowledgeSessionExpired: () => void;
  login: (email: string, password: string) => Promise<AuthUser>;
  register: (email: string, password: string, displayName: string) => Promise<AuthUser>;
  googleSignIn: (result: GoogleSignInResult) => Promise<AuthUser>;
  createMasterAccount: (request: MasterSetupRequest) => Promise<AuthUser>;
  logout: () => Promise<void>;
}

const SecureAuthContext = createContext<SecureAuthValue | null>(null);

interface SessionState {
  token: string | null;
  user: AuthUser | null;
}

const SIGNED_OUT: SessionState = { token: null, user: null };

/** The calls, fetched with their schemas only when one is made (see auth-calls.ts). */
const calls = () => import('./auth-calls');
type AuthCalls = Awaited<ReturnType<typeof calls>>;

/**
 * Auth state. Deliberately plain React and `callOperation` (no TanStack Query): it
 * sits on the landing route, whose JavaScript budget is 150 KB gzip.
 */
export function SecureAuthProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<SessionState>(SIGNED_OUT);
  const [loading, setLoading] = useState(true);
  const [initializing, setInitializing] = useState(true);
  const [sessionExpired, setSessionExpired] = useState(false);

  // Start-up verification: a stored session counts only once the server confirms it.
  useEffect(() => {
    let cancelled = false;
    const stored = readStoredSession();
    const finish = (next: SessionState) => {
      if (cancelled) return;
      setSession(next);
      setLoading(false);
      setInitializing(false);
    };
    if (!stored) {
      finish(SIGNED_OUT);
      return;
    }
    calls()
      .then(({ verifyToken }) => verifyToken(stored.token))
      .then((response) => {
        if (cancelled) return;
        if (response?.success === true && response.user) {
          // The server's copy replaces whatever the browser had kept.
          storeSession({ token: stored.token, user: response.user });
          finish({ token: stored.token, user: response.user });
        } else {
          clearStoredSession();
          finish(SIGNED_OUT);
        }
      })
      .catch(() => {
        if (cancelled) return;
        clearStoredSession();
        finish(SIGNED_OUT);
      });
    return () => {
      cancelled = true;
    };
  }, []);

  useEffect(
    () =>
      onSessionExpired(() => {
        clearStoredSession();
        setSession(SIGNED_OUT);
        setSessionExpired(true);
      }),
    [],
  );

  /** Runs a call that opens a session (sign-in, sign-up, Google, master set-up) and keeps it. */
  const authenticate = useCallback(
    async (call: () => Promise<AuthResponse>, fallback: string): Promise<AuthUser> => {
      setLoading(true);
      try {
        let response: AuthResponse;
        try {
          response = await call();
        } catch (error) {
          throw error instanceof ApiError && error.message ? error : new Error(fallback);
        }
        if (response?.success !== true || typeof response.token !== 'string' || !response.user) {
          throw new Error(AUTH_MESSAGES.invalidResponse);
        }
        const next = { token: response.token, user: response.user };
        storeSession(next);
        setSession(next);
        setSessionExpired(false);
        return next.user;
      } finally {
        setLoading(false);
      }
    },
    [],
  );

  // The ways to open a session, each with the message for a failure the server did not word.
  const signIns = useMemo(() => {
    const via =
      <A extends unknown[]>(
        call: (api: AuthCalls, ...args: A) => Promise<AuthResponse>,
        fallback: string,
      ) =>
      (...args: A) =>
        authenticate(async () => call(await calls(), ...args), fallback);
    return {
      login: via(
        (api, email: string, password: string) => api.login(email, password),
        AUTH_MESSAGES.loginFailed,
      ),
      register: via(
        (api, email: string, password: string, displayName: string) =>
          api.register(email, password, displayName),
        AUTH_MESSAGES.registrationFailed,
      ),
      googleSignIn: via(
        (api, result: GoogleSignInResult) => api.completeGoogleSignIn(result),
        AUTH_MESSAGES.loginFailed,
      ),
      createMasterAccount: via(
        (api, request: MasterSetupRequest) => api.setupMaster(request),
        AUTH_MESSAGES.registrationFailed,
      ),
    };
  }, [authenticate]);

  const logout = useCallback(async () => {
    const token = session.token;
    clearStoredSession();
    setSession(SIGNED_OUT);
    if (!token) return;
    try {
      await (await calls()).logout(token);
    } catch {
      // A failed sign-out is ignored.
    }
  }, [session.token]);

  const acknowledgeSessionExpired = useCallback(() => setSessionExpired(false), []);

  const value = useMemo<SecureAuthValue>(
    () => ({
      user: session.user,
      token: session.token,
      isAuthenticated: session.user !== null && session.token !== null,
      loading,
      initializing,
      sessionExpired,
      acknowledgeSessionExpired,
      ...signIns,
      logout,
    }),
    [session, loading, initializing, sessionExpired, acknowledgeSessionExpired, signIns, logout],
  );

  return <SecureAuthContext.Provider value={value}>{children}</SecureAuthContext.Provider>;
}

export function useSecureAuth(): SecureAuthValue {
  const value = useContext(SecureAuthContext);
  if (!value) {
    throw new Error(AUTH_MESSAGES.useSecureAuthOutsideProvider);
  }
  return value;
}
