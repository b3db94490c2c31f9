import type { Role } from '@contract/roles.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type RouteObject, useRoutes } from 'react-router';
import { AreaSkeleton } from '@/components/layouts/area-skeleton.tsx';
import { NotFoundPage } from '@/components/not-found-page.tsx';
import { useAuth } from '@/lib/auth.tsx';
import { useMe } from '@/lib/me.ts';
import { hasVerifiedFactor, needsSecondFactor } from '@/lib/second-factor.ts';
import { RequireRole } from './guards/require-role.tsx';
import { RootRedirect } from './guards/root-redirect.tsx';
import { lazyScreen, Screen } from './lazy-screen.tsx';
import { adminArea } from './routes/admin-area.tsx';
import { buyerArea } from './routes/buyer-area.tsx';
import { publisherArea } from './routes/publisher-area.tsx';
import { paths } from './routes.ts';

// The signed-in frame (sidebar and its entries) is shared by the three areas. Its download
// starts with this chunk, while the guard still waits for /api/v1/me, not after it.
const loadAreaFrame = () => import('./area-frame.tsx');
// (A failure here is reported by the lazy component, which imports it again.)
loadAreaFrame().catch(() => {});
const AreaFrame = lazyScreen(loadAreaFrame, 'AreaFrame');
// So does the screen of the address the app was opened at (a reload, a bookmark, the first
// screen after signing in): its chunk downloads beside the frame's and /api/v1/me, not after them.
const areas = [adminArea, publisherArea, buyerArea];
for (const a of areas) a.preload(window.location.pathname);
// And that screen's first data (an area's home screen), into the app's query cache, once per
// page load: requested as soon as /api/v1/me says the user may read it (their area, an account
// in good standing, the second factor given where it is required), while the frame's and the
// screen's chunks still download, instead of after the screen renders. Before /me it could be
// refused (403: another role, a pending publisher, an admin still to enrol).
const openedAt = window.location.pathname;
const areaOf: Record<string, typeof adminArea> = {
  admin: adminArea,
  publisher: publisherArea,
  buyer: buyerArea,
};
let prefetched = false;

/** One guarded area: the role check, then the frame's chunk, then the child screen's chunk. */
function areaRoute(role: Role, path: string, children: RouteObject[]): RouteObject {
  // An unknown address inside the area keeps the area's layout and leads back to its home.
  const notFound = <NotFoundPage areaHome={{ label: 'Dashboard', to: path }} />;
  return {
    path,
    element: (
      <RequireRole allow={role}>
        {/* The frame loads behind the same skeleton the role check shows: no flash between. */}
        <Screen fallback={<AreaSkeleton />}>
          <AreaFrame role={role} />
        </Screen>
      </RequireRole>
    ),
    children: [...children, { path: '*', element: notFound }],
  };
}

/** `/`'s role redirect and one guarded shell per role (paths are absolute: the parent is `*`). */
const signedInRoutes: RouteObject[] = [
  { path: paths.root, element: <RootRedirect /> },
  areaRoute('admin', paths.admin, adminArea.routes),
  areaRoute('publisher', paths.dashboard, publisherArea.routes),
  areaRoute('buyer', paths.buyerDashboard, buyerArea.routes),
  { path: '*', element: <NotFoundPage /> },
];

/**
 * Everything but the public screens: a chunk of its own (guards, the areas' route tables), so
 * /login downloads none of it. Rendered by the `*` route of web/app/router.tsx.
 */
export function SignedInRoutes() {
  const client = useQueryClient();
  const { user, session } = useAuth();
  const secondFactorDue = needsSecondFactor(session);
  // The guard's own read (the same cached query): asked once, whoever asks first.
  const me = useMe(secondFactorDue ? null : user?.id);
  const profile = me.data;
  const mayRead =
    profile !== undefined &&
    // An account in good standing (contract/roles.ts approvedPublisherStatuses, read as values
    // here: that module's zod would join this chunk).
    (profile.status === 'approved' || profile.status === 'active') &&
    (!profile.mfa_required || hasVerifiedFactor(session?.user));
  useEffect(() => {
    if (prefetched || !mayRead || !profile) return;
    prefetched = true;
    areaOf[profile.role]?.prefetch(openedAt, client);
  }, [mayRead, profile, client]);
  return useRoutes(signedInRoutes);
}
