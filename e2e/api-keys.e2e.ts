import { describe, expect, it } from 'vitest';
import { seriousAxeProblems } from './support/a11y.ts';
import {
  adminAccessToken,
  approvedPublisher,
  asUser,
  server,
  withServerAndBrowser,
} from './support/suite.ts';
import { expectPath, expectToast, uniqueEmail } from './support/ui.ts';

// Profile → API keys (issue 30): a publisher makes a key in the browser, sees it once, a
// script reads their leads with it, and Revoke stops it at once.
withServerAndBrowser();

const publisher = { name: 'Kai Scripter', email: uniqueEmail('pub'), password: 'pub-pass-12' };

const withKey = (key: string, path: string) =>
  fetch(`${server.url}/api/v1/${path}`, { headers: { authorization: `Bearer ${key}` } });

describe('API keys in Chromium', () => {
  it('creates a key, shows it once, a script uses it, Revoke stops it', async () => {
    await approvedPublisher(await adminAccessToken(), publisher);
    await asUser(publisher.email, publisher.password, 'api-keys-publisher', async (page) => {
      await expectPath(page, '/dashboard');
      await page.getByRole('link', { name: 'API keys' }).click();
      await expectPath(page, '/dashboard/api-keys');
      await page.getByText('No API keys yet.', { exact: false }).waitFor();
      await page.getByRole('button', { name: 'Create API Key' }).click();
      const form = page.getByRole('dialog', { name: 'New API Key' });
      // A publisher is offered the three read scopes, no write scope.
      await form.getByRole('checkbox').first().waitFor();
      expect(await form.getByRole('checkbox').count()).toBe(3);
      await form.getByLabel(/^Name/).fill('Nightly export');
      await form.getByRole('checkbox', { name: /leads:read/ }).check();
      await form.getByRole('button', { name: 'Create Key' }).click();

      const once = page.getByRole('dialog', { name: 'Key Nightly export' });
      const shown = once.locator('pre, code').filter({ hasText: /^pk_/ }).first();
      const key = ((await shown.textContent()) ?? '').trim();
      expect(key).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
      // Scanned once the form has faded out: mid-fade its title and labels read as 1.03:1.
      await form.waitFor({ state: 'hidden' });
      expect(await seriousAxeProblems(page)).toEqual([]);
      await once.getByRole('button', { name: 'I have copied the key' }).click();
      await once.waitFor({ state: 'hidden' });

      // The list shows its first characters, never the key.
      await page.getByText('Nightly export').waitFor();
      await page.getByText(`${key.slice(0, 12)}…`).waitFor();
      expect(await page.content()).not.toContain(key);

      // A script with the key: its scope reads, other scopes and other areas are refused.
      expect((await withKey(key, 'publisher/leads')).status).toBe(200);
      expect((await withKey(key, 'publisher/reports')).status).toBe(403);
      expect((await withKey(key, 'me/api-keys')).status).toBe(403);
      // The list shows when it was last used, once read again.
      await page.reload();
      await page.getByRole('row', { name: /Nightly export/ }).waitFor();
      const row = page.getByRole('row', { name: /Nightly export/ });
      expect((await row.locator('td').nth(4).textContent()) ?? '').not.toBe('Never');

      await row.getByRole('button', { name: 'Revoke Nightly export' }).click();
      const confirm = page.getByRole('dialog', { name: 'Revoke API key?' });
      await confirm.getByRole('button', { name: 'Revoke Key' }).click();
      await expectToast(page, 'Key Revoked');
      await page.getByText('No API keys yet.', { exact: false }).waitFor();
      const refused = await withKey(key, 'publisher/leads');
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
        'This API key was revoked. Create a new one under Profile → API keys.',
      );
    });
  });
});
