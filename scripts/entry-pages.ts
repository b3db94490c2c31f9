import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  type Manifest,
  readManifest,
  type ScreenBudget,
  screens,
  signedIn,
  staticClosure,
} from './bundle-report.ts';

/**
 * A copy of index.html for each area's first screen (the admin dashboard, the publisher overview,
 * the buyer dashboard) that also preloads that screen's chunks: the session client, the signed-in
 * routes, the area frame, the screen and their imports (`<link rel="modulepreload">`). Opened at
 * one of those addresses (a reload, a bookmark, a new tab), the browser fetches them all beside
 * the entry chunk instead of one link of the chain after the other (entry → signed-in routes →
 * frame and screen). Lighthouse, mobile preset, admin dashboard: LCP 5.96–6.38 s → 5.46–5.66 s
 * (bench/lighthouse-2026-11-29.md).
 *
 * Every other address of an area (`/admin/leads`, `/dashboard/payouts/…`) gets a page that
 * preloads what every signed-in screen needs first (the session client, the signed-in routes,
 * the frame); its screen's own chunk still follows the routes', one step instead of three.
 *
 * Written by the build (vite.config.ts) before the files are compressed. The server reads
 * `ENTRY_PAGES_FILE` (address → page; `/admin/*`: any address under /admin/) and sends the page
 * for its address, index.html for any other (server/app.ts); /login's page stays index.html, so
 * signing in downloads none of it.
 */
export const ENTRY_PAGES_FILE = '.vite/entry-pages.json';

/** The chunks of `lazy` modules the entry does not already preload, in the manifest's order. */
export function screenPreloads(manifest: Manifest, lazy: string[]): string[] {
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entry) throw new Error('The manifest has no entry chunk (index.html).');
  const base = new Set(staticClosure(manifest, [entry]));
  return staticClosure(manifest, [entry, ...lazy])
    .filter((key) => !base.has(key))
    .map((key) => manifest[key]!.file);
}

/** index.html with `files` preloaded, after the entry's own preloads (end of the head). */
export function withPreloads(html: string, files: string[]): string {
  if (!html.includes('</head>')) throw new Error('index.html has no </head>.');
  const links = files.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`).join('');
  return html.replace('</head>', `${links}</head>`);
}

/**
 * Writes `entry/<screen>.html` per screen with a path (an area's home: the area's own address),
 * `entry/signed-in.html` for the rest of those areas, and the address → page map.
 */
export function writeEntryPages(
  dir: string,
  budgets: ScreenBudget[] = screens,
  chain: string[] = signedIn,
): Record<string, string> {
  const manifest = readManifest(dir);
  const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
  const pages: Record<string, string> = {};
  mkdirSync(path.join(dir, 'entry'), { recursive: true });
  const write = (page: string, lazy: string[]) =>
    writeFileSync(path.join(dir, page), withPreloads(html, screenPreloads(manifest, lazy)));
  const areaPage = 'entry/signed-in.html';
  write(areaPage, chain);
  for (const screen of budgets) {
    if (!screen.path) continue;
    const page = `entry/${screen.name.replace(/[^a-z0-9]+/gi, '-')}.html`;
    write(page, screen.lazy);
    pages[screen.path] = page;
    pages[`${screen.path}/*`] = areaPage;
  }
  writeFileSync(path.join(dir, ENTRY_PAGES_FILE), `${JSON.stringify(pages, null, 2)}\n`);
  return pages;
}
