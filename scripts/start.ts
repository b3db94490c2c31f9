// `npm start`: builds the web app when it is missing or older than its sources, then serves.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadEnvFile } from 'node:process';
import { exitIfDataDirHeld } from '../server/db/data-dir-owner.ts';
import { acquireBuildLock } from './build-lock.ts';

const root = path.resolve(import.meta.dirname, '..');
// A second portal on the same data folder is refused before the (slow) build.
if (existsSync('.env')) loadEnvFile('.env');
await exitIfDataDirHeld();
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

const sources = ['web', 'contract'].map((d) => path.join(root, d)).filter(existsSync);
const isStale = () =>
  !existsSync(built) ||
  Math.max(...sources.map(newestMtime), statSync(path.join(root, 'index.html')).mtimeMs) >
    statSync(built).mtimeMs;
if (isStale()) {
  // Several starts of one checkout at once: one builds, the others wait and find it built.
  const release = await acquireBuildLock(outDir);
  try {
    if (isStale()) {
      console.log('Building the web app (first start or changed sources)…');
      const r = spawnSync(
        process.execPath,
        [path.join(root, 'node_modules/vite/bin/vite.js'), 'build'],
        { cwd: root, stdio: 'inherit', env: { ...process.env, PORTAL_BUILD_LOCK_HELD: outDir } },
      );
      if (r.status !== 0) process.exit(r.status ?? 1);
    }
  } finally {
    release();
  }
}
await import('../server/main.ts');
