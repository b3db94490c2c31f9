import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeProblems } from './support/a11y.ts';
import { passwordToken, signUpPublisherViaApi } from './support/api.ts';
import { saveScreenshot, viewports } from './support/browser.ts';
import { readMailbox, waitForMail } from './support/mailbox.ts';
import { createAdminViaCli, E2E_ADMIN } from './support/server.ts';
import {
  adminAccessToken,
  api,
  approvePublisher,
  asAdmin,
  asPublisher,
  asUser,
  server,
  withServerAndBrowser,
} from './support/suite.ts';
import { expectToast, pageOverflow, uniqueEmail } from './support/ui.ts';

// Issue 16 item 1 in the browser: a publisher signs up; the admin's bell count rises, the list
// leads to the publisher's screen and the count drops. An admin who turned sign-up e-mails off
// gets none while the other does. The publisher's bell shows their approval.

withServerAndBrowser();
let adminToken: string;
const quietAdmin = { email: uniqueEmail('quiet-admin'), password: 'quiet-admin-pass-1' };
const publisher = { email: uniqueEmail('bell-pub'), password: 'publisher-pass-1' };

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });

/** react-query reads again when the tab becomes visible: what a user's return to the tab does. */
async function returnToTab(page: Page) {
  await page.evaluate(() => {
    window.dispatchEvent(new Event('visibilitychange'));
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

beforeAll(async () => {
  adminToken = await adminAccessToken();
  await createAdminViaCli(server, quietAdmin.email, quietAdmin.password);
});

describe('notifications (issue 16, item 1)', () => {
  it('an admin turns sign-up e-mails off on Settings', async () => {
    await asUser(quietAdmin.email, quietAdmin.password, 'bell-quiet-admin', async (page) => {
      await page.goto('/admin/settings');
      const card = page.locator('.mantine-Card-root').filter({ hasText: 'E-mail me when…' });
      const signUps = card.getByRole('checkbox', { name: 'A publisher signs up' });
      await signUps.waitFor();
      expect(await signUps.isChecked()).toBe(true);
      const save = card.getByRole('button', { name: 'Save e-mail choices' });
      expect(await save.isDisabled()).toBe(true);
      await signUps.uncheck();
      await save.click();
      await expectToast(page, 'E-mail choices saved');
      await saveScreenshot(page, 'bell-email-choices');
      // Saved on the server: a reload shows it off, the others still on.
      await page.reload();
      await card.getByRole('checkbox', { name: 'A publisher signs up' }).waitFor();
      expect(await card.getByRole('checkbox', { name: 'A publisher signs up' }).isChecked()).toBe(
        false,
      );
      expect(
        await card.getByRole('checkbox', { name: 'A buyer creates a campaign' }).isChecked(),
      ).toBe(true);
    });
  });

  it('a publisher signs up: the admin’s bell count rises, the item leads to the publisher, the count drops', async () => {
    await asAdmin('bell-admin', async (page, errors) => {
      await bell(page).waitFor();
      expect(await bell(page).getAttribute('aria-label')).toBe('Notifications');
      // Nothing yet: the empty state.
      await bell(page).click();
      const panel = page.getByRole('dialog', { name: 'Notifications' });
      await panel.getByText('You are all caught up').waitFor();
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'hidden' });

      await signUpPublisherViaApi(server.url, publisher.email, publisher.password, {
        full_legal_name: 'Bella Bellwether',
        business_legal_name: 'Bellwether Media LLC',
      });
      // The count is read every 30 s and when the tab regains focus.
      await page.waitForTimeout(5_500);
      await returnToTab(page);
      // The badge counts the sign-up waiting for approval and its unread notification (issue 34).
      await page
        .getByRole('button', { name: 'Notifications, 1 waiting, 1 unread' })
        .waitFor({ timeout: 40_000 });
      await expect(page.locator('.mantine-Indicator-indicator').textContent()).resolves.toBe('2');

      await bell(page).click();
      await panel.waitFor();
      const item = panel.getByRole('button', {
        name: 'Unread: New publisher sign-up: Bella Bellwether',
      });
      await item.waitFor();
      await expect(panel.getByText(publisher.email, { exact: false }).count()).resolves.toBe(1);
      await saveScreenshot(page, 'bell-admin-open-desktop', { fullPage: false });
      expect(await seriousAxeProblems(page, 'admin bell open')).toEqual([]);

      await item.click();
      await page.waitForURL((u) => u.pathname.startsWith('/admin/publishers/'));
      await page.getByText('Bellwether Media LLC').first().waitFor();
      // Read, the notification leaves the count; the sign-up still waits for approval.
      await page.getByRole('button', { name: 'Notifications, 1 waiting', exact: true }).waitFor();

      // Read stays read: the list shows it without the unread mark.
      await bell(page).click();
      await panel
        .getByRole('button', { name: 'New publisher sign-up: Bella Bellwether', exact: true })
        .waitFor();
      expect(await panel.getByRole('button', { name: 'Mark all read' }).isDisabled()).toBe(true);
      expect(errors).toEqual([]);
    });

    // E-mail: the admin who kept sign-ups on got it; the one who turned them off did not.
    const mail = await waitForMail(server.url, E2E_ADMIN.email, /New publisher sign-up/);
    expect(mail.subject).toBe('New publisher sign-up: Bella Bellwether');
    expect(mail.text).toContain(`${server.url}/admin/publishers/`);
    const quiet = await readMailbox(server.url, quietAdmin.email);
    expect(quiet.map((m) => m.subject)).not.toContain('New publisher sign-up: Bella Bellwether');
    // Yet the quiet admin's bell has it, like every admin's.
    const quietToken = await passwordToken(server.url, quietAdmin.email, quietAdmin.password);
    const count = await api<{ unread: number }>(quietToken, 'GET', 'me/notifications/unread-count');
    expect(count.unread).toBe(1);
  });

  it('on a phone the bell sits in the header and its list fits the screen', async () => {
    await asAdmin(
      'bell-admin-phone',
      async (page, errors) => {
        await bell(page).click();
        const panel = page.getByRole('dialog', { name: 'Notifications' });
        await panel.getByText('New publisher sign-up: Bella Bellwether').waitFor();
        await saveScreenshot(page, 'bell-admin-open-phone', { fullPage: false });
        const box = await panel.boundingBox();
        expect(box!.x).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width).toBeLessThanOrEqual(viewports.phone.width);
        expect(await pageOverflow(page)).toBe(0);
        expect(errors).toEqual([]);
      },
      viewports.phone,
    );
  });

  it('the publisher’s bell shows the approval that e-mailed them; Mark all read clears it', async () => {
    await approvePublisher(adminToken, publisher.email);
    await waitForMail(server.url, publisher.email, /approved/);

    for (const [name, viewport] of [
      ['desktop', viewports.desktop],
      ['phone', viewports.phone],
    ] as const) {
      await asPublisher(
        publisher,
        `bell-publisher-${name}`,
        async (page, errors) => {
          await page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
          const panel = page.getByRole('dialog', { name: 'Notifications' });
          await panel
            .getByRole('button', { name: 'Unread: Your publisher account is approved' })
            .waitFor();
          await saveScreenshot(page, `bell-publisher-open-${name}`, { fullPage: false });
          expect(await seriousAxeProblems(page, `publisher bell ${name}`)).toEqual([]);
          if (name === 'phone') {
            await panel.getByRole('button', { name: 'Mark all read' }).click();
            await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
            await panel
              .getByRole('button', { name: 'Your publisher account is approved', exact: true })
              .waitFor();
          }
          expect(errors).toEqual([]);
        },
        viewport,
      );
    }
  });
});
