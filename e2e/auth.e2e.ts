import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousAxeProblems } from './support/a11y.ts';
import { saveScreenshot, viewports } from './support/browser.ts';
import { findLink, waitForMail } from './support/mailbox.ts';
import {
  asAdmin,
  asPublisher,
  journey,
  pendingPublisher,
  server,
  withServerAndBrowser,
} from './support/suite.ts';
import { createAccount, expectPath, expectToast, signInViaUi, uniqueEmail } from './support/ui.ts';

withServerAndBrowser();

async function fillPublisherSignup(page: Page, email: string, password: string) {
  await page.goto('/signup');
  await page.getByLabel('Full legal name').fill('Pat Publisher');
  await page.getByLabel('Business legal name').fill('Pat Media LLC');
  await page.getByLabel('Address').fill('12 Main Street, Springfield');
  await page.getByLabel('Phone number').fill('+1 555 0123');
  await page.getByLabel('WhatsApp number').fill('+1 555 0124');
  await page.getByLabel('Microsoft Teams ID').fill('pat.publisher');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(password);
}

describe('public auth screens in Chromium', () => {
  it('publisher: sign up, sign in, land on /dashboard with the pending notice, sign out', async () => {
    const email = uniqueEmail('publisher');
    await journey('publisher-signup-signin', async (page) => {
      await fillPublisherSignup(page, email, 'publisher-pass-1');
      await createAccount(page, 'publisher');

      await signInViaUi(page, email, 'publisher-pass-1');
      await expectToast(page, 'Login Successful', 'Redirecting to your dashboard...');
      await expectPath(page, '/dashboard');
      await page.getByRole('heading', { name: 'Welcome, Pat Publisher!' }).waitFor();
      await page.getByText('Your account is pending approval').waitFor();
      const nav = page.getByRole('navigation', { name: 'Publisher navigation' });
      await nav.getByRole('link', { name: 'Dashboard' }).waitFor();

      await page.getByRole('button', { name: 'Sign Out' }).click();
      await expectToast(page, 'Logged out', 'You have been successfully logged out.');
      await expectPath(page, '/login');
      // Signed out for real: the area sends us back to /login.
      await page.goto('/dashboard');
      await expectPath(page, '/login');
    });
  });

  it('publisher sign-up shows inline messages for empty required fields and sends nothing', async () => {
    await journey('publisher-signup-validation', async (page) => {
      await page.goto('/signup');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByText('Full legal name is required').waitFor();
      await page.getByText('Microsoft Teams ID is required').waitFor();
      await page.getByText('Email is required').waitFor();
      expect(new URL(page.url()).pathname).toBe('/signup');
      const emailType = await page.getByLabel('Email').getAttribute('type');
      expect(emailType).toBe('email');
    });
  });

  it('buyer: sign up, blocked until confirmed, follow the mailed link, sign in to /buyer-dashboard', async () => {
    const email = uniqueEmail('buyer');
    await journey('buyer-signup-confirm-signin', async (page) => {
      await page.goto('/buyer-signup');
      await page.getByLabel('Full name').fill('Bea Buyer');
      await page.getByLabel('Company name').fill('Bea Brands Inc');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel(/^Password/).fill('buyer-pass-1');
      await createAccount(page, 'buyer');

      // Not confirmed yet: the server refuses the sign-in and the page says why.
      await signInViaUi(page, email, 'buyer-pass-1');
      await expectToast(page, 'Login Failed', 'Email not confirmed');
      await expectPath(page, '/login');

      const mail = await waitForMail(server.url, email, /confirm/i);
      const link = findLink(mail, '/auth/v1/verify');
      expect(link).toContain('type=signup');
      await page.goto(link);
      await expectPath(page, '/login');

      await signInViaUi(page, email, 'buyer-pass-1');
      await expectToast(page, 'Login Successful');
      await expectPath(page, '/buyer-dashboard');
      await page.getByRole('heading', { name: 'Welcome, Bea Buyer!' }).waitFor();

      // A buyer is not a publisher: /dashboard sends them to /login.
      await page.goto('/dashboard');
      await expectPath(page, '/login');
    });
  });

  it('forgot password: mail link, mismatch and too-short checks, reset, old password refused, new one works', async () => {
    const { email } = await pendingPublisher('forgetful', 'old-password-1');
    await journey('forgot-reset-password', async (page) => {
      await page.goto('/login');
      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      await expectPath(page, '/forgot-password');
      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await expectToast(
        page,
        'Check your email',
        'A password reset link has been sent to your email address.',
      );
      await page
        .getByText('Password reset email sent! Please check your inbox (and spam folder).')
        .waitFor();
      await page.getByRole('link', { name: 'Back to login' }).waitFor();

      const mail = await waitForMail(server.url, email, /reset/i);
      const link = findLink(mail, '/auth/v1/verify');
      expect(link).toContain('type=recovery');
      await page.goto(link);
      await expectPath(page, '/reset-password');

      const newPassword = page.getByLabel(/^New password/);
      const confirm = page.getByLabel('Confirm new password');
      await newPassword.fill('new-password-1');
      await confirm.fill('new-password-2');
      await page.getByRole('button', { name: 'Reset password' }).click();
      await expectToast(page, 'Passwords do not match', 'Please make sure your passwords match.');

      await newPassword.fill('abc');
      await confirm.fill('abc');
      await page.getByRole('button', { name: 'Reset password' }).click();
      await expectToast(
        page,
        'Password too short',
        'Password should be at least 6 characters long.',
      );

      await newPassword.fill('new-password-1');
      await confirm.fill('new-password-1');
      await page.getByRole('button', { name: 'Reset password' }).click();
      await expectToast(page, 'Password Reset Successful');
      await expectPath(page, '/login');

      await signInViaUi(page, email, 'old-password-1');
      await expectToast(page, 'Login Failed', 'Invalid login credentials');

      await signInViaUi(page, email, 'new-password-1');
      await expectToast(page, 'Login Successful');
      await expectPath(page, '/dashboard');

      // The link works once: opened again it lands on the invalid-link message.
      await page.goto(link);
      await page
        .getByText('Invalid or expired password reset link. Please request a new one.')
        .waitFor();
      await page.getByRole('link', { name: 'Request a new reset link' }).waitFor();
    });
  });

  it('/reset-password opened without a recovery link says the link is invalid', async () => {
    await journey('reset-without-recovery', async (page) => {
      await page.goto('/reset-password');
      await page
        .getByText('Invalid or expired password reset link. Please request a new one.')
        .waitFor();
      expect(await page.getByLabel(/^New password/).count()).toBe(0);
    });
  });

  it('a wrong password shows Login Failed and stays on /login', async () => {
    const { email } = await pendingPublisher('wrongpass', 'right-password-1');
    await journey('wrong-password', async (page) => {
      await signInViaUi(page, email, 'wrong-password-1');
      await expectToast(page, 'Login Failed', 'Invalid login credentials');
      expect(new URL(page.url()).pathname).toBe('/login');
    });
  });

  it('a publisher opening /admin is sent to /login; the admin reaches /admin', async () => {
    const nosy = await pendingPublisher('nosy', 'nosy-password-1');
    await asPublisher(nosy, 'publisher-opens-admin', async (page) => {
      await page.goto('/admin');
      await expectPath(page, '/login');
    });
    await asAdmin('admin-signin', async (page) => {
      await page.getByRole('navigation', { name: 'Admin navigation' }).waitFor();
      // Opening / again sends the admin to the admin area.
      await page.goto('/');
      await expectPath(page, '/admin');
    });
  });

  it('a session ended on the server: the role cannot be read, so Authentication Error and sign-out', async () => {
    const ended = await pendingPublisher('ended', 'ended-password-1');
    await asPublisher(ended, 'session-ended-elsewhere', async (page) => {
      // End the browser's session behind its back, as a sign-out elsewhere or an admin would.
      const token = await page.evaluate(() => {
        const raw = localStorage.getItem('portal-auth');
        return raw ? (JSON.parse(raw) as { access_token: string }).access_token : null;
      });
      expect(token).toBeTruthy();
      const res = await fetch(`${server.url}/auth/v1/logout?scope=global`, {
        method: 'POST',
        headers: { apikey: 'public-anon-key', authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(204);

      await page.goto('/dashboard');
      await expectToast(
        page,
        'Authentication Error',
        'Could not verify your role. Please log in again.',
      );
      await expectPath(page, '/login');
      expect(await page.evaluate(() => localStorage.getItem('portal-auth'))).toBeNull();
    });
  });

  it('/ without a session goes to /login', async () => {
    await journey('root-signed-out', async (page) => {
      await page.goto('/');
      await expectPath(page, '/login');
    });
  });

  it('/login and /signup have no serious or critical accessibility violations', async () => {
    await journey('axe', async (page) => {
      for (const path of ['/login', '/signup', '/buyer-signup', '/forgot-password']) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).waitFor();
        expect(await seriousAxeProblems(page, path)).toEqual([]);
      }
    });
  });

  it('on a phone the sidebar folds behind a burger that opens it', async () => {
    const onPhone = await pendingPublisher('phone', 'phone-password-1');
    await asPublisher(
      onPhone,
      'phone-sidebar',
      async (page) => {
        await page.getByRole('heading', { name: 'Welcome, Api Publisher!' }).waitFor();
        const signOutOnScreen = () =>
          page.evaluate(() => {
            const button = [...document.querySelectorAll('button')].find((b) =>
              b.textContent?.includes('Sign Out'),
            );
            const r = button?.getBoundingClientRect();
            return Boolean(r && r.left >= 0 && r.right <= window.innerWidth && r.width > 0);
          });
        expect(await signOutOnScreen()).toBe(false);
        await page.getByRole('button', { name: 'Open navigation' }).click();
        await page.waitForFunction(() => {
          const button = [...document.querySelectorAll('button')].find((b) =>
            b.textContent?.includes('Sign Out'),
          );
          const r = button?.getBoundingClientRect();
          return Boolean(r && r.left >= 0 && r.right <= window.innerWidth && r.width > 0);
        });
        await page.getByRole('button', { name: 'Sign Out' }).click();
        await expectToast(page, 'Logged out', 'You have been successfully logged out.');
        await expectPath(page, '/login');
      },
      viewports.phone,
    );
  });
});

describe('screenshots for review (.tmp/screenshots)', () => {
  it('captures /login, /signup and the pending dashboard on desktop and phone', async () => {
    const { email } = await pendingPublisher('shots', 'shots-password-1');
    for (const [label, viewport] of Object.entries(viewports)) {
      await journey(
        `screens-${label}`,
        async (page) => {
          await page.goto('/login');
          await page.getByRole('heading', { level: 1 }).waitFor();
          await saveScreenshot(page, `login-${label}`);
          await page.goto('/signup');
          await page.getByRole('heading', { level: 1 }).waitFor();
          await saveScreenshot(page, `signup-${label}`);
          await signInViaUi(page, email, 'shots-password-1');
          await expectPath(page, '/dashboard');
          await page.getByText('Your account is pending approval').waitFor();
          // Let the success toast go so the shot shows the page itself.
          await page
            .locator('.mantine-Notification-root')
            .first()
            .waitFor({ state: 'detached', timeout: 10_000 });
          await saveScreenshot(page, `publisher-dashboard-pending-${label}`);
        },
        viewport,
      );
    }
  });
});
