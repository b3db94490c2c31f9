import type { AuthError, GoTrueClient, Session } from '@supabase/auth-js';
import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useSyncExternalStore,
} from 'react';
import { setAccessTokenSource } from './api-client.ts';
import { type AuthSnapshot, getAuthSnapshot, subscribeAuth } from './auth-store.ts';

export type { AuthSnapshot } from './auth-store.ts';

let clientPromise: Promise<GoTrueClient> | undefined;

/**
 * The GoTrue client (web/lib/auth-client.ts), from a chunk of its own: @supabase/auth-js is
 * ~25 KB gzip that the login form does not need to show. Fetched as soon as the app starts, so
 * it is there long before a user has typed a password; a failed fetch is tried again on the
 * next call.
 */
export function loadAuthClient(): Promise<GoTrueClient> {
  clientPromise ??= import('./auth-client.ts').then(
    (m) => m.authClient,
    (err: unknown) => {
      clientPromise = undefined;
      throw err;
    },
  );
  return clientPromise;
}

// Started now, not on first use: the stored session (or the one in the URL) is read at once.
loadAuthClient().catch(() => {
  // Offline at start: the next auth action or API call tries again.
});

// Every /api/v1 call carries the current access token (refreshed first when close to expiry).
setAccessTokenSource(async () => {
  const { data } = await (await loadAuthClient()).getSession();
  return data.session?.access_token ?? null;
});

export type SignUpInput = {
  email: string;
  password: string;
  /** Sign-up metadata; becomes the user's profile on the server. */
  data: Record<string, string>;
  /** Where the confirmation link lands (buyers confirm by e-mail). */
  emailRedirectTo?: string;
};

export type AuthResult = { error: AuthError | null };

export type AuthContextValue = AuthSnapshot & {
  signIn: (email: string, password: string) => Promise<AuthResult & { session: Session | null }>;
  signUp: (input: SignUpInput) => Promise<AuthResult & { session: Session | null }>;
  signOut: (scope?: 'global' | 'local') => Promise<AuthResult>;
  resetPasswordForEmail: (email: string) => Promise<AuthResult>;
  updatePassword: (password: string, nonce?: string) => Promise<AuthResult>;
  /** Mails the code a password change on an older session needs (GET /auth/v1/reauthenticate). */
  reauthenticate: () => Promise<AuthResult>;
  /** Mails the sign-up confirmation link again (POST /auth/v1/resend). */
  resendConfirmation: (email: string) => Promise<AuthResult>;
};

const AuthContext = createContext<AuthContextValue | null>(null);

const actions = {
  async signIn(email: string, password: string) {
    const { data, error } = await (await loadAuthClient()).signInWithPassword({ email, password });
    return { error, session: data.session };
  },
  async signUp(input: SignUpInput) {
    const { data, error } = await (await loadAuthClient()).signUp({
      email: input.email,
      password: input.password,
      options: { data: input.data, emailRedirectTo: input.emailRedirectTo },
    });
    return { error, session: data.session };
  },
  async signOut(scope: 'global' | 'local' = 'global'): Promise<AuthResult> {
    const { error } = await (await loadAuthClient()).signOut({ scope });
    return { error };
  },
  async resetPasswordForEmail(email: string): Promise<AuthResult> {
    const { error } = await (await loadAuthClient()).resetPasswordForEmail(email, {
      redirectTo: `${window.location.origin}/reset-password`,
    });
    return { error };
  },
  async updatePassword(password: string, nonce?: string): Promise<AuthResult> {
    const { error } = await (await loadAuthClient()).updateUser(
      nonce ? { password, nonce } : { password },
    );
    return { error };
  },
  async reauthenticate(): Promise<AuthResult> {
    const { error } = await (await loadAuthClient()).reauthenticate();
    return { error };
  },
  async resendConfirmation(email: string): Promise<AuthResult> {
    const { error } = await (await loadAuthClient()).resend({
      type: 'signup',
      email,
      options: { emailRedirectTo: `${window.location.origin}/login` },
    });
    return { error };
  },
};

/** Makes the session state and the auth actions available to the whole app. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const state = useSyncExternalStore(subscribeAuth, getAuthSnapshot, getAuthSnapshot);
  const queryClient = useQueryClient();
  const userId = state.user?.id ?? null;

  // Cached answers belong to the user who asked: on sign-out or a switch of user, drop them
  // (the public branding stays).
  const previousUserId = useRef<string | null>(null);
  useEffect(() => {
    if (previousUserId.current && previousUserId.current !== userId) {
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'public-settings' });
    }
    previousUserId.current = userId;
  }, [userId, queryClient]);

  const value = useMemo<AuthContextValue>(() => ({ ...state, ...actions }), [state]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/** The session layer: user, session, loading, recovery and the auth actions. */
export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used inside <AuthProvider>');
  return ctx;
}
