import { GoTrueClient, isAuthImplicitGrantRedirectError } from '@supabase/auth-js';
import { getAuthSnapshot, publishAuth } from './auth-store.ts';

// Not in what /login downloads first: web/lib/auth.tsx fetches this module with a dynamic
// import as soon as the app starts (the form shows meanwhile; a submit waits for it). The
// two-factor screens, lazy themselves, import it directly.

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

// A recovery link lands with `#…type=recovery`: stay "loading" until the client has told us,
// so the reset screen never flashes its "invalid link" text before PASSWORD_RECOVERY arrives.
const openedFromRecoveryLink = /(^|[#&?])type=recovery(&|$)/.test(
  `${window.location.hash}&${window.location.search}`,
);

let initialSessionSeen = false;
let initializeDone = false;

function settleLoading() {
  const snapshot = getAuthSnapshot();
  if (!snapshot.loading || !initialSessionSeen) return;
  if (openedFromRecoveryLink && !snapshot.recovery && !initializeDone) return;
  publishAuth({ loading: false });
}

// Subscribed right after the client is made (the constructor starts initialize()): the client
// emits PASSWORD_RECOVERY once, right after it reads the URL, and a later subscriber would only
// see INITIAL_SESSION.
authClient.onAuthStateChange((event, session) => {
  const current = getAuthSnapshot().recovery;
  const recovery = event === 'PASSWORD_RECOVERY' ? true : event === 'SIGNED_OUT' ? false : current;
  if (event === 'INITIAL_SESSION') initialSessionSeen = true;
  publishAuth({ session, user: session?.user ?? null, recovery });
  if (event === 'PASSWORD_RECOVERY') initialSessionSeen = true;
  settleLoading();
});

void authClient.initialize().then(({ error }) => {
  if (error && isAuthImplicitGrantRedirectError(error)) {
    // The link was used or has expired; drop the error fragment so a reload is clean.
    publishAuth({ linkError: error.message || 'This link is invalid or has expired.' });
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
  }
  // PASSWORD_RECOVERY is emitted in a timer right after initialize(); give it that tick.
  setTimeout(() => {
    initializeDone = true;
    settleLoading();
  }, 50);
});
