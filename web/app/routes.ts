/** Every client route, defined once. */
export const paths = {
  root: '/',
  login: '/login',
  signup: '/signup',
  buyerSignup: '/buyer-signup',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  admin: '/admin',
  dashboard: '/dashboard',
  buyerDashboard: '/buyer-dashboard',
} as const;
