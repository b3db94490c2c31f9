import {
  IconCash,
  IconChartBar,
  IconFileDescription,
  IconFileText,
  IconLayoutDashboard,
  IconPhoneCall,
  IconSpeakerphone,
  IconUserCircle,
} from '@tabler/icons-react';
import { publisherPaths } from '@/app/routes.ts';
import { overviewQuery } from '@/features/publisher/api/get-overview.ts';
import { prefetchFirst } from '@/lib/prefetch.ts';
import { apiKeysScreen, area, home, screen } from './area-screens.tsx';

/**
 * The publisher area (under /dashboard, inside the publisher shell, behind the publisher guard),
 * in the sidebar's order; sidebar labels exactly as the spec names them.
 */
export const publisherArea = area('publisher', [
  home(
    publisherPaths.overview,
    'OverviewPage',
    () => import('@/features/publisher/components/overview-page.tsx'),
    { label: 'Dashboard', icon: IconLayoutDashboard },
    (client) => void prefetchFirst(client, overviewQuery),
  ),
  screen(
    publisherPaths.offers,
    'OffersPage',
    () => import('@/features/publisher/components/offers-page.tsx'),
    { label: 'Offers', icon: IconSpeakerphone },
  ),
  screen(
    publisherPaths.leads,
    'LeadsPage',
    () => import('@/features/publisher/components/leads-page.tsx'),
    { label: 'Leads', icon: IconPhoneCall },
  ),
  screen(
    publisherPaths.leadPattern,
    'LeadDetailPage',
    () => import('@/features/publisher/components/lead-detail-page.tsx'),
  ),
  screen(
    publisherPaths.payouts,
    'PayoutsPage',
    () => import('@/features/publisher/components/payouts-page.tsx'),
    { label: 'Payouts', icon: IconCash },
  ),
  screen(
    publisherPaths.reports,
    'ReportsPage',
    () => import('@/features/publisher/components/reports-page.tsx'),
    { label: 'Reports', icon: IconChartBar },
  ),
  screen(
    publisherPaths.documents,
    'DocumentsPage',
    () => import('@/features/publisher/components/documents-page.tsx'),
    { label: 'Documents', icon: IconFileDescription },
  ),
  screen(
    publisherPaths.documentPattern,
    'SignDocumentPage',
    () => import('@/features/publisher/components/sign-document-page.tsx'),
  ),
  screen(
    publisherPaths.ios,
    'IosPage',
    () => import('@/features/publisher/components/ios-page.tsx'),
    { label: 'Campaign IOs', icon: IconFileText },
  ),
  screen(
    publisherPaths.profile,
    'ProfilePage',
    () => import('@/features/publisher/components/profile-page.tsx'),
    { label: 'Profile', icon: IconUserCircle },
  ),
  // Profile → Postbacks: a button on Profile leads there.
  screen(
    publisherPaths.postbacks,
    'PostbacksPage',
    () => import('@/features/publisher/components/postbacks-page.tsx'),
  ),
  apiKeysScreen('publisher'),
]);
