import { createBrowserRouter } from 'react-router';
import { AreaShell } from '@/components/layouts/area-shell.tsx';
import { NotFoundPage } from '@/components/not-found-page.tsx';
import { BuyerSignupPage } from '@/features/auth/components/buyer-signup-page.tsx';
import { ChangePasswordPage } from '@/features/auth/components/change-password-page.tsx';
import { ForgotPasswordPage } from '@/features/auth/components/forgot-password-page.tsx';
import { LoginPage } from '@/features/auth/components/login-page.tsx';
import { ResetPasswordPage } from '@/features/auth/components/reset-password-page.tsx';
import { SignupPage } from '@/features/auth/components/signup-page.tsx';
import { RequireRole } from './guards/require-role.tsx';
import { RootRedirect } from './guards/root-redirect.tsx';
import { adminNav, adminRoutes } from './routes/admin-area.tsx';
import { buyerNav, buyerRoutes } from './routes/buyer-area.tsx';
import { publisherNav, publisherRoutes } from './routes/publisher-area.tsx';
import { paths } from './routes.ts';

/** The whole route tree: public screens, `/` role redirect, and one guarded shell per role. */
export function createAppRouter() {
  return createBrowserRouter([
    { path: paths.root, element: <RootRedirect /> },
    { path: paths.login, element: <LoginPage /> },
    { path: paths.signup, element: <SignupPage /> },
    { path: paths.buyerSignup, element: <BuyerSignupPage /> },
    { path: paths.forgotPassword, element: <ForgotPasswordPage /> },
    { path: paths.resetPassword, element: <ResetPasswordPage /> },
    { path: paths.changePassword, element: <ChangePasswordPage /> },
    {
      path: paths.admin,
      element: (
        <RequireRole allow="admin">
          <AreaShell areaLabel="Admin" nav={adminNav} />
        </RequireRole>
      ),
      children: [...adminRoutes, { path: '*', element: <NotFoundPage /> }],
    },
    {
      path: paths.dashboard,
      element: (
        <RequireRole allow="publisher">
          <AreaShell areaLabel="Publisher" nav={publisherNav} />
        </RequireRole>
      ),
      children: [...publisherRoutes, { path: '*', element: <NotFoundPage /> }],
    },
    {
      path: paths.buyerDashboard,
      element: (
        <RequireRole allow="buyer">
          <AreaShell areaLabel="Buyer" nav={buyerNav} />
        </RequireRole>
      ),
      children: [...buyerRoutes, { path: '*', element: <NotFoundPage /> }],
    },
    { path: '*', element: <NotFoundPage /> },
  ]);
}
