import type { Session, User } from '@supabase/auth-js';

// The session state lives here, apart from the GoTrue client (web/lib/auth-client.ts): /login
// renders from this store while the client's chunk (~25 KB gzip) is still on its way.

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

let snapshot: AuthSnapshot = {
  session: null,
  user: null,
  loading: true,
  recovery: false,
  linkError: null,
};
const listeners = new Set<() => void>();

export function publishAuth(next: Partial<AuthSnapshot>) {
  snapshot = { ...snapshot, ...next };
  for (const listener of listeners) listener();
}

export function subscribeAuth(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function getAuthSnapshot(): AuthSnapshot {
  return snapshot;
}
