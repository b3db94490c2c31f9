import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminPaths, buyerPaths, paths, publisherPaths } from './routes.ts';
import { twoFactorPaths } from './two-factor-paths.ts';

// The repository's root (vitest runs there).
const read = (file: string) => readFileSync(path.resolve(file), 'utf8');
const script = read('public/app-shell.js');
const indexHtml = read('index.html');

/** The shell public/app-shell.js picks for `pathname` (run against a stand-in window). */
function shellFor(pathname: string): string | undefined {
  const attributes: Record<string, string> = {};
  const document = {
    documentElement: { setAttribute: (k: string, v: string) => (attributes[k] = v) },
  };
  new Function('window', 'document', script)({ location: { pathname } }, document);
  return attributes['data-shell'];
}

describe('the static app shell (index.html, public/app-shell.js)', () => {
  it('draws the login heading on /login, the form card on the other public screens', () => {
    expect(shellFor(paths.login)).toBe('login');
    expect(shellFor(`${paths.login}/`)).toBe('login');
    for (const p of [
      paths.signup,
      paths.buyerSignup,
      paths.forgotPassword,
      paths.resetPassword,
      paths.changePassword,
      paths.twoFactorVerify,
      twoFactorPaths.setup,
      twoFactorPaths.settings,
    ]) {
      expect(shellFor(p), p).toBe('public');
    }
  });

  it('draws the area frame everywhere else', () => {
    for (const p of [
      paths.root,
      adminPaths.dashboard,
      adminPaths.leads,
      publisherPaths.overview,
      publisherPaths.lead('x'),
      buyerPaths.dashboard,
      '/no-such-page',
    ]) {
      expect(shellFor(p), p).toBe('area');
    }
  });

  it("shows /login's own heading line, so the form replaces it in place", () => {
    const login = read('web/features/auth/components/login-page.tsx');
    const line = 'Enter your email and password to access your dashboard.';
    expect(login).toContain(line);
    expect(indexHtml).toContain(`<p>${line}</p>`);
  });
});
