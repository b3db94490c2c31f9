import { Navigate } from 'react-router';
import { homePathFor, paths } from '@/app/routes.ts';
import { AreaSkeleton } from '@/components/layouts/area-skeleton.tsx';
import { useVerifiedRole } from './use-verified-role.ts';

/** `/`: admin → /admin, publisher → /dashboard, buyer → /buyer-dashboard, anyone else → /login. */
export function RootRedirect() {
  const check = useVerifiedRole();
  if (check.state === 'loading' || check.state === 'failed') return <AreaSkeleton />;
  if (check.state === 'signed-out') return <Navigate to={paths.login} replace />;
  return <Navigate to={homePathFor(check.role)} replace />;
}
