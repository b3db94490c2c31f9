// Builds the web app (dist/web) when it is missing or older than its sources: `npm start` runs it
// before serving, `npm run bench:lighthouse` before measuring the built pages.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { acquireBuildLock } from './build-lock.ts';

const root = path.resolve(import.meta.dirname, '..');
const outDir = path.join(root, 'dist/web');
const built = path.join(outDir, 'index.html');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function isStale(): boolean {
  const sources = ['web', 'contract'].map((d) => path.join(root, d)).filter(existsSync);
  return (
    !existsSync(built) ||
    Math.max(...sources.map(newestMtime), statSync(path.join(root, 'index.html')).mtimeMs) >
      statSync(built).mtimeMs
  );
}

/**
 * True when dist/web holds React's development build: a build made with NODE_ENV other than
 * production (the browser suite's, under vitest) keeps React's dev warnings, which its
 * production build strips.
 */
export function isDevelopmentBuild(): boolean {
  if (!existsSync(built)) return false;
  const entry = /src="\/assets\/(index-[^"]+\.js)"/.exec(readFileSync(built, 'utf8'))?.[1];
  return (
    entry !== undefined &&
    readFileSync(path.join(outDir, 'assets', entry), 'utf8').includes('unique "key" prop')
  );
}

/**
 * Runs `vite build` if dist/web is stale (or, with `production`, holds a development build);
 * returns vite's exit code (0 when nothing to do).
 */
export async function buildWebIfStale(
  env: NodeJS.ProcessEnv = process.env,
  { production = false } = {},
): Promise<number> {
  const needed = () => isStale() || (production && isDevelopmentBuild());
  if (!needed()) return 0;
  // Several starts of one checkout at once: one builds, the others wait and find it built.
  const release = await acquireBuildLock(outDir);
  try {
    if (!needed()) return 0;
    console.log('Building the web app (first start, changed sources or a development build)…');
    const r = spawnSync(
      process.execPath,
      [path.join(root, 'node_modules/vite/bin/vite.js'), 'build'],
      {
        cwd: root,
        stdio: 'inherit',
        env: { ...env, PORTAL_BUILD_LOCK_HELD: outDir },
      },
    );
    return r.status ?? 1;
  } finally {
    release();
  }
}
