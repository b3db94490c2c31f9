import { useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { homePathFor, isAfterSignIn, paths } from '@/app/routes.ts';
import { twoFactorPaths } from '@/app/two-factor-paths.ts';
import { AreaSkeleton } from '@/components/layouts/area-skeleton.tsx';
import { useAuth } from '@/lib/auth.tsx';
import { toast } from '@/lib/notify.ts';
import { hasVerifiedFactor } from '@/lib/second-factor.ts';
import { useVerifiedRole } from './use-verified-role.ts';

/**
 * `/`: admin → /admin, publisher → /dashboard, buyer → /buyer-dashboard, anyone else → /login.
 * A password-only session of a user with an authenticator app goes to the code step first; right
 * after the password, a user whose role must use two-factor sign-in (MFA_REQUIRED_FOR) and who
 * has no app yet goes to its enrolment, which they may put off until the next sign-in.
 */
export function RootRedirect() {
  const check = useVerifiedRole();
  const { user } = useAuth();
  const location = useLocation();
  if (check.state === 'loading' || check.state === 'failed') return <AreaSkeleton />;
  if (check.state === 'signed-out') return <Navigate to={paths.login} replace />;
  if (check.state === 'needs-second-factor') {
    return <Navigate to={paths.twoFactorVerify} replace />;
  }
  if (check.mfaRequired && isAfterSignIn(location.state) && !hasVerifiedFactor(user)) {
    return <Navigate to={twoFactorPaths.setup} replace />;
  }
  if (isAfterSignIn(location.state)) return <SignedInNavigate to={homePathFor(check.role)} />;
  return <Navigate to={homePathFor(check.role)} replace />;
}

/**
 * Right after the password, when no second step follows: "Login Successful" and the home page.
 * (Never over the two-factor code or enrolment screens: those come first, without it.)
 */
function SignedInNavigate({ to }: { to: string }) {
  useEffect(() => {
    toast({ title: 'Login Successful', description: 'Redirecting to your dashboard...' });
  }, []);
  return <Navigate to={to} replace />;
}
