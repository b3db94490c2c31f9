import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { budgetProblems, type Manifest, measureScreens } from './bundle-report.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fake build: files of pseudo-random (incompressible) bytes and the manifest naming them. */
function fakeBuild(sizes: Record<string, number>, manifest: Manifest): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'bundle-report-'));
  dirs.push(dir);
  mkdirSync(path.join(dir, 'assets'));
  mkdirSync(path.join(dir, '.vite'));
  for (const [file, size] of Object.entries(sizes)) {
    writeFileSync(path.join(dir, file), randomBytes(size));
  }
  writeFileSync(path.join(dir, '.vite/manifest.json'), JSON.stringify(manifest));
  return dir;
}

const manifest: Manifest = {
  'index.html': {
    file: 'assets/index.js',
    isEntry: true,
    imports: ['_vendor.js'],
    dynamicImports: ['web/app/signed-in-routes.tsx'],
    css: ['assets/index.css'],
  },
  '_vendor.js': { file: 'assets/vendor.js' },
  'web/app/signed-in-routes.tsx': {
    file: 'assets/signed-in.js',
    isDynamicEntry: true,
    imports: ['_vendor.js', '_grid.js'],
  },
  '_grid.js': { file: 'assets/grid.js' },
};

describe('bundle report', () => {
  it("counts the entry's static imports and the screen's lazy chunks, each file once", () => {
    const dir = fakeBuild(
      {
        'assets/index.js': 40_000,
        'assets/vendor.js': 50_000,
        'assets/signed-in.js': 10_000,
        'assets/grid.js': 5_000,
        'assets/index.css': 1_000,
      },
      manifest,
    );
    const [login, area] = measureScreens(dir, manifest, [
      { name: 'login', lazy: [], budgetKb: 150 },
      { name: 'area', lazy: ['web/app/signed-in-routes.tsx'], budgetKb: 250 },
    ]);
    expect(login?.js.map((f) => f.file).sort()).toEqual(['assets/index.js', 'assets/vendor.js']);
    expect(login?.jsRaw).toBe(90_000);
    // Random bytes do not compress: gzip is the raw size plus a little framing.
    expect(login?.jsGzip).toBeGreaterThan(90_000);
    expect(area?.js).toHaveLength(4);
    expect(area?.jsRaw).toBe(105_000);
    expect(login?.css.map((f) => f.file)).toEqual(['assets/index.css']);
    expect(budgetProblems([login!, area!])).toEqual([]);
  });

  it('--check fails with the screen, its size and its budget when the login page is over', () => {
    const dir = fakeBuild(
      { 'assets/index.js': 120_000, 'assets/vendor.js': 40_000, 'assets/index.css': 10 },
      { 'index.html': manifest['index.html']!, '_vendor.js': manifest['_vendor.js']! },
    );
    let failure: { status: number; stderr: string } | undefined;
    try {
      execFileSync(
        process.execPath,
        ['--import', 'tsx', 'scripts/bundle-report.ts', '--dir', dir, '--check'],
        { stdio: 'pipe', encoding: 'utf8' },
      );
    } catch (err) {
      failure = err as { status: number; stderr: string };
    }
    expect(failure?.status).toBe(1);
    expect(failure?.stderr).toMatch(
      /bundle budget: login downloads 16\d\.\d KB of JS gzip, over its budget of 150 KB/,
    );
  });
});
