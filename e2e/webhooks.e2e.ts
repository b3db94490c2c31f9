import { describe, expect, it } from 'vitest';
import { adminApi, asAdmin, withServerAndReceiver } from './support/suite.ts';
import { expectPath, expectToast } from './support/ui.ts';

// Admin → Webhooks → Send test event (issue 30): a signed sample reaches a local receiver and
// the toast says what it answered. The receiver is on 127.0.0.1: private outbound allowed.
const receiver = withServerAndReceiver(() => ({ status: 202, body: 'accepted' }));

describe('Webhooks in Chromium', () => {
  it('sends a test event to an endpoint and shows its answer', async () => {
    const url = `${receiver().url}/crm`;
    await adminApi('POST', '/webhooks', { url, events: ['lead.created'] });
    await asAdmin('webhooks-test', async (page) => {
      await page.goto(`${page.url().replace(/\/[^/]*$/, '')}/admin/webhooks`);
      await expectPath(page, '/admin/webhooks');
      await page.getByRole('button', { name: `More for ${url}` }).click();
      await page.getByRole('menuitem', { name: 'Send test event' }).click();
      await expectToast(page, 'Test Delivered');
      await page.getByText(/answered 202 to a sample lead\.created/).waitFor();
      expect(receiver().requests).toHaveLength(1);
      expect(receiver().requests[0]!.headers['webhook-signature']).toMatch(/^v1,/);
    });
  });
});
