import type { RouteObject } from 'react-router';
import { lazyScreen, screenRoute } from '@/app/lazy-screen.tsx';
import { publisherPaths } from '@/app/routes.ts';

// Each screen is its own chunk, fetched the first time its route renders.
const DocumentsPage = lazyScreen(
  () => import('@/features/publisher/components/documents-page.tsx'),
  'DocumentsPage',
);
const IosPage = lazyScreen(() => import('@/features/publisher/components/ios-page.tsx'), 'IosPage');
const LeadDetailPage = lazyScreen(
  () => import('@/features/publisher/components/lead-detail-page.tsx'),
  'LeadDetailPage',
);
const LeadsPage = lazyScreen(
  () => import('@/features/publisher/components/leads-page.tsx'),
  'LeadsPage',
);
const OffersPage = lazyScreen(
  () => import('@/features/publisher/components/offers-page.tsx'),
  'OffersPage',
);
const OverviewPage = lazyScreen(
  () => import('@/features/publisher/components/overview-page.tsx'),
  'OverviewPage',
);
const ReportsPage = lazyScreen(
  () => import('@/features/publisher/components/reports-page.tsx'),
  'ReportsPage',
);
const ProfilePage = lazyScreen(
  () => import('@/features/publisher/components/profile-page.tsx'),
  'ProfilePage',
);
const PayoutsPage = lazyScreen(
  () => import('@/features/publisher/components/payouts-page.tsx'),
  'PayoutsPage',
);

/** Child routes of /dashboard (inside the publisher shell, behind the publisher guard). */
export const publisherRoutes: RouteObject[] = [
  { index: true, ...screenRoute('publisher:OverviewPage', OverviewPage) },
  { path: publisherPaths.offers, ...screenRoute('publisher:OffersPage', OffersPage) },
  { path: publisherPaths.leads, ...screenRoute('publisher:LeadsPage', LeadsPage) },
  {
    path: publisherPaths.leadPattern,
    ...screenRoute('publisher:LeadDetailPage', LeadDetailPage),
  },
  { path: publisherPaths.payouts, ...screenRoute('publisher:PayoutsPage', PayoutsPage) },
  { path: publisherPaths.profile, ...screenRoute('publisher:ProfilePage', ProfilePage) },
  { path: publisherPaths.reports, ...screenRoute('publisher:ReportsPage', ReportsPage) },
  { path: publisherPaths.documents, ...screenRoute('publisher:DocumentsPage', DocumentsPage) },
  { path: publisherPaths.ios, ...screenRoute('publisher:IosPage', IosPage) },
];
