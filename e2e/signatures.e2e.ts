import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pdf } from './support/files.ts';
import {
  api,
  approvedPublisher,
  asAdmin,
  asUser,
  seedingAdminToken,
  withServerAndBrowser,
} from './support/suite.ts';
import { expectToast, uniqueEmail } from './support/ui.ts';

// Documents people sign (issue 33): the admin sends an agreement from the publisher's page,
// the publisher reads it in the page and signs it, downloads the sealed PDF, and the portal's
// check says the copy is unchanged and sealed by it.
withServerAndBrowser();
const publisher = { name: 'Sally Signer', email: uniqueEmail('signer'), password: 'Sign-it-2026!' };

describe('Signatures in Chromium', () => {
  it('admin sends, the publisher reads and signs in the page and downloads the signed PDF', async () => {
    const admin = await seedingAdminToken();
    const id = await approvedPublisher(admin, publisher);

    await asAdmin('signatures-send', async (page) => {
      await page.goto(`/admin/publishers/${id}`);
      await page.getByRole('heading', { name: 'Signatures' }).waitFor();
      await page.getByRole('button', { name: 'Send for signature' }).click();
      const dialog = page.getByRole('dialog', { name: 'Send for signature' });
      await dialog.getByLabel('Title').fill('Marketing agreement 2026');
      await dialog.locator('input[type="file"]').setInputFiles([pdf('agreement.pdf')]);
      await dialog.getByRole('button', { name: 'Send' }).click();
      await expectToast(page, 'Document Sent');
      await page.getByText('Marketing agreement 2026').first().waitFor();
    });

    let signed: Buffer | undefined;
    await asUser(publisher.email, publisher.password, 'signatures-sign', async (page) => {
      await page.goto('/dashboard/documents');
      await page.getByRole('heading', { name: 'Documents to sign' }).waitFor();
      await page.getByRole('link', { name: 'Read and sign' }).click();
      await page.getByRole('heading', { name: 'Marketing agreement 2026' }).waitFor();
      await page.getByTitle('Marketing agreement 2026 (PDF)').waitFor();
      await page.getByRole('textbox', { name: /Full legal name/ }).fill('Sally Signer');
      await page.getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Sign', exact: true }).click();
      await expectToast(page, 'Document Signed');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download signed PDF' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('Marketing agreement 2026 (signed).pdf');
      signed = readFileSync(await download.path());
    });

    // The downloaded copy is what the portal sealed.
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(signed!)], { type: 'application/pdf' }), 'x.pdf');
    const check = await api<{ valid: boolean; signer: string }>(
      admin,
      'POST',
      'documents/verify',
      form,
    );
    expect(check).toMatchObject({ valid: true, signer: `Sally Signer <${publisher.email}>` });
  });
});
