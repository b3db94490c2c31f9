import type { ComponentType } from 'react';
import { type RouteObject, useRoutes } from 'react-router';
import { AreaSkeleton } from '@/components/layouts/area-skeleton.tsx';
// Every screen is a chunk of its own: /login downloads the app's frame and the login form only.
import { LoginPage } from '@/features/auth/components/login-page.tsx';
import { lazyScreen, PublicScreenSkeleton, screenRoute } from './lazy-screen.tsx';
import { paths } from './routes.ts';
import { twoFactorPaths } from './two-factor-paths.ts';

const SignupPage = lazyScreen(
  () => import('@/features/auth/components/signup-page.tsx'),
  'SignupPage',
);
const BuyerSignupPage = lazyScreen(
  () => import('@/features/auth/components/buyer-signup-page.tsx'),
  'BuyerSignupPage',
);
const ForgotPasswordPage = lazyScreen(
  () => import('@/features/auth/components/forgot-password-page.tsx'),
  'ForgotPasswordPage',
);
const ResetPasswordPage = lazyScreen(
  () => import('@/features/auth/components/reset-password-page.tsx'),
  'ResetPasswordPage',
);
// Password and two-factor sign-in: one chunk (see account-screens.ts).
const loadAccount = () => import('@/features/auth/components/account-screens.ts');
const ChangePasswordPage = lazyScreen(loadAccount, 'ChangePasswordPage');
const TwoFactorVerifyPage = lazyScreen(loadAccount, 'TwoFactorVerifyPage');
const TwoFactorSetupPage = lazyScreen(loadAccount, 'TwoFactorSetupPage');
const TwoFactorPage = lazyScreen(loadAccount, 'TwoFactorPage');
// `/`, the guards and the three areas' route tables.
const SignedInRoutes = lazyScreen(() => import('./signed-in-routes.tsx'), 'SignedInRoutes');

/** A public screen's route: while its chunk loads, the shape of the form card. */
function publicRoute(path: string, Component: ComponentType): RouteObject {
  return { path, ...screenRoute(path, Component, <PublicScreenSkeleton />) };
}

/**
 * The route tree: the public screens here, everything else (`/` role redirect, one guarded shell
 * per role, not found) in web/app/signed-in-routes.tsx behind `*`.
 * Declarative routes (`useRoutes` under `BrowserRouter`), not a data router: nothing here uses
 * loaders or actions, and the data router's code would add ~17 KB gzip to what /login loads.
 */
const appRoutes: RouteObject[] = [
  publicRoute(paths.login, LoginPage),
  publicRoute(paths.signup, SignupPage),
  publicRoute(paths.buyerSignup, BuyerSignupPage),
  publicRoute(paths.forgotPassword, ForgotPasswordPage),
  publicRoute(paths.resetPassword, ResetPasswordPage),
  publicRoute(paths.changePassword, ChangePasswordPage),
  publicRoute(paths.twoFactorVerify, TwoFactorVerifyPage),
  publicRoute(twoFactorPaths.setup, TwoFactorSetupPage),
  publicRoute(twoFactorPaths.settings, TwoFactorPage),
  // While the chunk loads: the shapes every signed-in screen starts with (`/` shows them too).
  { path: '*', ...screenRoute('signed-in', SignedInRoutes, <AreaSkeleton />) },
];

/** Renders the screen of the current URL (inside `BrowserRouter`). */
export function AppRoutes() {
  return useRoutes(appRoutes);
}
