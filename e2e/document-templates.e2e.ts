import { describe, it } from 'vitest';
import {
  approvedPublisher,
  asAdmin,
  seedingAdminToken,
  withServerAndBrowser,
} from './support/suite.ts';
import { expectToast, uniqueEmail } from './support/ui.ts';

// Document templates (issue 33): the admin edits the agreement's template (an unknown
// placeholder is refused in the form), then sends a publisher their agreement from it.
withServerAndBrowser();

describe('Document templates in Chromium', () => {
  it('edits the agreement template and sends an agreement from it', async () => {
    const admin = await seedingAdminToken();
    const id = await approvedPublisher(admin, {
      name: 'Tina Template',
      email: uniqueEmail('tina'),
      password: 'Template-2026!',
    });

    await asAdmin('document-templates', async (page) => {
      await page.goto('/admin/signatures');
      await page.getByRole('button', { name: 'Templates' }).click();
      const dialog = page.getByRole('dialog', { name: 'Document templates' });
      const agreement = dialog.getByRole('textbox', { name: 'Agreement' });
      await agreement.waitFor();
      await agreement.fill('Tina test agreement\n\nMade with {{publisher.nickname}} on {{date}}.');
      await dialog.getByRole('button', { name: 'Save templates' }).click();
      await dialog.getByText('Unknown placeholder {{publisher.nickname}}.').waitFor();
      await agreement.fill(
        'Tina test agreement\n\nMade with {{publisher.name}} ({{publisher.email}}) on {{date}}.',
      );
      await dialog.getByRole('button', { name: 'Save templates' }).click();
      await expectToast(page, 'Templates Saved');

      await page.goto(`/admin/publishers/${id}`);
      await page.getByRole('heading', { name: 'Signatures' }).waitFor();
      await page.getByRole('button', { name: 'Send for signature' }).click();
      const send = page.getByRole('dialog', { name: 'Send for signature' });
      await send.getByText('Send from template').click();
      await send.getByRole('button', { name: 'Send' }).click();
      await expectToast(page, 'Document Sent');
      await page.getByText('Tina test agreement').first().waitFor();
    });
  });
});
