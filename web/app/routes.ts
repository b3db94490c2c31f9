import type { Role } from '../../contract/roles.ts';

/** Every client route, defined once. */
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
