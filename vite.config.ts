import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { acquireBuildLock } from './scripts/build-lock.ts';
import { printBundleReport } from './scripts/bundle-report.ts';
import { writeEntryPages } from './scripts/entry-pages.ts';
import { precompress } from './scripts/precompress.ts';

/** `@/…` is web/, `@contract/…` is contract/ (tsconfig.json `paths` says the same to tsc). */
export const aliases = [
  { find: /^@\//, replacement: fileURLToPath(new URL('./web/', import.meta.url)) },
  { find: /^@contract\//, replacement: fileURLToPath(new URL('./contract/', import.meta.url)) },
];

/** After `vite build` has written the files: what each entry screen downloads (KB, gzip). */
function bundleReport(): Plugin {
  let outDir = '';
  return {
    name: 'bundle-report',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      // Each area's first screen gets a copy of index.html preloading its chunks.
      writeEntryPages(outDir);
      // Brotli and gzip copies beside each file: the server sends them as they are.
      precompress(outDir);
      printBundleReport(outDir);
      const env = process.env.NODE_ENV;
      if (env && env !== 'production') {
        // e.g. the browser suite's build under vitest (NODE_ENV=test) bundles React's dev build.
        console.warn(`note: NODE_ENV=${env}, so these are not the production sizes.`);
      }
    },
  };
}

/**
 * The stylesheet's <link> first in the head, before the entry script and its modulepreloads (Vite
 * writes it after them): the static app shell in index.html needs only the HTML and this file to
 * be drawn, so on a slow connection it downloads ahead of the JavaScript, not behind it.
 */
function stylesheetFirst(): Plugin {
  return {
    name: 'stylesheet-first',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const links = html.match(/\s*<link rel="stylesheet"[^>]*>/g) ?? [];
        let out = html;
        for (const link of links) out = out.replace(link, '');
        return out.replace('</title>', `</title>${links.join('')}`);
      },
    },
  };
}

/**
 * One build at a time per output folder (scripts/build-lock.ts); `npm start` already holds the
 * lock when it runs the build (PORTAL_BUILD_LOCK_HELD names the folder).
 */
function buildLock(): Plugin {
  let outDir = '';
  let release: (() => void) | undefined;
  const done = () => {
    release?.();
    release = undefined;
  };
  return {
    name: 'build-lock',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async buildStart() {
      if (process.env.PORTAL_BUILD_LOCK_HELD !== outDir) release = await acquireBuildLock(outDir);
    },
    buildEnd(err) {
      if (err) done();
    },
    closeBundle: done,
  };
}

export default defineConfig({
  // build-lock last: its closeBundle releases after the report has precompressed the files.
  plugins: [react(), stylesheetFirst(), bundleReport(), buildLock()],
  resolve: { alias: aliases },
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    // No inline module-preload polyfill: the CSP allows only same-origin scripts.
    modulePreload: { polyfill: false },
    // .vite/manifest.json: which chunks each screen needs (scripts/bundle-report.ts reads it).
    manifest: true,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:3000',
      '/auth': 'http://localhost:3000',
      '/files': 'http://localhost:3000',
      '/dev': 'http://localhost:3000',
    },
  },
});
