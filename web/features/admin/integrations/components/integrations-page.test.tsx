import { presetOf } from '@contract/tracker-presets.ts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, noRoute, pageOf, stubFetch } from '@/test/fake-api.ts';
import { renderWithApp } from '@/test/render.tsx';
import { twilioIntegration } from './integration-test-kit.ts';
import { IntegrationsPage } from './integrations-page.tsx';

const KEY = 'ik_TheSecretKeyShownOnlyOnce_0123456789abcdefghij';

/** An integration as the server answers it: every field with the preset's rule. */
const integration = twilioIntegration({
  account_id: 'AC0123456789abcdef',
  key_prefix: KEY.slice(0, 9),
  field_map: { ...presetOf('twilio').mapping, publisher: { names: ['publisher'] } },
  shares_calls_with: [{ id: '1f0e8d8e-2f7a-4c1e-9a55-0c1f3a9d2b11', name: 'Twilio dial actions' }],
});

let created = false;
let posted: unknown[] = [];

beforeEach(() => {
  created = false;
  posted = [];
  stubFetch(({ url, method, body }) => {
    if (url.pathname === '/api/v1/admin/integrations/refusals') return json(200, pageOf([]));
    if (url.pathname === '/api/v1/admin/integrations' && method === 'POST') {
      posted.push(body());
      created = true;
      return json(201, { integration, key: KEY });
    }
    if (url.pathname === '/api/v1/admin/integrations') {
      return json(200, pageOf(created ? [integration] : []));
    }
    return noRoute();
  });
});

async function chooseTracker(form: HTMLElement, label: string) {
  fireEvent.click(within(form).getByRole('combobox', { name: /^Tracker/ }));
  fireEvent.click(await screen.findByRole('option', { name: label, hidden: true }));
}

