import type { ComponentType } from 'react';
import { matchPath, type RouteObject } from 'react-router';
import { lazyScreen, screenRoute } from '@/app/lazy-screen.tsx';
import type { NavItem } from '@/components/layouts/nav-item.ts';

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

/** The area's index screen (at the area's own path), like `screen`. */
export function home<K extends string>(
  path: string,
  name: K,
  load: Loader<K>,
  nav?: Nav,
): AreaScreen {
  return { ...screen(path, name, load, nav), index: true };
}

/**
 * An area's child routes and its sidebar, both made from one table of its screens (listed in
 * the sidebar's order; React Router ranks the routes by path, not by order).
 */
export function area(
  id: string,
  screens: AreaScreen[],
): { routes: RouteObject[]; nav: NavItem[]; preload: (pathname: string) => void } {
  return {
    // The screen at `pathname` (if it is one of this area's) starts downloading now. A failure
    // is reported by the lazy component when it renders (it imports the module again).
    preload: (pathname) => {
      const hit = screens.find((s) => matchPath({ path: s.path, end: true }, pathname));
      hit?.load().catch(() => {});
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
