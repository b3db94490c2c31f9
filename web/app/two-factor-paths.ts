/**
 * Profile → Two-factor sign-in and its enrolment screen (issue 17). Apart from routes.ts: only
 * lazy code links here, so /login does not download them.
 */
export const twoFactorPaths = {
  settings: '/account/two-factor',
  setup: '/account/two-factor/setup',
} as const;
