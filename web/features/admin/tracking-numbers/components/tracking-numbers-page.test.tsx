import type { TrackingNumber, TrackingNumberImport } from '@contract/integrations.ts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, noRoute, pageOf, stubFetch } from '@/test/fake-api.ts';
import { itemTexts } from '@/test/item-texts.ts';
import { renderWithApp } from '@/test/render.tsx';
import { viewport } from '@/test/setup-dom.ts';
import { TrackingNumbersPage } from './tracking-numbers-page.tsx';

const ANN = '0b6f3c1e-2a4d-4e8f-9c1a-3d5e7f9a1b2c';
const SOLAR = '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';

const annSolar: TrackingNumber = {
  id: '1e2d3c4b-5a69-4788-9a0b-1c2d3e4f5a6b',
  number: '+18665551234',
  publisher_id: ANN,
  publisher_name: 'Ann Lee',
  offer_id: SOLAR,
  offer_title: 'Solar Inbound',
  created_at: '2026-11-25T09:00:00.000Z',
};

type Call = { method: string; path: string; query: string; body: unknown };
let calls: Call[];
let numbers: TrackingNumber[];
let createAnswer: { status: number; body: unknown };
let importAnswer: TrackingNumberImport;

beforeEach(() => {
  calls = [];
  numbers = [annSolar];
  createAnswer = { status: 201, body: annSolar };
  importAnswer = { created: 2, errors: [] };
  stubFetch(({ url, method, init, ...req }) => {
    const body = init?.body instanceof FormData ? (init.body.get('file') as File).name : req.body();
    calls.push({ method, path: url.pathname, query: url.search, body });
    const p = url.pathname;
    if (p === '/api/v1/admin/publishers') {
      return json(200, pageOf([{ id: ANN, name: 'Ann Lee', email: 'ann@example.com' }]));
    }
    if (p === '/api/v1/admin/offers') {
      return json(200, pageOf([{ id: SOLAR, title: 'Solar Inbound', status: 'active' }]));
    }
    if (p === '/api/v1/admin/tracking-numbers/import') return json(200, importAnswer);
    if (p === '/api/v1/admin/tracking-numbers' && method === 'POST') {
      return json(createAnswer.status, createAnswer.body);
    }
    if (p === '/api/v1/admin/tracking-numbers') {
      const q = url.searchParams.get('q');
      return json(200, pageOf(q ? [] : numbers));
    }
    if (p.startsWith('/api/v1/admin/tracking-numbers/') && method === 'DELETE') {
      numbers = [];
      return json(204, null);
    }
    return noRoute();
  });
});

const renderPage = (url = '/admin/tracking-numbers') =>
  renderWithApp(<TrackingNumbersPage />, { url });

async function pick(dialog: HTMLElement, label: RegExp, search: string, option: string) {
  const input = within(dialog).getByRole('combobox', { name: label });
  // A change counts as typing only in the focused input (else Mantine takes it for autofill).
  input.focus();
  fireEvent.click(input);
  fireEvent.change(input, { target: { value: search } });
  // In jsdom the open dropdown keeps display: none (nothing is laid out): its options are hidden.
  fireEvent.click(await screen.findByRole('option', { name: option, hidden: true }));
}

describe('TrackingNumbersPage', () => {
  it('lists numbers as people read them, with publisher, offer and when added', async () => {
    renderPage();
    const row = (await screen.findByText('+1 866 555 1234')).closest('tr')!;
    expect(within(row).getByText('+18665551234')).toBeTruthy();
    expect(within(row).getByText('Ann Lee')).toBeTruthy();
    expect(within(row).getByText('Solar Inbound')).toBeTruthy();
    expect(within(row).getByText(/2026/)).toBeTruthy();
  });

  it('says so when nothing is assigned yet, and when a search finds nothing', async () => {
    numbers = [];
    const first = renderPage();
    await screen.findByText('No tracking numbers yet.');
    expect(screen.getByText(/import a CSV file of number, publisher and offer/)).toBeTruthy();
    first.unmount();
    renderPage('/admin/tracking-numbers?q=999');
    await screen.findByText('No numbers match this search.');
    expect(calls.some((c) => c.query.includes('q=999'))).toBe(true);
  });

  it('deletes a number only after the confirmation', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete +1 866 555 1234' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete tracking number' });
    expect(dialog.textContent).toContain('will no longer go to Ann Lee on Solar Inbound');
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete number' }));
    await screen.findByText('No tracking numbers yet.');
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
      `/api/v1/admin/tracking-numbers/${annSolar.id}`,
    ]);
  });

  it('adds a number for a publisher on an offer, and says under the number who holds it', async () => {
    numbers = [];
    createAnswer = {
      status: 409,
      body: {
        error: {
          code: 'conflict',
          message: '+18665551234 is already assigned to Bob Ray on Medicare Calls.',
        },
      },
    };
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Add number' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add number' });
    // Nothing chosen: said per field, nothing sent.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add number' }));
    await within(dialog).findByText('Please select a publisher.');
    expect(within(dialog).getByText('Please select an offer.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Tracking number/ }), {
      target: { value: '(866) 555-1234' },
    });
    await pick(dialog, /^Publisher/, 'ann', 'Ann Lee (ann@example.com)');
    await pick(dialog, /^Offer/, 'sol', 'Solar Inbound');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add number' }));
    await within(dialog).findByText(
      '+18665551234 is already assigned to Bob Ray on Medicare Calls.',
    );
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { number: '(866) 555-1234', publisher_id: ANN, offer_id: SOLAR },
    ]);

    createAnswer = { status: 201, body: annSolar };
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add number' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add number' })).toBeNull());
  });

  it('imports a CSV file and lists each wrong line when nothing was imported', async () => {
    importAnswer = {
      created: 0,
      errors: [
        { line: 3, message: '"12" is not a valid phone number.' },
        { line: 7, message: 'No offer is titled "Solar"' },
      ],
    };
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Import CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import tracking numbers' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import' }));
    await within(dialog).findByText('Please choose a CSV file.');

    const file = new File(['number,publisher,offer\n'], 'numbers.csv', { type: 'text/csv' });
    fireEvent.change(dialog.querySelector('input[type=file]')!, { target: { files: [file] } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import' }));
    await within(dialog).findByText('Nothing was imported');
    const lines = within(dialog).getByRole('list', { name: 'Lines with errors' });
    expect(itemTexts(lines)).toEqual([
      'Line 3: "12" is not a valid phone number.',
      'Line 7: No offer is titled "Solar"',
    ]);
    expect(calls.filter((c) => c.path.endsWith('/import')).map((c) => c.body)).toEqual([
      'numbers.csv',
    ]);

    importAnswer = { created: 2, errors: [] };
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Import tracking numbers' })).toBeNull(),
    );
    await waitFor(() =>
      expect(document.querySelector('.mantine-Notification-root')?.textContent).toContain(
        '2 tracking numbers added.',
      ),
    );
  });

  it('shows each number as a card on a phone', async () => {
    viewport.width = 390;
    renderPage();
    const cards = await screen.findByRole('list', { name: 'Tracking numbers' });
    const card = within(cards).getByRole('listitem');
    expect(within(card).getByText('+1 866 555 1234')).toBeTruthy();
    expect(card.textContent).toContain('Ann Lee on Solar Inbound');
    expect(within(card).getByRole('button', { name: 'Delete +1 866 555 1234' })).toBeTruthy();
  });
});
