import { beforeAll, describe, expect, it } from 'vitest';
import { passwordToken } from './support/api.ts';
import { findLink, readMailbox, waitForMail } from './support/mailbox.ts';
import { journey, server, withServerAndBrowser } from './support/suite.ts';
import { expectPath, expectToast, signInViaUi, uniqueEmail } from './support/ui.ts';

// Account e-mails in the browser: the login page offers the confirmation mail again, and a
// password change on an "old" session asks for the code mailed by /reauthenticate.
// AUTH_REAUTHENTICATE_AFTER=0 makes every session old; AUTH_MAIL_INTERVAL=1 spares the wait.
withServerAndBrowser({ AUTH_REAUTHENTICATE_AFTER: '0', AUTH_MAIL_INTERVAL: '1' });

beforeAll(async () => {});
describe('account e-mails in Chromium', () => {
  it('resends the confirmation from /login, then changes the password with the mailed code', async () => {
    const email = uniqueEmail('buyer');
    const res = await fetch(`${server.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
      body: JSON.stringify({
        email,
        password: 'buyer-pass-1',
        data: { role: 'buyer', full_name: 'Robin Buyer' },
      }),
    });
    expect(res.status).toBe(200);
    await waitForMail(server.url, email, /Confirm your e-mail/);
    await new Promise((r) => setTimeout(r, 1100));

    await journey('account-resend-and-reauthenticate', async (page) => {
      await signInViaUi(page, email, 'buyer-pass-1');
      await expectToast(page, 'Login Failed', 'Email not confirmed');
      await page.getByRole('button', { name: 'Resend confirmation e-mail' }).click();
      await expectToast(page, 'Confirmation e-mail sent');
      const deadline = Date.now() + 20_000;
      let confirmations = 0;
      while (Date.now() < deadline) {
        const mails = await readMailbox(server.url, email);
        confirmations = mails.filter((m) => /Confirm your e-mail/.test(m.subject)).length;
        if (confirmations >= 2) break;
        await new Promise((r) => setTimeout(r, 300));
      }
      expect(confirmations).toBe(2);
      const [latest] = (await readMailbox(server.url, email)).filter((m) =>
        /Confirm your e-mail/.test(m.subject),
      );
      await page.goto(findLink(latest!, '/auth/v1/verify'));
      await expectPath(page, '/login');
      await signInViaUi(page, email, 'buyer-pass-1');
      await expectToast(page, 'Login Successful');
      await expectPath(page, '/buyer-dashboard');

      await page.getByRole('link', { name: 'Change password' }).click();
      await expectPath(page, '/account/password');
      await page.getByLabel(/^New password/).fill('buyer-pass-2');
      await page.getByLabel(/^Confirm new password/).fill('buyer-pass-2');
      await page.getByRole('button', { name: 'Change password' }).click();
      await expectToast(page, 'Code sent');
      const codeMail = await waitForMail(server.url, email, /confirmation code/);
      const code = /code[^:]*: (\d{6})/.exec(codeMail.text)?.[1];
      expect(code).toMatch(/^\d{6}$/);
      await page.getByLabel(/^Code from the e-mail/).fill(code!);
      await page.getByRole('button', { name: 'Change password' }).click();
      await expectToast(page, 'Password changed');
      await expectPath(page, '/buyer-dashboard');
    });
    // The new password signs in (passwordToken throws on anything but 200).
    expect(await passwordToken(server.url, email, 'buyer-pass-2')).toBeTruthy();
  });
});