describe('IntegrationsPage', () => {
  it('asks the tracker first, then shows the key once with the setup filled in', async () => {
    renderWithApp(<IntegrationsPage />, { url: '/admin/integrations' });
    await screen.findByText('No integrations yet.');
    fireEvent.click(screen.getByRole('button', { name: 'New Integration' }));
    const form = await screen.findByRole('dialog', { name: 'New Integration' });
    // The tracker is the first field of the form.
    expect(form.querySelector('input')).toBe(
      within(form).getByRole('combobox', { name: /^Tracker/ }),
    );
    await chooseTracker(form, 'Twilio');
    await within(form).findByText(/attributed by tracking number/);
    fireEvent.change(within(form).getByRole('textbox', { name: /^Name/ }), {
      target: { value: 'Twilio numbers' },
    });
    fireEvent.change(within(form).getByRole('textbox', { name: /^Account id/ }), {
      target: { value: 'AC0123456789abcdef' },
    });
    expect(within(form).getByText(/share calls, so one call is one lead/)).toBeTruthy();
    fireEvent.click(within(form).getByRole('button', { name: 'Create Integration' }));

    const keyDialog = await screen.findByRole('dialog', { name: 'Key for Twilio numbers' });
    expect(posted).toEqual([
      {
        name: 'Twilio numbers',
        tracker: 'twilio',
        allowed_ips: [],
        field_map: {},
        account_id: 'AC0123456789abcdef',
      },
    ]);
    expect(within(keyDialog).getByText(KEY)).toBeTruthy();
    expect(within(keyDialog).getByText(/It will not be shown again/)).toBeTruthy();
    expect(within(keyDialog).getByRole('button', { name: 'Copy secret key' })).toBeTruthy();
    // Each of Twilio's setup steps, with the key in its URL and a Copy button of its own.
    const steps = within(keyDialog).getByRole('list', { name: 'Setup steps' });
    expect(within(steps).getAllByRole('listitem')).toHaveLength(presetOf('twilio').setup.length);
    const urls = within(steps).getAllByText(
      `${window.location.origin}/api/v1/ingest/calls?key=${KEY}`,
    );
    expect(urls).toHaveLength(2);
    expect(
      within(steps).getByRole('button', { name: /^Copy webhook URL for <Dial action/ }),
    ).toBeTruthy();
    expect(within(keyDialog).queryByText(/YOUR_KEY/)).toBeNull();

    fireEvent.click(within(keyDialog).getByRole('button', { name: 'I have copied the key' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Key for Twilio numbers' })).toBeNull(),
    );
    // The list shows the tracker and its account; the key itself is gone for good.
    await screen.findByText(`${KEY.slice(0, 9)}…`);
    const table = screen.getByRole('region', { name: 'Integrations' });
    expect(within(table).getByText('Twilio')).toBeTruthy();
    expect(within(table).getByText('AC0123456789abcdef')).toBeTruthy();
    expect(within(table).getByText(/Shares calls with Twilio dial actions/)).toBeTruthy();
    expect(document.body.textContent).not.toContain(KEY);
  });

  it('sends nothing until a tracker is chosen and the source addresses are valid', async () => {
    renderWithApp(<IntegrationsPage />, { url: '/admin/integrations' });
    fireEvent.click(await screen.findByRole('button', { name: 'New Integration' }));
    const form = await screen.findByRole('dialog', { name: 'New Integration' });
    fireEvent.change(within(form).getByRole('textbox', { name: /^Name/ }), {
      target: { value: 'Locked' },
    });
    fireEvent.change(within(form).getByLabelText(/Allowed source addresses/), {
      target: { value: '10.0.0.0/33' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Create Integration' }));
    await within(form).findByText('Choose the tracker that sends the calls.');
    await within(form).findByText(/10\.0\.0\.0\/33 is not an IP address or CIDR range/);
    expect(posted).toEqual([]);
  });

  it('takes a signature with the tracker’s scheme suggested', async () => {
    renderWithApp(<IntegrationsPage />, { url: '/admin/integrations' });
    fireEvent.click(await screen.findByRole('button', { name: 'New Integration' }));
    const form = await screen.findByRole('dialog', { name: 'New Integration' });
    await chooseTracker(form, 'Twilio');
    fireEvent.change(within(form).getByRole('textbox', { name: /^Name/ }), {
      target: { value: 'Signed' },
    });
    fireEvent.click(within(form).getByRole('checkbox', { name: /Check the tracker's signature/ }));
    const scheme = within(form).getByRole('combobox', { name: 'Signature scheme' });
    expect((scheme as HTMLInputElement).value).toMatch(/^Twilio request signature/);
    fireEvent.change(within(form).getByLabelText(/^Signing secret/), {
      target: { value: 'short' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Create Integration' }));
    await within(form).findByText('The signing secret must be at least 8 characters.');
    expect(posted).toEqual([]);
    fireEvent.change(within(form).getByLabelText(/^Signing secret/), {
      target: { value: 'twilio-auth-token-1234' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Create Integration' }));
    await screen.findByRole('dialog', { name: 'Key for Twilio numbers' });
    expect(posted).toEqual([
      expect.objectContaining({
        tracker: 'twilio',
        signature: { scheme: 'twilio', secret: 'twilio-auth-token-1234' },
      }),
    ]);
  });

  it('shows how to connect an existing integration with YOUR_KEY for the key', async () => {
    created = true;
    renderWithApp(<IntegrationsPage />, { url: '/admin/integrations' });
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Twilio numbers' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'How to connect' }));
    const dialog = await screen.findByRole('dialog', { name: 'How to connect · Twilio numbers' });
    expect(
      within(dialog).getByText(/The key was shown once, when the integration was created/),
    ).toBeTruthy();
    expect(
      within(dialog).getAllByText(`${window.location.origin}/api/v1/ingest/calls?key=YOUR_KEY`),
    ).toHaveLength(2);
    // The preset's notes and the vendor pages they were read from.
    expect(within(dialog).getByText(presetOf('twilio').notes[1]!)).toBeTruthy();
    const source = within(dialog).getByRole('link', { name: presetOf('twilio').sources[0]! });
    expect(source.getAttribute('target')).toBe('_blank');
  });

  it("shows each integration's own tracker's setup again from its row menu, revoked or not", async () => {
    const ringba = twilioIntegration({
      id: '8c1f9e9f-3a8b-4d2f-8b66-1d2a4b0e3c22',
      name: 'Ringba main',
      tracker: 'ringba',
      field_map: { ...presetOf('ringba').mapping },
      revoked_at: '2026-11-26T09:00:00.000Z',
    });
    stubFetch(({ url }) => {
      if (url.pathname === '/api/v1/admin/integrations/refusals') return json(200, pageOf([]));
      if (url.pathname === '/api/v1/admin/integrations') {
        return json(200, pageOf([integration, ringba]));
      }
      return noRoute();
    });
    renderWithApp(<IntegrationsPage />, { url: '/admin/integrations' });
    for (const [name, tracker, other] of [
      ['Ringba main', 'ringba', 'twilio'],
      ['Twilio numbers', 'twilio', 'ringba'],
    ] as const) {
      fireEvent.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
      fireEvent.click(await screen.findByRole('menuitem', { name: 'How to connect' }));
      const dialog = await screen.findByRole('dialog', { name: `How to connect · ${name}` });
      const steps = within(dialog).getByRole('list', { name: 'Setup steps' });
      const titles = within(steps)
        .getAllByRole('heading')
        .map((h) => h.textContent);
      expect(titles, name).toEqual(presetOf(tracker).setup.map((st) => st.trigger));
      expect(titles, name).not.toEqual(presetOf(other).setup.map((st) => st.trigger));
      fireEvent.keyDown(dialog, { key: 'Escape' });
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    }
  });
});
