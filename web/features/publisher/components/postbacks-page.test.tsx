import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '@/test/render.tsx';
import { json, stubApi } from '@/test/stub-api.ts';
import { PostbacksPage } from './postbacks-page.tsx';

let saved: unknown[] = [];
let tested: unknown[] = [];

beforeEach(() => {
  saved = [];
  tested = [];
  stubApi(({ method, path, body }) => {
    if (path === '/api/v1/publisher/postbacks' && method === 'PUT') {
      saved.push(body);
      if (body.templates.some((t: { url: string }) => t.url.includes('{nope}')))
        return json(400, {
          error: { code: 'bad_request', message: 'Unknown token {nope} in the approved URL.' },
        });
      return json(200, { templates: body.templates, paused_at: null, passable_tags: ['sub_id'] });
    }
    if (path === '/api/v1/publisher/postbacks')
      return json(200, { templates: [], paused_at: null, passable_tags: ['sub_id'] });
    if (path === '/api/v1/publisher/postbacks/test') {
      tested.push(body);
      return json(200, {
        request: { method: 'GET', url: 'https://t.example.com/pb?c=sample', body: null },
        status: 200,
        body: 'OK conversion recorded',
        duration_ms: 42,
        error: null,
      });
    }
    if (path === '/api/v1/publisher/postback-deliveries')
      return json(200, { items: [], total: 0, page: 1, page_size: 25, next_cursor: null });
    return undefined;
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('PostbacksPage', () => {
  it('tests a template and shows the answer, saves it, and shows the server refusing a bad token', async () => {
    renderWithApp(<PostbacksPage />);
    const url = await screen.findByRole('textbox', { name: 'URL for Call payable (approved)' });
    expect(screen.getByText('{tag:sub_id}')).toBeTruthy();
    expect(await screen.findByText('No deliveries yet.')).toBeTruthy();

    fireEvent.change(url, { target: { value: 'https://t.example.com/pb?c={call_id}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test Call payable (approved)' }));
    expect(await screen.findByText('Answered 200 in 42 ms')).toBeTruthy();
    expect(screen.getByText('OK conversion recorded')).toBeTruthy();
    expect(tested).toEqual([
      { event: 'approved', method: 'GET', url: 'https://t.example.com/pb?c={call_id}', body: null },
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Save Postbacks' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toEqual({
      templates: [
        {
          event: 'approved',
          method: 'GET',
          url: 'https://t.example.com/pb?c={call_id}',
          body: null,
          offer_id: null,
        },
      ],
    });

    fireEvent.change(url, { target: { value: 'https://t.example.com/pb?c={nope}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Postbacks' }));
    const alert = await screen.findByText('Not saved');
    expect(
      within(alert.closest('[role="alert"]') as HTMLElement).getByText(
        'Unknown token {nope} in the approved URL.',
      ),
    ).toBeTruthy();
  });
});
