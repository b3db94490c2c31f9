import { type WebhookEndpoint, webhookEventTypes } from '@contract/outbound.ts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderWithApp } from '@/test/render.tsx';
import { fakeCollection, json, stubApi } from '@/test/stub-api.ts';
import { WebhooksPage } from './webhooks-page.tsx';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ID = '0190a3c4-7e1f-7c2b-9a55-0c1f3a9d2b11';

/** An enabled endpoint as the server answers it: never failing, paused or rotated. */
const endpointOf = (url: string, events: WebhookEndpoint['events']): WebhookEndpoint => ({
  id: ID,
  url,
  events,
  description: null,
  enabled: true,
  paused_at: null,
  failing_since: null,
  previous_secret_expires_at: null,
  created_at: new Date().toISOString(),
});

let endpoints: ReturnType<typeof fakeCollection<WebhookEndpoint>>;
let tests = 0;

beforeEach(() => {
  tests = 0;
  endpoints = fakeCollection(
    '/api/v1/admin/webhooks',
    (body: Pick<WebhookEndpoint, 'url' | 'events'>) => endpointOf(body.url, body.events),
    (e) => ({ ...e, secret: SECRET }),
  );
  stubApi((req) => {
    if (req.path === `/api/v1/admin/webhooks/${ID}/test`) {
      tests++;
      if (tests > 1) {
        return json(429, {
          error: {
            code: 'rate_limited',
            message: 'Too many tests: at most 10 a minute. Try again in 6 s.',
          },
        });
      }
      return json(200, {
        request: { method: 'POST', url: endpoints.items[0]!.url, body: '{}' },
        status: 202,
        body: 'thanks',
        duration_ms: 41,
        error: null,
      });
    }
    return endpoints.route(req);
  });
});

describe('WebhooksPage', () => {
  it('creates an endpoint and shows its secret once, then deletes it only after a confirmation', async () => {
    renderWithApp(<WebhooksPage />);
    await screen.findByText(/No webhook endpoints yet/);
    fireEvent.click(screen.getByRole('button', { name: 'Add Endpoint' }));
    const form = await screen.findByRole('dialog', { name: 'New Webhook Endpoint' });
    // Every event type is offered.
    expect(within(form).getAllByRole('checkbox')).toHaveLength(webhookEventTypes.length);

    fireEvent.click(within(form).getByRole('button', { name: 'Create Endpoint' }));
    expect(await within(form).findByText('Enter a full http:// or https:// URL.')).toBeTruthy();
    expect(within(form).getByText('Choose at least one event type.')).toBeTruthy();
    expect(endpoints.posted).toEqual([]);

    fireEvent.change(within(form).getByRole('textbox', { name: /^URL/ }), {
      target: { value: 'https://crm.example.com/hooks' },
    });
    fireEvent.click(within(form).getByRole('checkbox', { name: 'lead.created' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Create Endpoint' }));

    const once = await screen.findByRole('dialog', { name: 'Signing secret' });
    expect(within(once).getByText(SECRET)).toBeTruthy();
    expect(within(once).getByRole('button', { name: 'Copy secret' })).toBeTruthy();
    expect(endpoints.posted).toEqual([
      { url: 'https://crm.example.com/hooks', events: ['lead.created'] },
    ]);
    fireEvent.click(within(once).getByRole('button', { name: 'I have copied the secret' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Signing secret' })).toBeNull(),
    );
    expect(await screen.findByText('https://crm.example.com/hooks')).toBeTruthy();
    expect(screen.queryByText(SECRET)).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'More for https://crm.example.com/hooks' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete endpoint?' });
    expect(within(confirm).getByText(/stops receiving events/)).toBeTruthy();
    expect(endpoints.deleted).toEqual([]);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete Endpoint' }));
    await waitFor(() => expect(endpoints.deleted).toEqual([ID]));
    expect(await screen.findByText(/No webhook endpoints yet/)).toBeTruthy();
  });

  const oneEndpoint = () => [endpointOf('https://crm.example.com/hooks', ['lead.created'])];
  const sendTest = async () => {
    renderWithApp(<WebhooksPage />);
    fireEvent.click(
      await screen.findByRole(
        'button',
        { name: 'More for https://crm.example.com/hooks' },
        { timeout: 5000 },
      ),
    );
    fireEvent.click(
      await screen.findByRole('menuitem', { name: 'Send test event' }, { timeout: 5000 }),
    );
  };

  /** Sends a test event to the one endpoint and waits for the toast that says `answer`. */
  const sendTestAndRead = async (answer: string) => {
    await sendTest();
    expect(await screen.findByText(answer, {}, { timeout: 5000 })).toBeTruthy();
  };

  it('sends a test event and says what the endpoint answered', async () => {
    endpoints.items = oneEndpoint();
    await sendTestAndRead(
      'https://crm.example.com/hooks answered 202 to a sample lead.created in 41 ms.',
    );
    expect(tests).toBe(1);
  });

  it('says why a test was refused past the limit', async () => {
    endpoints.items = oneEndpoint();
    tests = 1;
    await sendTestAndRead('Too many tests: at most 10 a minute. Try again in 6 s.');
  });
});
