import type { Role } from '@contract/roles.ts';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { paths } from '@/app/routes.ts';
import { AreaSkeleton } from '@/components/layouts/area-skeleton.tsx';
import { useVerifiedRole } from './use-verified-role.ts';

type RequireRoleProps = { allow: Role; children: ReactNode };

/** Lets only users of the `allow` role through; anyone else goes to /login (spec §6). */
export function RequireRole({ allow, children }: RequireRoleProps) {
  const check = useVerifiedRole();
  if (check.state === 'loading' || check.state === 'failed') return <AreaSkeleton />;
  if (check.state === 'signed-out') return <Navigate to={paths.login} replace />;
  if (check.state === 'needs-second-factor') {
    return <Navigate to={paths.twoFactorVerify} replace />;
  }
  if (check.role !== allow) return <Navigate to={paths.login} replace />;
  return children;
}
