import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { ensurePgdataTemplate } from './support/pgdata-template.ts';

const root = path.resolve(import.meta.dirname, '..');
const webDir = path.join(root, 'dist/web');
const builtIndex = path.join(webDir, 'index.html');
const lockDir = path.join(root, '.tmp/e2e-build.lock');
const sources = ['web', 'contract', 'public', 'index.html', 'vite.config.ts', 'package-lock.json'];

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

function isStale(): boolean {
  const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
  const sourcesAt = Math.max(...sources.map((s) => newestMtime(path.join(root, s))));
  return builtAt < sourcesAt;
}

function sleep(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Holds a directory lock so two suites on one machine never build at the same time. */
function withBuildLock(fn: () => void) {
  mkdirSync(path.dirname(lockDir), { recursive: true });
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      mkdirSync(lockDir);
      break;
    } catch {
      // A lock older than 5 minutes belongs to a run that died.
      if (existsSync(lockDir) && Date.now() - statSync(lockDir).mtimeMs > 300_000) {
        rmSync(lockDir, { recursive: true, force: true });
      } else if (Date.now() > deadline) {
        throw new Error(`[e2e] gave up waiting for the build lock ${lockDir}`);
      }
      sleep(500);
    }
  }
  try {
    fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

/**
 * Makes the migrated PGlite template the servers start from (support/pgdata-template.ts), and
 * builds the SPA once when dist/web is missing or older than any of its sources. It builds
 * into a side folder and swaps it in, so a server that is serving dist/web meanwhile (another
 * suite on the same machine) never sees a half-emptied folder.
 */
export default async function setup() {
  await ensurePgdataTemplate();
  if (!isStale()) return;
  withBuildLock(() => {
    if (!isStale()) return; // someone else built it while we waited
    console.log('[e2e] dist/web is missing or stale: running `npm run build`');
    const fresh = path.join(root, `dist/web.build-${process.pid}`);
    execFileSync('npm', ['run', 'build', '--', '--outDir', fresh, '--emptyOutDir'], {
      cwd: root,
      stdio: 'inherit',
    });
    const old = path.join(root, `dist/web.old-${process.pid}`);
    if (existsSync(webDir)) renameSync(webDir, old);
    renameSync(fresh, webDir);
    rmSync(old, { recursive: true, force: true });
  });
}
