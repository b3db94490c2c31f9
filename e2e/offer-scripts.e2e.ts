import { beforeAll, describe, expect, it } from 'vitest';
import { passwordToken } from './support/api.ts';
import { saveScreenshot } from './support/browser.ts';
import { formOf, mp3, pdf } from './support/files.ts';
import { E2E_ADMIN } from './support/server.ts';
import {
  adminApi,
  approvedPublisher,
  asUser,
  createOffer,
  seedingAdminToken,
  server,
  withServerAndBrowser,
} from './support/suite.ts';
import { expectToast, uniqueEmail } from './support/ui.ts';

// Issue 33, item 4 in a browser: the admin changes an offer's script in the offer form; the
// approved publisher sees the change as a diff on their Offers page and acknowledges it; the
// admin sees who acknowledged which version.
withServerAndBrowser();
const publisher = {
  email: uniqueEmail('script-pub'),
  password: 'publisher-pass-1',
  name: 'Sasha Script',
};
const TITLE = 'Medicare Script Inbound';
let offerId: string;

beforeAll(async () => {
  const admin = await seedingAdminToken();
  await approvedPublisher(admin, publisher);
  offerId = (
    await createOffer(admin, {
      title: TITLE,
      vertical: 'Medicare',
      payout: 30,
      script_instructions: 'Greet the caller\nAsk for the ZIP code\nTransfer',
    })
  ).id;
  // The publisher applies and the admin approves: the script is theirs to read.
  const token = await passwordToken(server.url, publisher.email, publisher.password);
  const start = await fetch(`${server.url}/api/v1/publisher/applications`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ offer_id: offerId }),
  });
  const { id } = (await start.json()) as { id: string };
  const sent = await fetch(`${server.url}/api/v1/publisher/applications/${id}/compliance`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: formOf(['media', mp3('s.mp3')], ['document', pdf('s.pdf')]),
  });
  expect(sent.status).toBe(201);
  await adminApi('PATCH', `/applications/${id}`, { status: 'approved' });
  // Version 1 acknowledged already: the journey is about a change.
  const ack = await fetch(`${server.url}/api/v1/publisher/offers/${offerId}/script/acknowledge`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ version: 1 }),
  });
  expect(ack.status).toBe(200);
});

describe('offer script versions (issue 33)', () => {
  it('the admin changes the script, the publisher reads the diff and acknowledges', async () => {
    await asUser(E2E_ADMIN.email, E2E_ADMIN.password, 'scripts-admin', async (page) => {
      await page.goto('/admin/offers');
      await page.getByRole('button', { name: `Edit offer ${TITLE}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit Offer' });
      await dialog
        .getByRole('textbox', { name: 'Script instructions' })
        .fill('Greet the caller\nAsk for the state\nTransfer');
      await dialog.getByText('Hold their calls').click();
      await dialog.getByRole('textbox', { name: 'Days to acknowledge' }).fill('2');
      await dialog.getByRole('button', { name: 'Save changes' }).click();
      await expectToast(page, 'Offer Updated');
    });

    await asUser(publisher.email, publisher.password, 'scripts-publisher', async (page) => {
      // The overview's attention item leads to the Offers page.
      await page.goto('/dashboard');
      const notice = page.getByRole('alert').filter({ hasText: 'Call scripts changed' });
      await notice.getByText(`"${TITLE}"`, { exact: false }).waitFor();
      await notice.getByRole('link', { name: 'Offers page' }).click();
      await page.waitForURL(/\/dashboard\/offers/);
      const card = page.getByTestId('offer-card').filter({ hasText: TITLE });
      await card.getByText('Changed: acknowledge').waitFor();
      await page.getByText('Scripts changed: please read and acknowledge').waitFor();
      await card.getByRole('button', { name: `Read script changes: ${TITLE}` }).click();
      const dialog = page.getByRole('dialog', { name: `Script: ${TITLE}` });
      await dialog.getByText('What changed since version 1').waitFor();
      const lines = dialog.getByTestId('script-diff').getByRole('listitem');
      await lines.first().waitFor();
      expect(await lines.evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')))).toEqual(
        ['same', 'removed', 'added', 'same'],
      );
      await dialog.getByText('Ask for the ZIP code').waitFor();
      await dialog.getByText('held as pending', { exact: false }).waitFor();
      await saveScreenshot(page, 'offer-script-diff');
      await dialog.getByRole('button', { name: /Acknowledge/ }).click();
      await expectToast(page, 'Script acknowledged');
      await card.getByText('Changed: acknowledge').waitFor({ state: 'detached' });
    });

    await asUser(E2E_ADMIN.email, E2E_ADMIN.password, 'scripts-admin-view', async (page) => {
      await page.goto('/admin/offers');
      await page.getByRole('button', { name: `Script versions of ${TITLE}` }).click();
      const dialog = page.getByRole('dialog', { name: `Script versions: ${TITLE}` });
      const row = dialog.getByTestId('script-acknowledgers').getByRole('row', {
        name: new RegExp(publisher.name),
      });
      await row.getByText('Version 2 (current)').waitFor();
      await dialog.getByText('Version 2', { exact: true }).waitFor();
      await saveScreenshot(page, 'offer-script-versions');
    });
  });
});
