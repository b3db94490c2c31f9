import type { Role } from '@contract/roles.ts';
import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { matchPath, type RouteObject } from 'react-router';
import { lazyScreen, screenRoute } from '@/app/lazy-screen.tsx';
import { apiKeysPathByRole } from '@/app/routes.ts';
import type { NavItem } from '@/components/layouts/nav-item.ts';
import { authHeaders } from '@/lib/api-client.ts';

/** One screen of an area: its route, its lazy component, and its sidebar entry if it has one. */
export type AreaScreen = {
  /** The screen's full path (the area's own path for its index screen). */
  path: string;
  /** The area's index screen: an index route, and its sidebar entry is active only there. */
  index?: true;
  /** The component's export name (keys the route's boundaries). */
  name: string;
  Screen: ComponentType;
  /** Starts (or joins) the download of the screen's chunk. */
  load: () => Promise<unknown>;
  nav?: Pick<NavItem, 'label' | 'icon' | 'section'>;
  /**
   * Starts the screen's first data requests into the shared query cache (the index screens':
   * the page the app is opened at, its data asked for beside its chunk, not after it renders).
   */
  prefetch?: (client: QueryClient) => void;
};

type Loader<K extends string> = () => Promise<Record<K, ComponentType>>;
type Nav = AreaScreen['nav'];

/**
 * A screen at `path`, loaded on first visit from its module's export `name` (its own chunk),
 * with its sidebar entry if it has one: `screen(paths.leads, 'LeadsPage', () => import(...))`.
 */
export function screen<K extends string>(
  path: string,
  name: K,
  load: Loader<K>,
  nav?: Nav,
): AreaScreen {
  return { path, name, Screen: lazyScreen(load, name), load, ...(nav ? { nav } : {}) };
}

/**
 * The area's index screen (at the area's own path), like `screen`, with the requests its first
 * render makes (`prefetch`: the same query options its hooks use).
 */
export function home<K extends string>(
  path: string,
  name: K,
  load: Loader<K>,
  nav?: Nav,
  prefetch?: (client: QueryClient) => void,
): AreaScreen {
  return { ...screen(path, name, load, nav), index: true, ...(prefetch ? { prefetch } : {}) };
}

/**
 * Profile → API keys: the one screen every area has at its own path, reached from the account
 * links above Sign Out, not the sidebar.
 */
export function apiKeysScreen(role: Role): AreaScreen {
  return screen(
    apiKeysPathByRole[role],
    'ApiKeysPage',
    () => import('@/components/api-keys/api-keys-page.tsx'),
  );
}

/**
 * An area's child routes and its sidebar, both made from one table of its screens (listed in
 * the sidebar's order; React Router ranks the routes by path, not by order).
 */
export function area(
  id: string,
  screens: AreaScreen[],
): {
  routes: RouteObject[];
  nav: NavItem[];
  preload: (pathname: string) => void;
  prefetch: (pathname: string, client: QueryClient) => void;
} {
  const at = (pathname: string) =>
    screens.find((s) => matchPath({ path: s.path, end: true }, pathname));
  return {
    // The screen at `pathname` (if it is one of this area's) starts downloading now. A failure
    // is reported by the lazy component when it renders (it imports the module again).
    preload: (pathname) => {
      at(pathname)
        ?.load()
        .catch(() => {});
    },
    // Its first data too (SignedInRoutes calls it once /api/v1/me allows; signed out: nothing).
    // A failed request stays in the cache as the query's error; the screen asks again on mount.
    prefetch: (pathname, client) => {
      const hit = at(pathname)?.prefetch;
      if (!hit) return;
      void authHeaders().then((h) => {
        if (h.authorization) hit(client);
      });
    },
    routes: screens.map(({ path, index, name, Screen }) => ({
      ...(index ? { index } : { path }),
      ...screenRoute(`${id}:${name}`, Screen),
    })),
    nav: screens.flatMap(({ path, index, nav }) =>
      nav ? [{ ...nav, to: path, ...(index ? { end: true } : {}) }] : [],
    ),
  };
}
