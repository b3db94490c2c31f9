import type { RouteObject } from 'react-router';
import { lazyScreen, screenRoute } from '@/app/lazy-screen.tsx';
import { buyerPaths } from '@/app/routes.ts';

// Each screen is its own chunk, fetched the first time its route renders.
const BuyerDashboardPage = lazyScreen(
  () => import('@/features/buyer/components/buyer-dashboard-page.tsx'),
  'BuyerDashboardPage',
);
const CampaignsPage = lazyScreen(
  () => import('@/features/buyer/components/campaigns-page.tsx'),
  'CampaignsPage',
);

/** Child routes of /buyer-dashboard (inside the buyer shell, behind the buyer guard). */
export const buyerRoutes: RouteObject[] = [
  { index: true, ...screenRoute('buyer:BuyerDashboardPage', BuyerDashboardPage) },
  { path: buyerPaths.campaigns, ...screenRoute('buyer:CampaignsPage', CampaignsPage) },
];
