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
  admin: '/admin',
  dashboard: '/dashboard',
  buyerDashboard: '/buyer-dashboard',
} as const;

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
  leads: `${paths.admin}/leads`,
  payouts: `${paths.admin}/payouts`,
  integrations: `${paths.admin}/integrations`,
  settings: `${paths.admin}/settings`,
} as const;

/** Every screen of the publisher area (under /dashboard). */
export const publisherPaths = {
  overview: paths.dashboard,
  offers: `${paths.dashboard}/offers`,
  leads: `${paths.dashboard}/leads`,
  payouts: `${paths.dashboard}/payouts`,
  documents: `${paths.dashboard}/documents`,
  ios: `${paths.dashboard}/ios`,
} as const;

/** Every screen of the buyer area (under /buyer-dashboard). */
export const buyerPaths = {
  dashboard: paths.buyerDashboard,
  campaigns: `${paths.buyerDashboard}/campaigns`,
} as const;
