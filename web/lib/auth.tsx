import {
  type AuthError,
  GoTrueClient,
  isAuthImplicitGrantRedirectError,
  type Session,
  type User,
} from '@supabase/auth-js';
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

/** The one GoTrue client of the app, talking to our own /auth/v1 on the same origin. */
export const authClient = new GoTrueClient({
  url: `${window.location.origin}/auth/v1`,
  headers: { apikey: 'public-anon-key' },
  flowType: 'implicit',
  detectSessionInUrl: true,
  autoRefreshToken: true,
  persistSession: true,
  storageKey: 'portal-auth',
});

/** What the session layer knows at a moment; replaced (never mutated) on every change. */
export type AuthSnapshot = {
  session: Session | null;
  user: User | null;
  /** True until the stored session (or the one in the URL) has been read. */
  loading: boolean;
  /** True after a PASSWORD_RECOVERY event, until sign-out. */
  recovery: boolean;
  /** The message of a bad e-mail link (used or expired), if the page was opened from one. */
  linkError: string | null;
};

// A recovery link lands with `#…type=recovery`: stay "loading" until the client has told us,
// so the reset screen never flashes its "invalid link" text before PASSWORD_RECOVERY arrives.
const openedFromRecoveryLink = /(^|[#&?])type=recovery(&|$)/.test(
  `${window.location.hash}&${window.location.search}`,
);

let snapshot: AuthSnapshot = {
  session: null,
  user: null,
  loading: true,
  recovery: false,
  linkError: null,
};
let initialSessionSeen = false;
let initializeDone = false;
const listeners = new Set<() => void>();

function publish(next: Partial<AuthSnapshot>) {
  snapshot = { ...snapshot, ...next };
  for (const listener of listeners) listener();
}

function settleLoading() {
  if (!snapshot.loading || !initialSessionSeen) return;
  if (openedFromRecoveryLink && !snapshot.recovery && !initializeDone) return;
  publish({ loading: false });
}

// Subscribed at module load, before React renders: the client emits PASSWORD_RECOVERY once,
// right after it reads the URL, and a later subscriber would only see INITIAL_SESSION.
authClient.onAuthStateChange((event, session) => {
  const recovery =
    event === 'PASSWORD_RECOVERY' ? true : event === 'SIGNED_OUT' ? false : snapshot.recovery;
  if (event === 'INITIAL_SESSION') initialSessionSeen = true;
  publish({ session, user: session?.user ?? null, recovery });
  if (event === 'PASSWORD_RECOVERY') initialSessionSeen = true;
  settleLoading();
});

void authClient.initialize().then(({ error }) => {
  if (error && isAuthImplicitGrantRedirectError(error)) {
    // The link was used or has expired; drop the error fragment so a reload is clean.
    publish({ linkError: error.message || 'This link is invalid or has expired.' });
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
  }
  // PASSWORD_RECOVERY is emitted in a timer right after initialize(); give it that tick.
  setTimeout(() => {
    initializeDone = true;
    settleLoading();
  }, 50);
});

// Every /api/v1 call carries the current access token (refreshed first when close to expiry).
setAccessTokenSource(async () => {
  const { data } = await authClient.getSession();
  return data.session?.access_token ?? null;
});

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function getSnapshot() {
  return snapshot;
}

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
  signIn: (email: string, password: string) => Promise<AuthResult>;
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
  async signIn(email: string, password: string): Promise<AuthResult> {
    const { error } = await authClient.signInWithPassword({ email, password });
    return { error };
  },
  async signUp(input: SignUpInput) {
    const { data, error } = await authClient.signUp({
      email: input.email,
      password: input.password,
      options: { data: input.data, emailRedirectTo: input.emailRedirectTo },
    });
    return { error, session: data.session };
  },
  async signOut(scope: 'global' | 'local' = 'global'): Promise<AuthResult> {
    const { error } = await authClient.signOut({ scope });
    return { error };
  },
  async resetPasswordForEmail(email: string): Promise<AuthResult> {
    const { error } = await authClient.resetPasswordForEmail(email, {
      redirectTo: `${window.location.origin}/reset-password`,
    });
    return { error };
  },
  async updatePassword(password: string, nonce?: string): Promise<AuthResult> {
    const { error } = await authClient.updateUser(nonce ? { password, nonce } : { password });
    return { error };
  },
  async reauthenticate(): Promise<AuthResult> {
    const { error } = await authClient.reauthenticate();
    return { error };
  },
  async resendConfirmation(email: string): Promise<AuthResult> {
    const { error } = await authClient.resend({
      type: 'signup',
      email,
      options: { emailRedirectTo: `${window.location.origin}/login` },
    });
    return { error };
  },
};

/** Makes the session state and the auth actions available to the whole app. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const state = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
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
