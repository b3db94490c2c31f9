import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/**
 * A component loaded on first render from its module's export `name`:
 * `lazyExport(() => import('./chart.tsx'), 'Chart')`. Vite puts the module (and whatever only it
 * imports) into a chunk of its own; render it inside a `Suspense`.
 */
export function lazyExport<
  // biome-ignore lint/suspicious/noExplicitAny: a component of any props (React's `lazy` says so too)
  M extends { [N in K]: ComponentType<any> },
  K extends keyof M & string,
>(load: () => Promise<M>, name: K): LazyExoticComponent<M[K]> {
  return lazy(async () => ({ default: (await load())[name] }));
}
