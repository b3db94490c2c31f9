import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const builtIndex = path.join(root, 'dist/web/index.html');
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

/** Builds the SPA once when dist/web is missing or older than any of its sources. */
export default function setup() {
  const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
  const sourcesAt = Math.max(...sources.map((s) => newestMtime(path.join(root, s))));
  if (builtAt >= sourcesAt) return;
  console.log('[e2e] dist/web is missing or stale: running `npm run build`');
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
}
