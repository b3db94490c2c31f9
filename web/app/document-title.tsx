import { useEffect, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';
import { setDisplayCurrency, setDisplayTimeZone } from '@/lib/display-settings.ts';
import { usePublicSettings } from '@/lib/public-settings.ts';
import { adminPaths, buyerPaths, paths, publisherPaths } from './routes.ts';

/**
 * The name of each screen for the browser tab, by path; a path below one (a publisher's detail
 * page under /admin/publishers) takes the nearest screen's name. Plain strings, no icons, so the
 * login page's chunk stays small.
 */
const SCREEN_TITLES: Record<string, string> = {
  [paths.login]: 'Sign in',
  [paths.signup]: 'Publisher sign-up',
  [paths.buyerSignup]: 'Buyer sign-up',
  [paths.forgotPassword]: 'Forgot password',
  [paths.resetPassword]: 'Reset password',
  [paths.changePassword]: 'Change password',
  [paths.twoFactorVerify]: 'Two-factor sign-in',
  [adminPaths.dashboard]: 'Dashboard',
  [adminPaths.publishers]: 'Publishers',
  [adminPaths.buyers]: 'Buyers',
  [adminPaths.offers]: 'Offers',
  [adminPaths.applications]: 'Applications',
  [adminPaths.compliance]: 'Compliance',
  [adminPaths.campaigns]: 'Campaigns',
  [adminPaths.returns]: 'Returns',
  [adminPaths.leads]: 'Leads',
  [adminPaths.disputes]: 'Disputes',
  [adminPaths.leadImport]: 'Import Leads',
  [adminPaths.payouts]: 'Payouts',
  [adminPaths.reports]: 'Reports',
  [adminPaths.settings]: 'Settings',
  [adminPaths.integrations]: 'Integrations',
  [adminPaths.trackingNumbers]: 'Tracking numbers',
  [adminPaths.webhooks]: 'Webhooks',
  [adminPaths.fraud]: 'Fraud',
  [adminPaths.live]: 'Live',
  [adminPaths.signatures]: 'Signatures',
  [publisherPaths.overview]: 'Dashboard',
  [publisherPaths.offers]: 'Offers',
  [publisherPaths.leads]: 'Leads',
  [publisherPaths.payouts]: 'Payouts',
  [publisherPaths.profile]: 'Profile',
  [publisherPaths.reports]: 'Reports',
  [publisherPaths.documents]: 'Documents',
  [publisherPaths.ios]: 'Campaign IOs',
  [publisherPaths.postbacks]: 'Postbacks',
  [buyerPaths.dashboard]: 'Dashboard',
  [buyerPaths.campaigns]: 'Campaigns',
  [buyerPaths.calls]: 'Calls',
  [buyerPaths.billing]: 'Billing',
  [adminPaths.apiKeys]: 'API keys',
  [publisherPaths.apiKeys]: 'API keys',
  [buyerPaths.apiKeys]: 'API keys',
};

/** The screen's name for a path, or null (e.g. `/`, or a page that does not exist). */
export function screenTitle(pathname: string): string | null {
  let path = pathname.replace(/\/+$/, '') || '/';
  for (;;) {
    const title = SCREEN_TITLES[path];
    if (title) return title;
    const cut = path.lastIndexOf('/');
    if (cut <= 0) return null;
    path = path.slice(0, cut);
  }
}

/** "{Screen} · {Company name}", or the company name alone where no screen is named. */
export function documentTitle(pathname: string, companyName: string | undefined): string {
  const company = companyName?.trim() || 'Portal';
  const screen = screenTitle(pathname);
  return screen ? `${screen} · ${company}` : company;
}

/**
 * A screen that is not known by its path (the 404 page) names itself here while it is shown;
 * null gives the title back to the path.
 */
let titleOverride: string | null = null;
const overrideListeners = new Set<() => void>();
export function setScreenTitleOverride(title: string | null) {
  titleOverride = title;
  for (const listener of overrideListeners) listener();
}
const subscribeOverride = (listener: () => void) => {
  overrideListeners.add(listener);
  return () => overrideListeners.delete(listener);
};

/** Keeps the browser tab's title on the current screen and the company name from settings. */
export function DocumentTitle() {
  const { pathname } = useLocation();
  const { data } = usePublicSettings();
  // Dates on every screen follow the network's zone (set before the screens below render).
  setDisplayTimeZone(data?.timezone);
  setDisplayCurrency(data?.currency);
  const override = useSyncExternalStore(subscribeOverride, () => titleOverride);
  const company = data?.company_name?.trim() || 'Portal';
  const title = override ? `${override} · ${company}` : documentTitle(pathname, data?.company_name);
  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}
