import type { Role } from '@contract/roles.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type RouteObject, useRoutes } from 'react-router';
import { AreaSkeleton } from '@/components/layouts/area-skeleton.tsx';
import { NotFoundPage } from '@/components/not-found-page.tsx';
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
// page load: requested beside the chunks and /api/v1/me instead of after the screen renders.
const openedAt = window.location.pathname;
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
  useEffect(() => {
    if (prefetched) return;
    prefetched = true;
    for (const a of areas) a.prefetch(openedAt, client);
  }, [client]);
  return useRoutes(signedInRoutes);
}
