import type { Role } from '@contract/roles.ts';

/** Every client route, defined once: components link by name, never by a literal path. */
export const paths = {
  root: '/',
  login: '/login',
  signup: '/signup',
  buyerSignup: '/buyer-signup',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  changePassword: '/account/password',
  /** The step after the password for a user with an authenticator app. */
  twoFactorVerify: '/login/verify',
  admin: '/admin',
  dashboard: '/dashboard',
  buyerDashboard: '/buyer-dashboard',
} as const;

/**
 * The navigation state /login hands to `/` after a password sign-in: `/` then takes a user whose
 * role must use two-factor sign-in, and who has no authenticator app yet, to its enrolment.
 */
export const signedInState = { afterSignIn: true } as const;

/** True for the state /login navigates with (a browser's reload or a plain link has none). */
export function isAfterSignIn(state: unknown): boolean {
  return (state as { afterSignIn?: unknown } | null)?.afterSignIn === true;
}

/** Where `/` sends a signed-in user of each role. */
export const homePathByRole: Record<Role, string> = {
  admin: paths.admin,
  publisher: paths.dashboard,
  buyer: paths.buyerDashboard,
};

/** The area of a role, or the login page for anything else. */
export function homePathFor(role: string | null | undefined): string {
  return role && role in homePathByRole ? homePathByRole[role as Role] : paths.login;
}

/**
 * Every /admin screen's path (sidebar, quick actions, links, and the area's routes: React Router
 * takes a child route's full path).
 */
export const adminPaths = {
  dashboard: paths.admin,
  publishers: `${paths.admin}/publishers`,
  publisher: (id: string) => `${paths.admin}/publishers/${encodeURIComponent(id)}`,
  /** The route pattern of `publisher(id)`. */
  publisherPattern: `${paths.admin}/publishers/:id`,
  buyers: `${paths.admin}/buyers`,
  offers: `${paths.admin}/offers`,
  applications: `${paths.admin}/applications`,
  compliance: `${paths.admin}/compliance`,
  campaigns: `${paths.admin}/campaigns`,
  returns: `${paths.admin}/returns`,
  leads: `${paths.admin}/leads`,
  live: `${paths.admin}/live`,
  lead: (id: string) => `${paths.admin}/leads/${encodeURIComponent(id)}`,
  /** The route pattern of `lead(id)`. */
  leadPattern: `${paths.admin}/leads/:id`,
  disputes: `${paths.admin}/disputes`,
  leadImport: `${paths.admin}/leads/import`,
  payouts: `${paths.admin}/payouts`,
  reports: `${paths.admin}/reports`,
  integrations: `${paths.admin}/integrations`,
  trackingNumbers: `${paths.admin}/tracking-numbers`,
  signatures: `${paths.admin}/signatures`,
  webhooks: `${paths.admin}/webhooks`,
  fraud: `${paths.admin}/fraud`,
  settings: `${paths.admin}/settings`,
  apiKeys: `${paths.admin}/api-keys`,
} as const;

/** Every screen of the publisher area (under /dashboard). */
export const publisherPaths = {
  overview: paths.dashboard,
  offers: `${paths.dashboard}/offers`,
  leads: `${paths.dashboard}/leads`,
  lead: (id: string) => `${paths.dashboard}/leads/${encodeURIComponent(id)}`,
  /** The route pattern of `lead(id)`. */
  leadPattern: `${paths.dashboard}/leads/:id`,
  payouts: `${paths.dashboard}/payouts`,
  profile: `${paths.dashboard}/profile`,
  reports: `${paths.dashboard}/reports`,
  documents: `${paths.dashboard}/documents`,
  document: (id: string) => `${paths.dashboard}/documents/${encodeURIComponent(id)}`,
  /** The route pattern of `document(id)`: read and sign a document (issue 33). */
  documentPattern: `${paths.dashboard}/documents/:id`,
  ios: `${paths.dashboard}/ios`,
  postbacks: `${paths.dashboard}/postbacks`,
  apiKeys: `${paths.dashboard}/api-keys`,
} as const;

/** Every screen of the buyer area (under /buyer-dashboard). */
export const buyerPaths = {
  dashboard: paths.buyerDashboard,
  campaigns: `${paths.buyerDashboard}/campaigns`,
  calls: `${paths.buyerDashboard}/calls`,
  billing: `${paths.buyerDashboard}/billing`,
  apiKeys: `${paths.buyerDashboard}/api-keys`,
} as const;

/** Profile → API keys: the same screen inside each role's area. */
export const apiKeysPathByRole: Record<Role, string> = {
  admin: adminPaths.apiKeys,
  publisher: publisherPaths.apiKeys,
  buyer: buyerPaths.apiKeys,
};
