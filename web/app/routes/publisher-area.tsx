import {
  IconCash,
  IconFileDescription,
  IconFileText,
  IconLayoutDashboard,
  IconPhoneCall,
  IconSpeakerphone,
} from '@tabler/icons-react';
import type { RouteObject } from 'react-router';
import { publisherPaths } from '@/app/routes.ts';
import type { NavItem } from '@/components/layouts/nav-item.ts';
import { DocumentsPage } from '@/features/publisher/components/documents-page.tsx';
import { IosPage } from '@/features/publisher/components/ios-page.tsx';
import { LeadsPage } from '@/features/publisher/components/leads-page.tsx';
import { OffersPage } from '@/features/publisher/components/offers-page.tsx';
import { OverviewPage } from '@/features/publisher/components/overview-page.tsx';
import { PayoutsPage } from '@/features/publisher/components/payouts-page.tsx';

/** The publisher sidebar, labels exactly as the spec names them. */
export const publisherNav: NavItem[] = [
  { label: 'Dashboard', to: publisherPaths.overview, icon: IconLayoutDashboard, end: true },
  { label: 'Offers', to: publisherPaths.offers, icon: IconSpeakerphone },
  { label: 'Leads', to: publisherPaths.leads, icon: IconPhoneCall },
  { label: 'Payouts', to: publisherPaths.payouts, icon: IconCash },
  { label: 'Documents', to: publisherPaths.documents, icon: IconFileDescription },
  { label: 'Campaign IOs', to: publisherPaths.ios, icon: IconFileText },
];

/** Child routes of /dashboard (inside the publisher shell, behind the publisher guard). */
export const publisherRoutes: RouteObject[] = [
  { index: true, element: <OverviewPage /> },
  { path: publisherPaths.offers, element: <OffersPage /> },
  { path: publisherPaths.leads, element: <LeadsPage /> },
  { path: publisherPaths.payouts, element: <PayoutsPage /> },
  { path: publisherPaths.documents, element: <DocumentsPage /> },
  { path: publisherPaths.ios, element: <IosPage /> },
];
